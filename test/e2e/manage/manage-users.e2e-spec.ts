// The users page of the editing pages (editing.md §2, administrators only): list (paged), add
// (the generated password shown once), change role, set a password, end sessions, delete with
// a confirmation step and the reassignment of authored items; the last administrator refused.
import { DataSource } from 'typeorm';
import { UserEntity } from '../../../src/users/user.entity';
import { UsersService } from '../../../src/users/users.service';
import { createEvent } from '../../support/api';
import { API, basicAuth, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';
import { formToken, getPage, postForm, signedIn, signIn } from '../../support/sign-in';

describe('editing pages: users', () => {
  let t: TestApp;
  let admin: string;
  let token: string;
  const users = () => t.app.get(UsersService);
  const idOf = async (login: string) => (await users().findByLogin(login))!.id;
  const opens = async (cookie: string) => (await getPage(t, '/manage/', cookie)).statusCode === 200;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedIn(t, 'boss', 'administrator')).cookie;
    token = await formToken(t, admin, '/manage/users/');
  });
  afterAll(async () => t.close());

  it.each(['editor', 'author', 'contributor'])('an %s gets the 403 page on every users page, and no menu entry', async (role) => {
    const { cookie } = await signedIn(t, `not-admin-${role}`, role);
    const target = await idOf('boss');
    for (const url of ['/manage/users/', '/manage/users/new', `/manage/users/${target}/`, `/manage/users/${target}/delete`]) {
      const res = await getPage(t, url, cookie);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('Administrators only');
    }
    const own = await formToken(t, cookie);
    const post = await postForm(t, `/manage/users/${target}/role`, { _csrf: own, role: 'subscriber' }, { cookie });
    expect(post.statusCode).toBe(403);
    expect((await users().findByLogin('boss'))!.role).toBe('administrator');
    expect((await getPage(t, '/manage/', cookie)).body).not.toContain('href="/manage/users/"');
  });

  it('lists users with their roles, paged', async () => {
    // Rows written directly: 55 scrypt hashes would take the test's whole time.
    await t.app
      .get(DataSource)
      .getRepository(UserEntity)
      .insert(
        Array.from({ length: 55 }, (_, i) => ({
          login: `listed-${String(i).padStart(2, '0')}`,
          role: i % 2 ? ('author' as const) : ('editor' as const),
          createdUtc: '2026-01-01 00:00:00',
        })),
      );
    const first = await getPage(t, '/manage/users/', admin);
    expect(first.statusCode).toBe(200);
    expect(first.body).toMatch(/<a href="\/manage\/users\/\d+\/">boss<\/a> \(you\)<\/td><td>administrator<\/td>/);
    expect(first.body).toMatch(/>listed-00<\/a><\/td><td>editor<\/td>/);
    expect(first.body).toMatch(/>listed-01<\/a><\/td><td>author<\/td>/);
    expect(first.body).toContain('rel="next" href="/manage/users/?page=2"');
    const total = ((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM users')) as { n: number }[])[0].n;
    expect((first.body.match(/<tr><td>/g) ?? []).length).toBe(50);
    const second = await getPage(t, '/manage/users/?page=2', admin);
    expect((second.body.match(/<tr><td>/g) ?? []).length).toBe(Number(total) - 50);
    expect(second.body).toContain('rel="prev"');
  });

  it('adds a user without a password: the generated one is shown once and works for the API', async () => {
    const form = await getPage(t, '/manage/users/new', admin);
    expect(form.body).toMatch(/<label for="login">Login<\/label>/);
    expect(form.body).toMatch(/<label for="role">Role<\/label>/);
    expect(form.body).toMatch(/<label for="password">Password<\/label>/);
    const res = await postForm(t, '/manage/users/new', { _csrf: token, login: 'newcomer', role: 'author', password: '' }, { cookie: admin });
    expect(res.statusCode).toBe(201);
    const password = /<code class="secret" id="new-password">([^<]+)<\/code>/.exec(res.body)?.[1];
    expect(password).toBeDefined();
    expect((await users().findByLogin('newcomer'))!.role).toBe('author');
    const me = await http(t, basicAuth('newcomer', password!)).get(`${API}/events?status=draft`);
    expect(me.status).toBe(200);
    const page = await getPage(t, `/manage/users/${await idOf('newcomer')}/`, admin);
    expect(page.body).not.toContain(password);
  });

  it('adds a user with a password typed in, and refuses a taken login in the form', async () => {
    const res = await postForm(t, '/manage/users/new', { _csrf: token, login: 'typed', role: 'editor', password: 'typed-password-1' }, { cookie: admin });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain('typed-password-1');
    await signIn(t, 'typed', 'typed-password-1');
    const again = await postForm(t, '/manage/users/new', { _csrf: token, login: 'typed', role: 'author', password: '' }, { cookie: admin });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('role="alert"');
    expect(again.body).toMatch(/aria-describedby="login-error[^"]*"/);
    expect(again.body).toContain('A user with login &quot;typed&quot; already exists.');
    expect(again.body).toContain('value="typed"');
    expect(again.body).toMatch(/<option value="author" selected>/);
  });

  it('refuses a form without its token', async () => {
    const res = await postForm(t, '/manage/users/new', { login: 'sneaky', role: 'administrator' }, { cookie: admin });
    expect(res.statusCode).toBe(403);
    expect(await users().findByLogin('sneaky')).toBeNull();
  });

  it('changes a role, at once for the API too', async () => {
    const { authorization } = await t.userHeader('promoted', 'subscriber');
    const draft = { title: 'Promoted draft', status: 'draft', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' };
    expect((await http(t, authorization).post(`${API}/events`).send(draft)).status).toBe(403);
    const id = await idOf('promoted');
    const res = await postForm(t, `/manage/users/${id}/role`, { _csrf: token, role: 'editor' }, { cookie: admin });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/manage/users/${id}/?done=role`);
    expect((await users().findByLogin('promoted'))!.role).toBe('editor');
    expect((await http(t, authorization).post(`${API}/events`).send(draft)).status).toBe(201);
    expect((await getPage(t, res.headers.location as string, admin)).body).toContain('The role was changed.');
  });

  it('sets a password: the old one stops working and the user is signed out', async () => {
    const { cookie, password } = await signedIn(t, 'forgetful', 'author');
    const id = await idOf('forgetful');
    const res = await postForm(t, `/manage/users/${id}/password`, { _csrf: token, password: 'brand-new-password' }, { cookie: admin });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('brand-new-password');
    expect(await opens(cookie)).toBe(false);
    expect((await postForm(t, '/manage/login', { login: 'forgetful', password })).statusCode).toBe(401);
    await signIn(t, 'forgetful', 'brand-new-password');
    const short = await postForm(t, `/manage/users/${id}/password`, { _csrf: token, password: 'short' }, { cookie: admin });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('The password must have at least 8 characters.');
  });

  it('"End sessions" signs the user out everywhere, and leaves the passwords', async () => {
    const { cookie, password } = await signedIn(t, 'roaming', 'editor');
    const other = await signIn(t, 'roaming', password);
    const id = await idOf('roaming');
    const page = await getPage(t, `/manage/users/${id}/`, admin);
    expect(page.body).toMatch(/<button type="submit">End sessions<\/button>/);
    const res = await postForm(t, `/manage/users/${id}/sessions`, { _csrf: token }, { cookie: admin });
    expect(res.statusCode).toBe(303);
    expect(await opens(cookie)).toBe(false);
    expect(await opens(other)).toBe(false);
    expect(await opens(admin)).toBe(true);
    await signIn(t, 'roaming', password);
  });

  it('deletes after a confirmation page, giving the authored items to the user chosen', async () => {
    const { authorization } = await t.userHeader('leaving', 'author');
    const event = await createEvent(t, authorization, { title: 'Left behind', status: 'draft' });
    const id = await idOf('leaving');
    const heir = await idOf('listed-03');
    const confirm = await getPage(t, `/manage/users/${id}/delete`, admin);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('<h1>Delete user leaving?</h1>');
    expect(confirm.body).toMatch(/<label for="reassign">[^<]+<\/label>\s*<select id="reassign" name="reassign"/);
    expect(confirm.body).toContain(`<option value="${heir}">listed-03 (author)</option>`);
    expect(confirm.body).toMatch(/<button type="submit" class="danger">Delete user leaving<\/button>/);
    // Without an heir: refused in the form, nothing deleted.
    const refused = await postForm(t, `/manage/users/${id}/delete`, { _csrf: token, reassign: '' }, { cookie: admin });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('is the author of 1 events, venues or organizers');
    expect(await users().findByLogin('leaving')).not.toBeNull();
    const done = await postForm(t, `/manage/users/${id}/delete`, { _csrf: token, reassign: String(heir) }, { cookie: admin });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('now belong to listed-03');
    expect(await users().findByLogin('leaving')).toBeNull();
    const rows = (await t.app.get(DataSource).query('SELECT author_id FROM events WHERE id = ?', [event.id])) as { author_id: number }[];
    expect(Number(rows[0].author_id)).toBe(heir);
  });

  it('refuses to delete or demote the last administrator, with the message in the form', async () => {
    const id = await idOf('boss');
    const del = await postForm(t, `/manage/users/${id}/delete`, { _csrf: token, reassign: String(await idOf('listed-00')) }, { cookie: admin });
    expect(del.statusCode).toBe(400);
    expect(del.body).toContain('role="alert"');
    expect(del.body).toContain('is the last administrator');
    expect(del.body).not.toContain('--force');
    const demote = await postForm(t, `/manage/users/${id}/role`, { _csrf: token, role: 'editor' }, { cookie: admin });
    expect(demote.statusCode).toBe(400);
    expect(demote.body).toContain('is the last administrator');
    expect(demote.body).toMatch(/aria-describedby="role-error"/);
    expect((await users().findByLogin('boss'))!.role).toBe('administrator');
    expect(await opens(admin)).toBe(true);
  });

  it('an unknown user is a 404 page', async () => {
    const res = await getPage(t, '/manage/users/999999/', admin);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});
