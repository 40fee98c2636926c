import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { assertSameOrigin, type EventFormValues, FORM_TOKEN_FIELD, ManageRefusal, postedValues, EventFormHooks } from '../manage';
import type { OpenSession } from '../users';
import { SubmissionErrorsFilter } from './submission-errors.filter';
import { SubmissionFormViews } from './submission-form-views';
import { FORM_ID, refused, SubmissionRefused } from './submission-refusals';
import { SubmissionRequests } from './submission-requests';
import { SUBMISSIONS_MODE } from './submission-settings';
import { SubmissionStamps } from './submission-stamps';
import { postedSubmitter, submissionProblems, type SubmitterValues } from './submission-values';
import { SubmissionViews } from './submission-views';
import { SubmissionWriter } from './submission-writer';
import { SubmittedEvents } from './submitted-events';

type Json = Record<string, unknown>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A submission page (editing.md §4): never stored by a cache, never framed (submissions-http.ts). */
    submission?: boolean;
  }
}

/** Route config of every submission page. */
const SubmissionRoute = () => RouteConfig({ submission: true });

/** The name of the field people never see and programs fill in. */
const HONEYPOT = 'extra_info';

/**
 * The public submission form (editing.md §4) at TEC Community Events' address: GET shows it, POST
 * takes it. A post is checked in this order, and each refusal is a page that says what to do and
 * writes nothing: sent from this site (Origin or Referer), signed in when only users may submit,
 * the form token, then (for "Submit event" only; the pickers' buttons show the form again) the
 * field people leave empty, the signed timestamp, the form's own checks, the hourly limits and
 * the API's checks in the write. A taken submission goes to the thank-you page (303).
 */
@ApiExcludeController()
@UseFilters(SubmissionErrorsFilter)
@Controller('events/community')
export class SubmissionsController {
  constructor(
    private readonly requests: SubmissionRequests,
    private readonly stamps: SubmissionStamps,
    private readonly writer: SubmissionWriter,
    private readonly forms: SubmissionFormViews,
    private readonly views: SubmissionViews,
    private readonly submitted: SubmittedEvents,
    private readonly hooks: EventFormHooks,
    private readonly config: AppConfig,
  ) {}

  @Get('add')
  @SubmissionRoute()
  async form(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const session = await this.requests.session(request);
    if (this.mustSignIn(session)) return this.signInPage(reply, 200);
    return this.show(request, reply, session, {
      values: this.forms.newValues(),
      submitter: session ? null : { name: '', email: '' },
      stamp: this.stamps.issue(),
    });
  }

  @Post('add')
  @SubmissionRoute()
  async take(@Body() body: Json | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    assertSameOrigin(request, this.config.baseUrl);
    const posted = body ?? {};
    const session = await this.requests.session(request);
    if (this.mustSignIn(session)) return this.signInPage(reply, 403);
    const values = postedValues(posted, this.hooks.all());
    const submitter = session ? null : postedSubmitter(posted);
    const form = { values, submitter, stamp: this.stampOf(posted.stamp) };
    if (!this.requests.tokenAccepted(request, session, posted[FORM_TOKEN_FIELD])) {
      const expired = 'This form has expired or was opened in another browser, so nothing was sent. Your event is kept below: check it and send it again.';
      return this.show(request, reply, session, { ...form, errors: [{ field: FORM_ID, message: expired }] }, 403);
    }
    const action = typeof posted.action === 'string' ? posted.action : 'submit';
    if (action.startsWith('venues_') || action.startsWith('organizers_'))
      return this.show(request, reply, session, { ...form, values: turnPage(values, action) });
    try {
      this.check(posted, values, submitter);
      const by = session ? { name: session.actor.login, email: '', userId: session.actor.id } : { ...(submitter as SubmitterValues), userId: null };
      await this.writer.submit(values, by, request.ip);
    } catch (err) {
      if (!(err instanceof SubmissionRefused)) throw err;
      for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
      return this.show(request, reply, session, { ...form, errors: err.errors }, err.status);
    }
    return reply.redirect(this.views.path('add', 'thanks'), 303);
  }

  @Get('add/thanks')
  @SubmissionRoute()
  async thanks(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const session = await this.requests.session(request);
    return this.views.send(reply, { template: 'thanks', title: 'Thank you', data: { signedIn: session !== null } });
  }

  @Get('list')
  @SubmissionRoute()
  async list(@Query('page') page: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const session = await this.requests.session(request);
    const data = session
      ? { signedIn: true, ...(await this.submitted.page(session.actor.id, pageNumber(page))) }
      : { signedIn: false, signInUrl: this.views.signIn(this.views.path('list')) };
    return this.views.send(reply, { template: 'list', title: 'Your submitted events', data });
  }

  /** The form's stylesheet, under a name that changes with its content, so it may be kept for a year. */
  @Get('assets/:file')
  @SubmissionRoute()
  asset(@Param('file') file: string, @Res() reply: FastifyReply) {
    const css = this.views.stylesheet;
    if (file !== css.file) throw new ManageRefusal(404, 'Not found', 'There is no such file.');
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type('text/css; charset=UTF-8').send(css.body);
  }

  /**
   * The checks of "Submit event" before the write: the field people leave empty, the stamp
   * (forged or missing, too early, too late), then the form's own checks. Throws SubmissionRefused.
   */
  private check(posted: Json, values: EventFormValues, submitter: SubmitterValues | null): void {
    const honeypot = posted[HONEYPOT];
    if (honeypot !== undefined && honeypot !== '') {
      throw refused(400, 'The form could not be taken as it was sent. Your event is kept below: check it and send it again.');
    }
    const stamp = this.stamps.read(posted.stamp);
    if (!stamp.ok) {
      if (stamp.problem === 'early') {
        throw refused(429, 'The form was sent very quickly after it was opened, so it was not taken. Check your event below and send it again.', {
          'retry-after': '3',
        });
      }
      const why = stamp.problem === 'late' ? 'was opened more than a day ago' : 'could not be read';
      throw refused(400, `The form ${why}, so nothing was sent. Your event is kept below: check it and send it again.`);
    }
    const problems = submissionProblems(values, submitter);
    if (problems.length > 0) throw new SubmissionRefused(400, problems);
  }

  /** Only signed-in users may submit and this request has no session. */
  private mustSignIn(session: OpenSession | null): boolean {
    return session === null && this.config.get(SUBMISSIONS_MODE) === 'users';
  }

  private signInPage(reply: FastifyReply, status: number) {
    const url = this.views.signIn(this.views.path('add'));
    const data = {
      title: 'Sign in to submit an event',
      explanation: url
        ? 'Only users of this site may submit events. Sign in with your login and password, and you come back to the form.'
        : 'Only users of this site may submit events, and signing in is not available.',
      link: url ? { href: url, text: 'Sign in' } : null,
    };
    return this.views.send(reply, { template: 'message', title: data.title, status, data });
  }

  /**
   * The stamp of a form shown again: the posted one while it is good or only too early (the same
   * form may then go again in a moment), else a new one.
   */
  private stampOf(posted: unknown): string {
    const reading = this.stamps.read(posted);
    return reading.ok || reading.problem === 'early' ? String(posted) : this.stamps.issue();
  }

  private async show(
    request: FastifyRequest,
    reply: FastifyReply,
    session: OpenSession | null,
    view: { values: EventFormValues; submitter: SubmitterValues | null; stamp: string; errors?: { field: string; message: string }[] },
    status = 200,
  ) {
    const formToken = this.requests.formToken(request, reply, session);
    const data = await this.forms.build({ ...view, formToken, signedInAs: session?.actor.login });
    return this.views.send(reply, { template: 'form', title: 'Submit an event', status, data });
  }
}

/** The values with a picker's page turned (`venues_find`, `venues_next`, `venues_previous`, likewise organizers). */
function turnPage(values: EventFormValues, action: string): EventFormValues {
  const [picker, move] = action.split('_');
  const key = picker === 'venues' ? 'venue_page' : 'organizer_page';
  values[key] = move === 'next' ? values[key] + 1 : move === 'previous' ? Math.max(1, values[key] - 1) : 1;
  return values;
}

function pageNumber(value: unknown): number {
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return Math.max(1, n);
}
