// The sources page of the editing pages (editing.md §2, sources.md; administrators only): the
// sources with their last runs, adding and editing one through the API's SourcesService,
// "Run now", and a source's page with its runs' counts and errors.
import type { ServerResponse } from 'node:http';
import { DateTime } from 'luxon';
import { API, http } from '../../support/http';
import { FAST_SOURCES, Site } from '../../support/sources';
import { createTestApp, TestApp } from '../../support/test-app';
import { formToken, getPage, postForm, signedIn } from '../../support/sign-in';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Polls `probe` until it returns something other than undefined (fails after 30 s). */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const until = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function calendar(...events: { uid: string; title: string }[]): string {
  const day = DateTime.utc().plus({ days: 10 }).toFormat('yyyyLLdd');
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//manage-sources//EN'];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      'DTSTAMP:20260101T000000Z',
      `UID:${e.uid}`,
      `SUMMARY:${e.title}`,
      `DTSTART:${day}T100000Z`,
      `DTEND:${day}T110000Z`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

describe('editing pages: sources', () => {
  let t: TestApp;
  let site: Site;
  let admin: string;
  let adminApi: string;
  let token: string;
  let held: ServerResponse[] = [];

  beforeAll(async () => {
    t = await createTestApp({ ...FAST_SOURCES });
    site = new Site();
    await site.listen();
    site.handler = (req, res) => {
      if (req.url === '/feed.ics') {
        res.writeHead(200, { 'content-type': 'text/calendar' });
        res.end(calendar({ uid: 'one@test', title: 'Fed one' }, { uid: 'two@test', title: 'Fed two' }));
      } else if (req.url === '/slow.ics') {
        held.push(res);
      } else {
        res.writeHead(404).end('gone');
      }
    };
    admin = (await signedIn(t, 'srcadmin', 'administrator')).cookie;
    adminApi = (await t.userHeader('srcapi', 'administrator')).authorization;
    token = await formToken(t, admin, '/manage/sources/');
  });
  afterAll(async () => {
    for (const res of held) res.end();
    await site.close();
    await t.close();
  });

  const apiSource = async (id: number): Promise<Json> => (await http(t, adminApi).get(`${API}/sources/${id}`).expect(200)).body;
  const endedRun = (id: number, after = 0) =>
    waitFor(`a run of source ${id} after ${after}`, async () => {
      const { runs } = (await http(t, adminApi).get(`${API}/sources/${id}/runs`).expect(200)).body as { runs: Json[] };
      return runs.find((r) => r.id > after && !['queued', 'running'].includes(r.status));
    });
  const idFrom = (location: unknown) => Number(/\/manage\/sources\/(\d+)\//.exec(String(location))![1]);

  const form = (fields: Record<string, unknown>) => ({
    _csrf: token,
    kind: 'ics',
    url: `${site.url}/feed.ics`,
    interval_minutes: '0',
    enabled: '1',
    status: '',
    categories: '',
    author: '',
    window_from: '-30',
    window_to: '365',
    keep_local_edits: '1',
    on_source_delete: 'trash',
    ...fields,
  });

  it.each(['editor', 'author'])('an %s gets the 403 page', async (role) => {
    const { cookie } = await signedIn(t, `src-${role}`, role);
    for (const url of ['/manage/sources/', '/manage/sources/new']) {
      const res = await getPage(t, url, cookie);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('Administrators only');
    }
    const post = await postForm(t, '/manage/sources/new', form({ _csrf: await formToken(t, cookie) }), { cookie });
    expect(post.statusCode).toBe(403);
    expect((await http(t, adminApi).get(`${API}/sources`).expect(200)).body.sources).toEqual([]);
  });

  it('the form has every field labelled', async () => {
    const res = await getPage(t, '/manage/sources/new', admin);
    expect(res.statusCode).toBe(200);
    for (const label of [
      'Kind',
      'URL',
      'Interval (minutes)',
      'Enabled',
      'Status of new events',
      'Categories',
      'Author',
      'Source login',
      'Source password',
      'Window from (days)',
      'Window to (days)',
      'Keep local edits',
      'When the source no longer has an item',
    ]) {
      expect(res.body).toMatch(new RegExp(`<label for="[a-z_]+">${label.replace(/[()]/g, '\\$&')}</label>`));
    }
  });

  it('a bad form comes back with its values and each message beside its field', async () => {
    const res = await postForm(t, '/manage/sources/new', form({ url: 'not a url', interval_minutes: '5', categories: 'Kept\nValues' }), { cookie: admin });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toMatch(/id="url"[^>]*value="not a url"[^>]*aria-describedby="url-error/);
    expect(res.body).toContain('<p class="field-error" id="url-error">Must be an absolute http(s) URL.</p>');
    expect(res.body).toMatch(/<p class="field-error" id="interval_minutes-error">Must be 0 \(only when run by hand\)/);
    expect(res.body).toContain('>Kept\nValues</textarea>');
    expect((await http(t, adminApi).get(`${API}/sources`).expect(200)).body.sources).toEqual([]);
  });

  it('adds a source, edits it, runs it now and shows its runs with their counts', async () => {
    const created = await postForm(t, '/manage/sources/new', form({ categories: 'From feeds\nPartners', status: 'draft' }), { cookie: admin });
    expect(created.statusCode).toBe(303);
    const id = idFrom(created.headers.location);
    let source = await apiSource(id);
    expect(source).toMatchObject({
      kind: 'ics',
      url: `${site.url}/feed.ics`,
      interval_minutes: 0,
      enabled: true,
      status: 'draft',
      author: 'srcadmin',
      window_days: [-30, 365],
    });
    expect(source.categories).toHaveLength(2);
    expect(source.last_run).toBeNull();

    const page = await getPage(t, created.headers.location as string, admin);
    expect(page.body).toContain('The source was added.');
    expect(page.body).toContain('No runs yet.');
    expect(page.body).toMatch(/<textarea id="categories" name="categories"[^>]*>From feeds\nPartners<\/textarea>/);

    const saved = await postForm(
      t,
      `/manage/sources/${id}/`,
      form({ interval_minutes: '30', enabled: undefined, window_from: '-7', window_to: '60', categories: 'Partners', status: 'draft' }),
      { cookie: admin },
    );
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`/manage/sources/${id}/?done=saved`);
    source = await apiSource(id);
    expect(source).toMatchObject({ interval_minutes: 30, enabled: false, window_days: [-7, 60] });
    expect(source.categories).toHaveLength(1);

    const run = await postForm(t, `/manage/sources/${id}/run`, { _csrf: token }, { cookie: admin });
    expect(run.statusCode).toBe(303);
    expect(run.headers.location).toBe(`/manage/sources/${id}/?done=run`);
    const ended = await endedRun(id);
    expect(ended).toMatchObject({ trigger: 'manual', status: 'succeeded', created: 2 });

    const after = await getPage(t, `/manage/sources/${id}/`, admin);
    expect(after.body).toContain(`<tr id="run-${ended.id}"><td>${ended.id}</td><td>manual</td><td>succeeded</td>`);
    expect(after.body).toMatch(new RegExp(`<tr id="run-${ended.id}">.*<td>2</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td></tr>`));
    const list = await getPage(t, '/manage/sources/', admin);
    expect(list.body).toContain(`${site.url}/feed.ics`);
    expect(list.body).toMatch(/<span class="run-status">succeeded<\/span>[^<]*<br>2 created, 0 updated, 0 unchanged, 0 trashed, 0 failed/);
    expect(list.body).toContain('Disabled');
    // What the run wrote went through the importers: drafts, in the API.
    const drafts = (await http(t, adminApi).get(`${API}/events?status=draft&source=${id}`).expect(200)).body.events as Json[];
    expect(drafts.map((e) => e.title).sort()).toEqual(['Fed one', 'Fed two']);
  });

  it("a failed run shows its error on the source's page and in the list", async () => {
    const created = await postForm(t, '/manage/sources/new', form({ url: `${site.url}/missing.ics` }), { cookie: admin });
    const id = idFrom(created.headers.location);
    await postForm(t, `/manage/sources/${id}/run`, { _csrf: token }, { cookie: admin });
    const ended = await endedRun(id);
    expect(ended.status).toBe('failed');
    expect(ended.errors.length).toBeGreaterThan(0);
    const page = await getPage(t, `/manage/sources/${id}/`, admin);
    expect(page.body).toContain('<td>failed</td>');
    const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    expect(page.body).toContain(`<li>${escaped(ended.errors[0].record)}: ${escaped(ended.errors[0].message)}</li>`);
    const list = await getPage(t, '/manage/sources/', admin);
    expect(list.body).toContain(`First error: ${escaped(ended.errors[0].record)}: ${escaped(ended.errors[0].message)}`);
  });

  it('"Run now" while a run goes says so, and starts nothing else', async () => {
    const created = await postForm(t, '/manage/sources/new', form({ url: `${site.url}/slow.ics` }), { cookie: admin });
    const id = idFrom(created.headers.location);
    const first = await postForm(t, `/manage/sources/${id}/run`, { _csrf: token }, { cookie: admin });
    expect(first.headers.location).toBe(`/manage/sources/${id}/?done=run`);
    await waitFor('the feed to be asked', async () => (held.length > 0 ? true : undefined));
    const second = await postForm(t, `/manage/sources/${id}/run`, { _csrf: token }, { cookie: admin });
    expect(second.headers.location).toBe(`/manage/sources/${id}/?done=busy`);
    expect((await getPage(t, second.headers.location as string, admin)).body).toContain('A run of this source is going now');
    const runs = (await http(t, adminApi).get(`${API}/sources/${id}/runs`).expect(200)).body.runs as Json[];
    expect(runs).toHaveLength(1);
    for (const res of held) {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.end(calendar({ uid: 'slow@test', title: 'Slow one' }));
    }
    held = [];
    expect((await endedRun(id)).status).toBe('succeeded');
  });

  it('deletes a source after a confirmation page', async () => {
    const created = await postForm(t, '/manage/sources/new', form({}), { cookie: admin });
    const id = idFrom(created.headers.location);
    const confirm = await getPage(t, `/manage/sources/${id}/delete`, admin);
    expect(confirm.body).toContain('<h1>Delete this source?</h1>');
    expect(confirm.body).toMatch(/<button type="submit" class="danger">Delete source<\/button>/);
    const res = await postForm(t, `/manage/sources/${id}/delete`, { _csrf: token }, { cookie: admin });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/manage/sources/?done=deleted');
    await http(t, adminApi).get(`${API}/sources/${id}`).expect(404);
    expect((await getPage(t, `/manage/sources/${id}/`, admin)).statusCode).toBe(404);
  });

  it('a tec source takes a login and password that are never shown again', async () => {
    const created = await postForm(t, '/manage/sources/new', form({ kind: 'tec', url: `${site.url}/`, login: 'remote-user', password: 'remote-secret-9' }), {
      cookie: admin,
    });
    expect(created.statusCode).toBe(303);
    const id = idFrom(created.headers.location);
    const page = await getPage(t, `/manage/sources/${id}/`, admin);
    expect(page.body).not.toContain('remote-secret-9');
    expect(page.body).toContain('Forget the stored login and password');
    expect((await apiSource(id)).window_days).toBeNull();
  });
});
