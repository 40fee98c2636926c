// Signing in to the editing pages (editing.md §1, §7, §8), through plain HTTP: the form, the
// failed-login limits shared with the API, the session cookie and its stored digest, expiry,
// what ends a session, `?next=`, form tokens and the Origin check, and that a session never
// authenticates the API. A session on two instances: manage-sign-in-instances (e2e-slow).
import { DataSource } from 'typeorm';
import { DateTime } from 'luxon';
import { UsersService } from '../../../src/users/users.service';
import { API, basicAuth } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';
import { fastifyOf, formToken, getPage, opens, postForm, rawSessionCookie, sessionCookieOf, signedIn, signIn } from '../../support/sign-in';

type Row = { token_hash: string; expires_utc: string; persistent: number | boolean; user_id: number };
const sessionRows = (t: TestApp) => t.app.get(DataSource).query('SELECT token_hash, expires_utc, persistent, user_id FROM sessions') as Promise<Row[]>;
const hoursAhead = (utc: string) => DateTime.fromSQL(utc, { zone: 'utc' }).diffNow('hours').hours;
const expireAll = (t: TestApp) => t.app.get(DataSource).query("UPDATE sessions SET expires_utc = '2000-01-01 00:00:00'");

describe('editing pages: signing in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_AUTH_MAX_FAILURES: '3', CALENDAR_AUTH_FAILURE_WINDOW: '600' });
  });
  afterAll(async () => t.close());

  it('the form has its labelled fields and the "Sign in" button', async () => {
    const res = await getPage(t, '/manage/login');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<label for="login">Login<\/label>\s*<input id="login" name="login"/);
    expect(res.body).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password"/);
    expect(res.body).toMatch(/<input id="remember" name="remember" type="checkbox"[^>]*>\s*<label for="remember">Keep me signed in<\/label>/);
    expect(res.body).toMatch(/<button type="submit"[^>]*>Sign in<\/button>/);
  });

  it('an editing page without a session sends the reader to the form, back to the page after', async () => {
    const res = await getPage(t, '/manage/?x=1');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/manage/login?next=${encodeURIComponent('/manage/?x=1')}`);
  });

  it('wrong credentials say so without telling which part was wrong', async () => {
    await t.app.get(UsersService).create('wrongs', 'editor', 'right-password-1');
    const badPassword = await postForm(t, '/manage/login', { login: 'wrongs', password: 'not-the-password' }, { remoteAddress: '10.0.0.1' });
    const noSuchUser = await postForm(t, '/manage/login', { login: 'nobody-here', password: 'not-the-password' }, { remoteAddress: '10.0.0.2' });
    for (const res of [badPassword, noSuchUser]) {
      expect(res.statusCode).toBe(401);
      expect(sessionCookieOf(res)).toBeUndefined();
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.body).toContain('role="alert"');
      expect(res.body).toContain('The login or the password is not right.');
    }
    const message = (html: string) => /role="alert"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1];
    expect(message(badPassword.body)).toBe(message(noSuchUser.body));
    // The login typed is kept, the password is not.
    expect(badPassword.body).toContain('value="wrongs"');
    expect(badPassword.body).not.toContain('not-the-password');
  });

  it("counts the form's failures per login with the API's: past the limit, 429 even with the right password", async () => {
    await t.app.get(UsersService).create('guessed', 'editor', 'right-password-2');
    // One failure through the API, two through the form, each from another address: the login's counter.
    const api = await fastifyOf(t).inject({
      method: 'GET',
      url: `${API}/events?status=draft`,
      headers: { authorization: basicAuth('guessed', 'wrong-1') },
      remoteAddress: '10.1.0.1',
    });
    expect(api.statusCode).toBe(401);
    for (const address of ['10.1.0.2', '10.1.0.3']) {
      expect((await postForm(t, '/manage/login', { login: 'guessed', password: 'wrong-x' }, { remoteAddress: address })).statusCode).toBe(401);
    }
    const res = await postForm(t, '/manage/login', { login: 'guessed', password: 'right-password-2' }, { remoteAddress: '10.1.0.4' });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).toContain('Too many failed sign-ins');
    expect(sessionCookieOf(res)).toBeUndefined();
  });

  it('counts failures per address too: other logins from that address are refused 429', async () => {
    await t.app.get(UsersService).create('innocent', 'editor', 'right-password-3');
    for (const login of ['a1', 'a2', 'a3']) {
      expect((await postForm(t, '/manage/login', { login, password: 'wrong-password' }, { remoteAddress: '10.2.0.9' })).statusCode).toBe(401);
    }
    const blocked = await postForm(t, '/manage/login', { login: 'innocent', password: 'right-password-3' }, { remoteAddress: '10.2.0.9' });
    expect(blocked.statusCode).toBe(429);
    // From another address the same user still signs in.
    const other = await postForm(t, '/manage/login', { login: 'innocent', password: 'right-password-3' }, { remoteAddress: '10.2.0.10' });
    expect(other.statusCode).toBe(303);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, without Max-Age or Secure over http', async () => {
    await t.app.get(UsersService).create('cookies', 'author', 'right-password-4');
    const res = await postForm(t, '/manage/login', { login: 'cookies', password: 'right-password-4' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/manage/');
    const raw = rawSessionCookie(res);
    expect(raw).toMatch(/; HttpOnly/i);
    expect(raw).toMatch(/; SameSite=Lax/i);
    expect(raw).toMatch(/; Path=\/(;|$)/);
    expect(raw).not.toMatch(/Max-Age|Expires/i);
    expect(raw).not.toMatch(/Secure/i);
  });

  it('"Keep me signed in" gives the cookie a Max-Age of 30 days', async () => {
    await t.app.get(UsersService).create('keeper', 'author', 'right-password-5');
    const res = await postForm(t, '/manage/login', { login: 'keeper', password: 'right-password-5', remember: '1' });
    expect(rawSessionCookie(res)).toMatch(new RegExp(`; Max-Age=${30 * 24 * 3600}(;|$)`));
  });

  it('stores only a digest of the token, and every sign-in issues a new token', async () => {
    const { cookie, password } = await signedIn(t, 'hashed', 'editor');
    const again = await signIn(t, 'hashed', password);
    expect(again).not.toBe(cookie);
    const rows = await sessionRows(t);
    for (const row of rows) {
      expect(row.token_hash).not.toContain(cookie);
      expect(row.token_hash).not.toContain(again);
    }
    expect(JSON.stringify(rows)).not.toContain(cookie);
    expect(await opens(t, cookie)).toBe(true);
    expect(await opens(t, again)).toBe(true);
  });

  it('a session idles out after 2 hours, 30 days with "keep me signed in"', async () => {
    const users = t.app.get(UsersService);
    const short = (await signedIn(t, 'idle-short', 'editor')).cookie;
    const long = (await signedIn(t, 'idle-long', 'editor', true)).cookie;
    const byUser = async (login: string) =>
      (
        (await t.app.get(DataSource).query('SELECT expires_utc, persistent FROM sessions WHERE user_id = ?', [(await users.findByLogin(login))!.id])) as Row[]
      )[0];
    const shortAhead = hoursAhead((await byUser('idle-short')).expires_utc);
    const longAhead = hoursAhead((await byUser('idle-long')).expires_utc);
    expect(shortAhead).toBeGreaterThan(1.9);
    expect(shortAhead).toBeLessThanOrEqual(2.01);
    expect(longAhead).toBeGreaterThan(30 * 24 - 0.1);
    expect(longAhead).toBeLessThanOrEqual(30 * 24 + 0.01);
    await expireAll(t);
    expect(await opens(t, short)).toBe(false);
    expect(await opens(t, long)).toBe(false);
  });

  it('signs out with POST /manage/logout: the session is gone', async () => {
    const { cookie } = await signedIn(t, 'leaver', 'editor');
    const token = await formToken(t, cookie);
    const res = await postForm(t, '/manage/logout', { _csrf: token }, { cookie });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/manage/login?signed_out=1');
    expect(rawSessionCookie(res)).toMatch(/^calendar_session=;/);
    expect(await opens(t, cookie)).toBe(false);
    const form = await getPage(t, '/manage/login?signed_out=1');
    expect(form.body).toContain('You are signed out.');
  });

  it('a new password, user:revoke and deleting the user end its sessions', async () => {
    const users = t.app.get(UsersService);
    const a = (await signedIn(t, 'ends-a', 'editor')).cookie;
    const b = (await signedIn(t, 'ends-b', 'editor')).cookie;
    const c = (await signedIn(t, 'ends-c', 'editor')).cookie;
    const bystander = (await signedIn(t, 'ends-d', 'editor')).cookie;
    await users.setPassword('ends-a');
    await users.revoke('ends-b');
    await users.delete('ends-c');
    expect(await opens(t, a)).toBe(false);
    expect(await opens(t, b)).toBe(false);
    expect(await opens(t, c)).toBe(false);
    expect(await opens(t, bystander)).toBe(true);
  });

  let nextUsers = 0;
  it.each([
    '//evil.example',
    '//evil.example/manage/',
    'https://evil.example/',
    '/\\evil.example',
    '/\\/evil.example',
    'javascript:alert(1)',
    'evil.example',
    ' /manage/',
  ])('`?next=%s` goes to /manage/ after sign-in', async (next) => {
    const login = `next-${(nextUsers += 1)}`;
    await t.app.get(UsersService).create(login, 'editor', 'next-password-1');
    const res = await postForm(t, '/manage/login', { login, password: 'next-password-1', next });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/manage/');
    const form = await getPage(t, `/manage/login?next=${encodeURIComponent(next)}`);
    expect(form.body).not.toContain('evil.example');
  });

  it('`?next=` that is a path on this site is where the sign-in goes', async () => {
    await t.app.get(UsersService).create('next-ok', 'editor', 'next-password-2');
    const form = await getPage(t, `/manage/login?next=${encodeURIComponent('/manage/events/?status=draft')}`);
    expect(form.body).toContain('name="next" value="/manage/events/?status=draft"');
    const res = await postForm(t, '/manage/login', { login: 'next-ok', password: 'next-password-2', next: '/manage/events/?status=draft' });
    expect(res.headers.location).toBe('/manage/events/?status=draft');
  });

  it('a session never authenticates the API', async () => {
    const { cookie } = await signedIn(t, 'api-admin', 'administrator');
    const anonymous = await fastifyOf(t).inject({ method: 'GET', url: `${API}/events?status=draft` });
    const withCookie = await getPage(t, `${API}/events?status=draft`, cookie);
    expect(anonymous.statusCode).toBe(400);
    expect(withCookie.statusCode).toBe(400);
    expect(withCookie.json()).toEqual(anonymous.json());
    const post = await fastifyOf(t).inject({
      method: 'POST',
      url: `${API}/events`,
      headers: { cookie: `calendar_session=${cookie}`, 'content-type': 'application/json', origin: t.baseUrl },
      payload: JSON.stringify({ title: 'By cookie', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' }),
    });
    expect(post.statusCode).toBe(401);
  });

  describe('form tokens and the Origin check', () => {
    let cookie: string;
    let token: string;
    beforeAll(async () => {
      cookie = (await signedIn(t, 'forms', 'editor')).cookie;
      token = await formToken(t, cookie);
    });

    const refused = (res: { statusCode: number; body: string; headers: Record<string, unknown> }, why: RegExp) => {
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toMatch(why);
    };

    it("a form post without _csrf, with a wrong one or with another session's is refused with a page saying why", async () => {
      const other = (await signedIn(t, 'forms-other', 'editor')).cookie;
      const othersToken = await formToken(t, other);
      refused(await postForm(t, '/manage/logout', {}, { cookie }), /The form has expired/);
      refused(await postForm(t, '/manage/logout', { _csrf: 'x'.repeat(40) }, { cookie }), /The form has expired/);
      refused(await postForm(t, '/manage/logout', { _csrf: othersToken }, { cookie }), /The form has expired/);
      expect(await opens(t, cookie)).toBe(true);
    });

    it('a foreign Origin is refused, and so is a post with neither Origin nor Referer', async () => {
      refused(await postForm(t, '/manage/logout', { _csrf: token }, { cookie, headers: { origin: 'https://evil.example' } }), /not sent from this site/);
      refused(await postForm(t, '/manage/logout', { _csrf: token }, { cookie, headers: { origin: '' } }), /not sent from this site/);
      refused(
        await postForm(t, '/manage/logout', { _csrf: token }, { cookie, headers: { origin: '', referer: 'https://evil.example/manage/' } }),
        /not sent from this site/,
      );
      // The sign-in form too: a login CSRF is refused.
      refused(
        await postForm(t, '/manage/login', { login: 'forms', password: 'pw-forms-secret' }, { headers: { origin: 'https://evil.example' } }),
        /not sent from this site/,
      );
      expect(await opens(t, cookie)).toBe(true);
    });

    it('a same-site Referer without Origin is accepted', async () => {
      const res = await postForm(t, '/manage/logout', { _csrf: token }, { cookie, headers: { origin: '', referer: `${t.baseUrl}/manage/events/` } });
      expect(res.statusCode).toBe(303);
      expect(await opens(t, cookie)).toBe(false);
    });
  });

  it('a subscriber signs in and is told the account has no editing rights (403)', async () => {
    const { cookie } = await signedIn(t, 'reader', 'subscriber');
    const res = await getPage(t, '/manage/', cookie);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('No editing rights');
    expect(res.body).toContain('“reader”');
  });

  it('editing pages are not stored, not framed, and have no inline script or style', async () => {
    const { cookie } = await signedIn(t, 'headers', 'editor');
    const pages = [
      await getPage(t, '/manage/login'),
      await getPage(t, '/manage/', cookie),
      await getPage(t, '/manage/'),
      await postForm(t, '/manage/logout', {}, { cookie }),
    ];
    for (const res of pages) {
      expect(res.headers['cache-control']).toBe('no-store');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
    }
  });

  it('a sign-in sweeps away expired sessions', async () => {
    const { password } = await signedIn(t, 'sweeper', 'editor');
    await expireAll(t);
    await signIn(t, 'sweeper', password);
    const rows = await sessionRows(t);
    expect(rows.length).toBe(1);
    expect(hoursAhead(rows[0].expires_utc)).toBeGreaterThan(1);
  });
});

describe('editing pages behind https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_BASE_URL: 'https://calendar.example' });
  });
  afterAll(async () => t.close());

  it('the session cookie is Secure when the base URL is https', async () => {
    await t.app.get(UsersService).create('secure', 'editor', 'secure-password');
    const res = await postForm(t, '/manage/login', { login: 'secure', password: 'secure-password' });
    expect(res.statusCode).toBe(303);
    expect(rawSessionCookie(res)).toMatch(/; Secure/);
  });
});

describe('CALENDAR_MANAGE=off', () => {
  it('the editing pages answer 404 in JSON', async () => {
    const t = await createTestApp({ CALENDAR_MANAGE: 'off' });
    try {
      for (const url of ['/manage/', '/manage/login']) {
        const res = await getPage(t, url);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
      const post = await postForm(t, '/manage/login', { login: 'x', password: 'y' });
      expect(post.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
