// The public submission form (editing.md §4) as a browser uses it, without a browser: open the
// form (its cookie, token and stamp), post it back as a page of this site does.
import type { LightMyRequestResponse } from 'fastify';
import { stringify } from 'qs';
import { SubmissionStamps } from '../../src/submissions/submission-stamps';
import { fastifyOf, SESSION_COOKIE } from './sign-in';
import type { TestApp } from './test-app';

export const ADD = '/events/community/add/';
export const THANKS = '/events/community/add/thanks/';
export const LIST = '/events/community/list/';
/** The cookie an anonymous submitter's form token is bound to. */
export const SUBMISSION_COOKIE = 'calendar_submission';

/** A form as it was given: its page, the cookies to send it back with, its token and stamp. */
export interface OpenedForm {
  status: number;
  html: string;
  /** `name=value; …` of the cookies a browser would send back. */
  cookie: string;
  token: string;
  stamp: string;
}

/** GET the form (with a signed-in user's session cookie value, when given). */
export async function openForm(t: TestApp, session?: string): Promise<OpenedForm> {
  const res = await fastifyOf(t).inject({ method: 'GET', url: ADD, headers: session ? { cookie: `${SESSION_COOKIE}=${session}` } : {} });
  const set = res.cookies.find((c) => c.name === SUBMISSION_COOKIE);
  const cookies = [...(session ? [`${SESSION_COOKIE}=${session}`] : []), ...(set ? [`${SUBMISSION_COOKIE}=${set.value}`] : [])];
  return {
    status: res.statusCode,
    html: res.body,
    cookie: cookies.join('; '),
    token: /name="_csrf" value="([^"]*)"/.exec(res.body)?.[1] ?? '',
    stamp: /name="stamp" value="([^"]*)"/.exec(res.body)?.[1] ?? '',
  };
}

/** A stamp the app signs as if its form had been given `ago` milliseconds ago (no test waits). */
export function stampFrom(t: TestApp, ago: number): string {
  return t.app.get(SubmissionStamps).issue(Date.now() - ago);
}

/** A day next year: inside the event list's default window (from yesterday, two years ahead). */
export const NEXT_YEAR_DAY = `${new Date().getUTCFullYear() + 1}-07-14`;

/** The fields of a valid submission (an anonymous one: with name and e-mail), `fields` over them. */
export function submission(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Jazz by the river',
    description: 'An evening of jazz.',
    start_date: NEXT_YEAR_DAY,
    start_time: '19:00',
    end_date: NEXT_YEAR_DAY,
    end_time: '22:00',
    timezone: 'Europe/Paris',
    venue: '',
    your_name: 'Ada Submitter',
    your_email: 'ada.submitter@example.org',
    action: 'submit',
    ...fields,
  };
}

/**
 * POSTs the form as a browser on this site does: its cookies, token and (unless `fields` says
 * otherwise) a stamp of ten seconds ago; `headers` replace the Origin and add others (an empty
 * value removes one).
 */
export function sendForm(
  t: TestApp,
  form: OpenedForm,
  fields: Record<string, unknown>,
  opts: { headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    origin: new URL(t.baseUrl).origin,
    ...(form.cookie ? { cookie: form.cookie } : {}),
    ...opts.headers,
  };
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  const payload = stringify({ _csrf: form.token, stamp: stampFrom(t, 10_000), ...fields });
  return fastifyOf(t).inject({ method: 'POST', url: ADD, headers, payload, ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}) });
}
