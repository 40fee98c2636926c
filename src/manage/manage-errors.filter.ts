import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WpError } from '../common/errors';
import { ManageRefusal, SignInRequired } from './manage-refusals';
import { ManageViews } from './manage-views';

/**
 * The editing pages answer in HTML, never the API's JSON: a missing session is a redirect to the
 * sign-in form (back here after), a refusal or an error of the write path is a page that says
 * what happened and what to do. Anything unexpected is logged and shown as a 500 page.
 */
@Catch()
export class ManageErrorsFilter implements ExceptionFilter {
  private readonly log = new Logger('ManagePages');

  constructor(private readonly views: ManageViews) {}

  async catch(err: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (err instanceof SignInRequired) {
      const next = err.next === undefined ? '' : `?next=${encodeURIComponent(err.next)}`;
      return void reply.status(303).redirect(`${this.views.login}${next}`, 303);
    }
    const editor = request.editor ?? (err instanceof ManageRefusal && err.session ? { actor: err.session.actor } : undefined);
    const { status, title, explanation, headers } = describe(err);
    if (status >= 500) this.log.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    await this.views.send(reply, { template: 'message', title, status, editor, data: { title, explanation, status } });
  }
}

function describe(err: unknown): { status: number; title: string; explanation: string; headers: Record<string, string> } {
  if (err instanceof ManageRefusal) return { status: err.status, title: err.title, explanation: err.explanation, headers: {} };
  if (err instanceof WpError) {
    const title =
      err.status === 404 ? 'Not found' : err.status === 403 || err.status === 401 ? 'Not allowed' : err.status === 429 ? 'Too many requests' : 'Not done';
    return { status: err.status === 401 ? 403 : err.status, title, explanation: err.message, headers: err.headers };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    return { status, title: status === 404 ? 'Not found' : 'Not done', explanation: err.message, headers: {} };
  }
  return { status: 500, title: 'Something went wrong', explanation: 'The page could not be shown. Nothing was changed; try again in a moment.', headers: {} };
}
