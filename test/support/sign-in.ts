import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { stringify } from 'qs';
import type { TestApp } from './test-app';

/** The editing pages' session cookie (src/manage/manage-http.ts). */
export const SESSION_COOKIE = 'calendar_session';

/** The fastify instance of a test app, to send requests with full control of headers and cookies. */
export const fastifyOf = (t: TestApp) => t.app.getHttpAdapter().getInstance() as unknown as FastifyInstance;

/** The session cookie's value a sign-in answer sets, or undefined. */
export function sessionCookieOf(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
}

/** The raw `Set-Cookie` header of the session cookie. */
export function rawSessionCookie(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  return all.find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? '';
}

/** The `_csrf` value of the first form of a page that carries one. */
export function formTokenOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no _csrf field in the page');
  return m[1];
}

/** Posts a form (urlencoded) from a page of this site (`Origin` the app's base URL unless given). */
export function postForm(
  t: TestApp,
  url: string,
  form: Record<string, unknown>,
  opts: { cookie?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    origin: new URL(t.baseUrl).origin,
    ...(opts.cookie ? { cookie: `${SESSION_COOKIE}=${opts.cookie}` } : {}),
    ...opts.headers,
  };
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  const req: InjectOptions = { method: 'POST', url, headers, payload: stringify(form), ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}) };
  return fastifyOf(t).inject(req);
}

/** GET with the session cookie. */
export function getPage(t: TestApp, url: string, cookie?: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return fastifyOf(t).inject({ method: 'GET', url, headers: { ...(cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {}), ...headers } });
}

/** Signs in through the form; answers the session cookie's value (fails the test when none is set). */
export async function signIn(t: TestApp, login: string, password: string, keep = false): Promise<string> {
  const res = await postForm(t, '/manage/login', { login, password, ...(keep ? { remember: '1' } : {}) });
  const cookie = sessionCookieOf(res);
  if (res.statusCode !== 303 || !cookie) throw new Error(`sign-in of ${login} failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return cookie;
}

/** Creates a user with a known password and signs it in. */
export async function signedIn(t: TestApp, login: string, role: string, keep = false): Promise<{ cookie: string; password: string }> {
  const { UsersService } = await import('../../src/users/users.service');
  const password = `pw-${login}-secret`;
  await t.app.get(UsersService).create(login, role, password);
  return { cookie: await signIn(t, login, password, keep), password };
}

/** The `_csrf` of a page opened with the session. */
export async function formToken(t: TestApp, cookie: string, url = '/manage/'): Promise<string> {
  const res = await getPage(t, url, cookie);
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode}`);
  return formTokenOf(res.body);
}

/** Whether the cookie still opens the overview (200) or is sent to sign in (303). */
export async function opens(t: TestApp, cookie: string): Promise<boolean> {
  const res = await getPage(t, '/manage/', cookie);
  if (res.statusCode === 303) {
    expect(res.headers.location).toMatch(/^\/manage\/login/);
    return false;
  }
  expect(res.statusCode).toBe(200);
  return true;
}
