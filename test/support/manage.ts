import type { TestApp } from './test-app';

/** One answer of an editing page, as plain HTTP gives it. */
export interface PageAnswer {
  status: number;
  html: string;
  location: string | undefined;
  headers: Record<string, unknown>;
}

/** A form's fields as a browser sends them: name and value pairs, in order (a name may repeat). */
export type FormPairs = [string, string][];

const inject = (t: TestApp) => t.app.getHttpAdapter().getInstance();

/** Signs in through the sign-in form (as a browser does) and answers the session cookie (`name=value`). */
export async function signIn(t: TestApp, login: string, password: string): Promise<string> {
  const res = await inject(t).inject({
    method: 'POST',
    url: '/manage/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.baseUrl },
    payload: new URLSearchParams({ login, password }).toString(),
  });
  const cookie = [res.headers['set-cookie']].flat().find((c): c is string => typeof c === 'string' && c.startsWith('calendar_session='));
  if (res.statusCode !== 303 || !cookie) throw new Error(`sign-in of ${login} failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return cookie.split(';')[0];
}

/** A user made for the test (through the API's users service) and signed in: its id and its session cookie. */
export async function signedInUser(t: TestApp, login: string, role: string): Promise<{ id: number; cookie: string; authorization: string }> {
  const { id, authorization } = await t.userHeader(login, role);
  const password = Buffer.from(authorization.slice('Basic '.length), 'base64')
    .toString()
    .slice(login.length + 1);
  return { id, cookie: await signIn(t, login, password), authorization };
}

/** GET an editing page with a session. */
export async function getPage(t: TestApp, cookie: string, path: string): Promise<PageAnswer> {
  const res = await inject(t).inject({ method: 'GET', url: path, headers: { cookie } });
  return answer(res);
}

/** POSTs a form as a browser on this site does (same Origin, urlencoded), with the session cookie. */
export async function postForm(t: TestApp, cookie: string, path: string, fields: FormPairs | Record<string, string>): Promise<PageAnswer> {
  const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
  const res = await inject(t).inject({
    method: 'POST',
    url: path,
    headers: { cookie, origin: t.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(pairs).toString(),
  });
  return answer(res);
}

/** The page's form token (`_csrf`). */
export function formToken(html: string): string {
  const m = /name="_csrf" value="([^"]*)"/.exec(html);
  if (!m) throw new Error('no _csrf field on the page');
  return decode(m[1]);
}

/**
 * What the form with this id would send with no change and no button pressed: text inputs,
 * textareas, checked checkboxes and radios, the selected option of each select.
 */
export function formPairs(html: string, formId: string): FormPairs {
  const start = html.indexOf(`id="${formId}"`);
  if (start < 0) throw new Error(`no form #${formId}`);
  const body = html.slice(start, html.indexOf('</form>', start));
  const pairs: FormPairs = [];
  for (const m of body.matchAll(/<input\b[^>]*>|<textarea\b[^>]*>[\s\S]*?<\/textarea>|<select\b[^>]*>[\s\S]*?<\/select>/g)) {
    const tag = m[0];
    const name = attr(tag, 'name');
    if (name === undefined || / disabled[\s>=]/.test(tag.split('>')[0])) continue;
    if (tag.startsWith('<textarea')) {
      pairs.push([name, decode(tag.replace(/^<textarea\b[^>]*>/, '').replace(/<\/textarea>$/, ''))]);
    } else if (tag.startsWith('<select')) {
      const selected = /<option value="([^"]*)" selected>/.exec(tag) ?? /<option value="([^"]*)"/.exec(tag);
      if (selected) pairs.push([name, decode(selected[1])]);
    } else {
      const type = attr(tag, 'type') ?? 'text';
      if (type === 'submit' || type === 'button') continue;
      if ((type === 'checkbox' || type === 'radio') && !/ checked[\s>]/.test(tag)) continue;
      pairs.push([name, attr(tag, 'value') ?? (type === 'checkbox' ? 'on' : '')]);
    }
  }
  return pairs;
}

/** `pairs` with `changes` applied: a string replaces every value of that name (one pair), an array replaces them all, null removes them. */
export function withFields(pairs: FormPairs, changes: Record<string, string | string[] | null>): FormPairs {
  const out = pairs.filter(([name]) => !(name in changes));
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) continue;
    for (const each of Array.isArray(value) ? value : [value]) out.push([name, each]);
  }
  return out;
}

/** The control a label names on the page: its id, value (inputs; textareas' text) and the message tied to it by aria-describedby. */
export function control(html: string, label: string): { id: string; value: string | undefined; describedBy: string[]; messages: string[] } {
  const m = new RegExp(`<label for="([^"]+)">${escapeRe(label)}</label>`).exec(html);
  if (!m) throw new Error(`no control labelled "${label}"`);
  const id = m[1];
  const tag = new RegExp(`<(input|textarea|select)\\b[^>]*\\bid="${escapeRe(id)}"[^>]*>`).exec(html)?.[0] ?? '';
  const value = tag.startsWith('<textarea')
    ? decode(new RegExp(`<textarea\\b[^>]*\\bid="${escapeRe(id)}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html)?.[1] ?? '')
    : attr(tag, 'value');
  const describedBy = (attr(tag, 'aria-describedby') ?? '').split(' ').filter(Boolean);
  const messages = describedBy.map((ref) => textOf(new RegExp(`id="${escapeRe(ref)}"[^>]*>([\\s\\S]*?)</`).exec(html)?.[1] ?? ''));
  return { id, value, describedBy, messages };
}

/** The text of the element with role="alert" (the error summary), or null. */
export function alertText(html: string): string | null {
  const m = /<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  return m ? textOf(m[1]) : null;
}

/** Does the page have a button with this text? */
export function hasButton(html: string, text: string): boolean {
  return new RegExp(`<button\\b[^>]*>${escapeRe(text)}</button>`).test(html);
}

/** The page's text, tags removed and entities decoded (for `toContain`). */
export function textOf(html: string): string {
  return decode(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

function answer(res: { statusCode: number; body: string; headers: Record<string, unknown> }): PageAnswer {
  const location = res.headers.location;
  return { status: res.statusCode, html: res.body, location: typeof location === 'string' ? location : undefined, headers: res.headers };
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decode(m[1]) : undefined;
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
