import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { WpError } from '../common/errors';
import { ManageRefusal } from '../manage';
import { SubmissionViews } from './submission-views';

/**
 * The submission pages answer in HTML, in the public site's layout, never the API's JSON: a
 * refusal (a form not sent from this site) or an error of the write path is a page that says
 * what happened and what to do; anything unexpected is logged and shown as a 500 page.
 */
@Catch()
export class SubmissionErrorsFilter implements ExceptionFilter {
  private readonly log = new Logger('SubmissionPages');

  constructor(private readonly views: SubmissionViews) {}

  async catch(err: unknown, host: ArgumentsHost): Promise<void> {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, title, explanation, headers } = describe(err);
    if (status >= 500 && !(err instanceof WpError)) this.log.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    const link = { href: this.views.path('add'), text: 'Back to the submission form' };
    await this.views.send(reply, { template: 'message', title, status, data: { title, explanation, link } });
  }
}

function describe(err: unknown): { status: number; title: string; explanation: string; headers: Record<string, string> } {
  if (err instanceof ManageRefusal) return { status: err.status, title: err.title, explanation: err.explanation, headers: {} };
  if (err instanceof WpError) {
    const title = err.status === 404 ? 'Not found' : err.status >= 500 ? 'Not sent' : 'Not done';
    return { status: err.status, title, explanation: `${err.message} Nothing was sent.`, headers: err.headers };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    return { status, title: status === 404 ? 'Not found' : 'Not done', explanation: err.message, headers: {} };
  }
  return { status: 500, title: 'Something went wrong', explanation: 'The page could not be shown. Nothing was sent; try again in a moment.', headers: {} };
}
