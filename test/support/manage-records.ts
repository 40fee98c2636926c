// An editor in the editing pages (editing.md), over plain HTTP: signs in through the sign-in form,
// keeps the session cookie, and sends forms as a browser does (the page's `_csrf`, an Origin of
// this site, url-encoded bodies). Used by the venue, organizer, category and tag page tests.
import { stringify } from 'qs';
import type { TestApp } from './test-app';

/** The origin the editing pages accept forms from (test-app.ts' CALENDAR_BASE_URL). */
export const ORIGIN = 'http://127.0.0.1:3000';

export interface PageAnswer {
  status: number;
  html: string;
  location?: string;
}

/** The login and password inside an API `Authorization: Basic …` header (TestApp.userHeader). */
export function credentialsOf(authorization: string): { login: string; password: string } {
  const decoded = Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  return { login: decoded.slice(0, at), password: decoded.slice(at + 1) };
}

export class EditorPages {
  private constructor(
    private readonly t: TestApp,
    private readonly cookie: string,
  ) {}

  /** Signs in through POST /manage/login (login, password, next) and returns the signed-in editor. */
  static async signIn(t: TestApp, authorization: string): Promise<EditorPages> {
    const { login, password } = credentialsOf(authorization);
    const res = await inject(t, 'POST', '/manage/login', { origin: ORIGIN }, { login, password, next: '/manage/' });
    if (res.statusCode !== 303) throw new Error(`sign-in of ${login} answered ${res.statusCode}: ${res.body}`);
    const setCookie = [res.headers['set-cookie']].flat().find((c) => typeof c === 'string' && c.startsWith('calendar_session='));
    if (!setCookie) throw new Error(`sign-in of ${login} set no session cookie`);
    return new EditorPages(t, setCookie.split(';')[0]);
  }

  async get(path: string): Promise<PageAnswer> {
    return answerOf(await inject(this.t, 'GET', path, { cookie: this.cookie }));
  }

  /**
   * Sends a form to `path` as the page at `formPage` would (its `_csrf` first, then `fields`).
   * `fields` may override `_csrf`; a `null` leaves the field out.
   */
  async post(path: string, fields: Record<string, string | string[] | null>, formPage = path): Promise<PageAnswer> {
    const token = await this.formToken(formPage);
    const body: Record<string, string | string[]> = { _csrf: token };
    for (const [k, v] of Object.entries(fields)) {
      if (v === null) delete body[k];
      else body[k] = v;
    }
    return answerOf(await inject(this.t, 'POST', path, { cookie: this.cookie, origin: ORIGIN }, body));
  }

  /** The form token of the session, read from a page's hidden `_csrf` input (the overview when the page has none). */
  async formToken(page = '/manage/'): Promise<string> {
    let html = (await this.get(page)).html;
    if (!/name="_csrf"/.test(html)) html = (await this.get('/manage/')).html;
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error(`no form token on ${page}`);
    return token;
  }
}

/** The value of the hidden or text input `name` of a page (the first one), HTML entities decoded. */
export function inputValue(html: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*\\bname="${escapeRe(name)}"[^>]*>`).exec(html)?.[0];
  const value = tag ? /\bvalue="([^"]*)"/.exec(tag)?.[1] : undefined;
  return value === undefined ? undefined : decode(value);
}

/** The text of the element with this id (tags removed, whitespace collapsed). */
export function textOf(html: string, id: string): string | undefined {
  const m = new RegExp(`<(\\w+)[^>]*\\bid="${escapeRe(id)}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return m ? plain(m[2]) : undefined;
}

/** The page's text, tags removed and whitespace collapsed. */
export function plain(html: string): string {
  return decode(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The rows of the first table of a page, as the cells' texts, with the row's `data-id`. */
export function tableRows(html: string): { id: number; cells: string[] }[] {
  return [...html.matchAll(/<tr data-id="(\d+)"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => ({
    id: Number(m[1]),
    cells: [...m[2].matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => plain(c[1])),
  }));
}

function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function answerOf(res: { statusCode: number; body: string; headers: Record<string, unknown> }): PageAnswer {
  const location = res.headers.location;
  return { status: res.statusCode, html: res.body, location: typeof location === 'string' ? location : undefined };
}

function inject(t: TestApp, method: 'GET' | 'POST', url: string, headers: Record<string, string>, form?: Record<string, unknown>) {
  const fastify = t.app.getHttpAdapter().getInstance();
  return fastify.inject({
    method,
    url,
    headers: form === undefined ? headers : { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form === undefined ? undefined : stringify(form, { arrayFormat: 'brackets' }),
  });
}
