import { SESSION_COOKIE } from '../../../src/manage/manage-http';
import { SessionsService } from '../../../src/users';
import { type Caller, createCategory, createEvent, createVenue, makeUsers, readEvent, trashEvent, uid } from '../../support/api';
import { createTestApp, type TestApp } from '../../support/test-app';

type Users = Awaited<ReturnType<typeof makeUsers>>;

const ORIGIN = 'http://127.0.0.1:3000';

/** A signed-in editor of the editing pages: its session cookie and the form token its pages carry. */
interface Browser {
  get(path: string): Promise<{ status: number; body: string }>;
  post(path: string, form: Record<string, string | string[]>): Promise<{ status: number; body: string }>;
}

describe('Editing pages: the overview and the events list', () => {
  let t: TestApp;
  let u: Users;
  const as: Record<string, Browser> = {};
  const ids: Record<string, number> = {};
  const word = uid('zq');

  async function signIn(caller: Caller): Promise<Browser> {
    const token = await t.app.get(SessionsService).start(caller.id, false);
    const fastify = t.app.getHttpAdapter().getInstance();
    const cookie = `${SESSION_COOKIE}=${token}`;
    let formToken = '';
    const get = async (path: string) => {
      const res = await fastify.inject({ method: 'GET', url: path, headers: { cookie } });
      const m = /name="_csrf" value="([^"]+)"/.exec(res.body);
      if (m) formToken = m[1];
      return { status: res.statusCode, body: res.body };
    };
    const post = async (path: string, form: Record<string, string | string[]>) => {
      if (formToken === '') await get('/manage/');
      const body = new URLSearchParams();
      body.append('_csrf', formToken);
      for (const [key, value] of Object.entries(form)) for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
      const res = await fastify.inject({
        method: 'POST',
        url: path,
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
      });
      return { status: res.statusCode, body: res.body };
    };
    return { get, post };
  }

  /** The titles of the list's rows, in order. */
  const titles = (html: string) => [...html.matchAll(/<td><a href="\/manage\/events\/\d+\/">([^<]*)<\/a><\/td>/g)].map((m) => m[1]);
  /** The count a tab shows. */
  const tabCount = (html: string, label: string) => {
    const m = new RegExp(`>${label} <span class="count">\\((\\d+)\\)</span>`).exec(html);
    if (!m) throw new Error(`no tab ${label}`);
    return Number(m[1]);
  };
  const statusOf = async (id: number) => (await readEvent(t, id, u.admin.authorization)).status;

  beforeAll(async () => {
    t = await createTestApp();
    u = await makeUsers(t);
    for (const [name, caller] of Object.entries(u)) as[name] = await signIn(caller);
    const category = await createCategory(t, u.admin.authorization, { name: `Cat ${word}` });
    const venue = await createVenue(t, u.admin.authorization, { venue: `Hall ${word}` });
    const make = async (key: string, who: Caller, fields: Record<string, unknown>) => {
      ids[key] = (await createEvent(t, who.authorization, { title: `${key} ${word}`, ...fields })).id;
    };
    await make('Alpha', u.admin, { start_date: '2030-01-10 10:00:00', end_date: '2030-01-10 11:00:00', categories: [category.id], venue: venue.id });
    await make('Bravo', u.admin, { start_date: '2030-02-10 10:00:00', end_date: '2030-02-10 11:00:00', status: 'draft' });
    await make('Charlie', u.author, { start_date: '2030-03-10 10:00:00', end_date: '2030-03-10 11:00:00', status: 'draft' });
    await make('Delta', u.author2, { start_date: '2030-04-10 10:00:00', end_date: '2030-04-10 11:00:00', status: 'draft' });
    await make('Echo', u.contributor, { start_date: '2030-05-10 10:00:00', end_date: '2030-05-10 11:00:00', status: 'draft' });
    await make('Foxtrot', u.admin, { start_date: '2030-06-10 10:00:00', end_date: '2030-06-10 11:00:00', status: 'pending' });
    await make('Golf', u.admin, { start_date: '2030-07-10 10:00:00', end_date: '2030-07-10 11:00:00', status: 'private', hide_from_listings: true });
    await make('Hotel', u.admin, { start_date: '2030-08-10 10:00:00', end_date: '2030-08-10 11:00:00', status: 'future', date: '2029-12-01 10:00:00' });
    await make('India', u.admin, { start_date: '2030-09-10 10:00:00', end_date: '2030-09-10 11:00:00', timezone: 'Asia/Tokyo' });
    await make('Juliet', u.admin, { start_date: '2030-10-10 10:00:00', end_date: '2030-10-10 11:00:00' });
    await trashEvent(t, u.admin.authorization, ids.Juliet);
    // Ten events, six users and their sessions, on a scratch MariaDB database too.
  }, 180_000);

  afterAll(async () => {
    await t?.close();
  });

  it('shows tabs with counts as each role may read them', async () => {
    const admin = (await as.admin.get('/manage/events/')).body;
    expect(tabCount(admin, 'All')).toBe(9);
    expect(tabCount(admin, 'Published')).toBe(2);
    expect(tabCount(admin, 'Scheduled')).toBe(1);
    expect(tabCount(admin, 'Drafts')).toBe(4);
    expect(tabCount(admin, 'Pending')).toBe(1);
    expect(tabCount(admin, 'Private')).toBe(1);
    expect(tabCount(admin, 'Trash')).toBe(1);
    // An author sees the published events and its own, no other author's drafts.
    const author = (await as.author.get('/manage/events/')).body;
    expect(tabCount(author, 'All')).toBe(3);
    expect(tabCount(author, 'Drafts')).toBe(1);
    expect(titles(author)).toEqual([`Alpha ${word}`, `Charlie ${word}`, `India ${word}`]);
    const drafts = (await as.author.get('/manage/events/?status=draft')).body;
    expect(titles(drafts)).toEqual([`Charlie ${word}`]);
    expect(drafts).not.toContain(`Delta ${word}`);
    // A subscriber has no editing pages.
    expect((await as.subscriber.get('/manage/events/')).status).toBe(403);
  });

  it('lists each tab, hidden events included, with the row details', async () => {
    const all = (await as.admin.get('/manage/events/')).body;
    expect(titles(all)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India'].map((k) => `${k} ${word}`));
    const row = all.slice(all.indexOf(`Alpha ${word}`), all.indexOf('</tr>', all.indexOf(`Alpha ${word}`)));
    expect(row).toContain(`Hall ${word}`);
    expect(row).toContain(`Cat ${word}`);
    expect(row).toContain('admin');
    expect(row).toContain('Published');
    // Dates in the event's own zone.
    const india = all.slice(all.indexOf(`India ${word}`), all.indexOf('</tr>', all.indexOf(`India ${word}`)));
    expect(india).toContain('2030-09-10 10:00 – 11:00');
    expect(india).toContain('title="Asia/Tokyo"');
    expect(all).toContain(`<input type="checkbox" name="ids[]" value="${ids.Alpha}" id="ev-${ids.Alpha}" aria-label="Alpha ${word}">`);
    expect(titles((await as.admin.get('/manage/events/?status=private')).body)).toEqual([`Golf ${word}`]);
    expect(titles((await as.admin.get('/manage/events/?status=trash')).body)).toEqual([`Juliet ${word}`]);
    expect(titles((await as.admin.get('/manage/events/?status=future')).body)).toEqual([`Hotel ${word}`]);
  });

  it('searches, filters, sorts and pages', async () => {
    const get = async (query: string) => titles((await as.admin.get(`/manage/events/?${query}`)).body);
    expect(await get(`search=${encodeURIComponent(`Charlie ${word}`)}`)).toEqual([`Charlie ${word}`]);
    const alpha = await readEvent(t, ids.Alpha, u.admin.authorization);
    const venueId = (alpha.venue as { id: number }).id;
    const categoryId = (alpha.categories as { id: number }[])[0].id;
    expect(await get(`venue=${venueId}`)).toEqual([`Alpha ${word}`]);
    expect(await get(`category=${categoryId}`)).toEqual([`Alpha ${word}`]);
    // The category is chosen by its name among the tree; a venue filter names its venue.
    const filtered = (await as.admin.get(`/manage/events/?category=${categoryId}&venue=${venueId}`)).body;
    const categoryName = String((alpha.categories as { name: string }[])[0].name);
    expect(filtered).toMatch(new RegExp(`<option value="${categoryId}" selected>[^<]*${categoryName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</option>`));
    expect(filtered).toContain(`id="f-venue-help">${String((alpha.venue as unknown as { venue: string }).venue)}`);
    expect(await get('from=2030-03-01&to=2030-05-31')).toEqual([`Charlie ${word}`, `Delta ${word}`, `Echo ${word}`]);
    expect((await get('order=desc'))[0]).toBe(`India ${word}`);
    // Last modified first: touch Bravo, then it leads.
    await t.app
      .getHttpAdapter()
      .getInstance()
      .inject({
        method: 'PATCH',
        url: `/calendar/events/v1/events/${ids.Bravo}`,
        headers: { authorization: u.admin.authorization, 'content-type': 'application/json' },
        payload: JSON.stringify({ cost: '5' }),
      });
    const modified = await get('sort=modified&order=desc');
    // Newest change first, ties (the same second) by the newer id: as the API's `modified` says.
    const stamps = await Promise.all(
      modified.map(async (title) => {
        const id = ids[title.split(' ')[0]];
        return { title, id, modified: String((await readEvent(t, id, u.admin.authorization)).modified) };
      }),
    );
    const expected = [...stamps].sort((a, b) => b.modified.localeCompare(a.modified) || b.id - a.id).map((s) => s.title);
    expect(modified).toEqual(expected);
    expect(stamps.find((s) => s.title === `Bravo ${word}`)!.modified).toBe(stamps[0].modified);
    expect(await get('sort=modified&order=asc')).toEqual([...modified].reverse());
    // Paging: 20 a page.
    for (let i = 0; i < 15; i++)
      await createEvent(t, u.editor.authorization, { title: `Page ${word} ${i}`, start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' });
    const first = (await as.admin.get('/manage/events/')).body;
    expect(titles(first)).toHaveLength(20);
    expect(first).toContain('page 1 of 2');
    expect(first).toContain('href="/manage/events/?page=2" rel="next"');
    expect(titles((await as.admin.get('/manage/events/?page=2')).body)).toHaveLength(4);
    expect(titles((await as.admin.get('/manage/events/?page=9')).body)).toHaveLength(0);
  }, 120_000);

  it('publishes in bulk through the write path, with per-row refusals for a contributor', async () => {
    // A contributor's "Publish" is "Submit for review"; another's event is refused.
    const list = (await as.contributor.get('/manage/events/')).body;
    expect(list).toContain('>Submit for review</button>');
    expect(list).not.toContain('>Publish</button>');
    const res = await as.contributor.post('/manage/events/bulk', { action: 'publish', ids: [String(ids.Echo), String(ids.Alpha)] });
    expect(res.status).toBe(200);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain(`Alpha ${word}</strong>: Refused: your role may not publish this event.`);
    expect(res.body).toContain(`Echo ${word}</strong>: Submitted for review.`);
    expect(await statusOf(ids.Echo)).toBe('pending');
    // An author may not publish another author's draft (which it cannot even see).
    const refused = await as.author.post('/manage/events/bulk', { action: 'publish', ids: [String(ids.Delta), String(ids.Charlie)] });
    expect(refused.body).toMatch(/1 refused/);
    expect(refused.body).toContain(`Charlie ${word}</strong>: Published.`);
    expect(refused.body).not.toContain(`Delta ${word}`);
    expect(await statusOf(ids.Delta)).toBe('draft');
    expect(await statusOf(ids.Charlie)).toBe('publish');
    // An editor publishes.
    const ok = await as.editor.post('/manage/events/bulk', { action: 'publish', ids: [String(ids.Bravo)] });
    expect(ok.body).toContain(`Bravo ${word}</strong>: Published.`);
    expect(await statusOf(ids.Bravo)).toBe('publish');
  });

  it('moves to the trash, restores, and deletes for good after a confirmation step', async () => {
    const trash = await as.admin.post('/manage/events/bulk', { action: 'trash', ids: [String(ids.Foxtrot)] });
    expect(trash.body).toContain(`Foxtrot ${word}</strong>: Moved to the trash.`);
    expect(titles((await as.admin.get('/manage/events/?status=trash')).body)).toEqual([`Foxtrot ${word}`, `Juliet ${word}`]);
    const trashTab = (await as.admin.get('/manage/events/?status=trash')).body;
    expect(trashTab).toContain('>Restore</button>');
    expect(trashTab).toContain('>Delete permanently</button>');

    const restore = await as.admin.post('/manage/events/bulk', { action: 'restore', ids: [String(ids.Foxtrot)] });
    // Back to the status it had before the trash: it was waiting for review.
    expect(restore.body).toContain(`Foxtrot ${word}</strong>: Restored (pending review).`);
    expect(await statusOf(ids.Foxtrot)).toBe('pending');

    // A contributor may not trash another's event.
    const refused = await as.contributor.post('/manage/events/bulk', { action: 'trash', ids: [String(ids.Alpha)] });
    expect(refused.body).toContain(`Alpha ${word}</strong>: Refused: your role may not move to the trash this event.`);
    expect(await statusOf(ids.Alpha)).toBe('publish');

    // Delete permanently: first a page that asks, and nothing is deleted yet.
    const ask = await as.admin.post('/manage/events/bulk', { action: 'delete', ids: [String(ids.Juliet)], back: '/manage/events/?status=trash' });
    expect(ask.status).toBe(200);
    expect(ask.body).toContain('Delete permanently?');
    expect(ask.body).toContain(`<li>Juliet ${word}</li>`);
    expect(ask.body).toContain('name="confirm" value="yes"');
    expect(ask.body).toContain('href="/manage/events/?status=trash">Cancel</a>');
    expect(titles((await as.admin.get('/manage/events/?status=trash')).body)).toEqual([`Juliet ${word}`]);
    const done = await as.admin.post('/manage/events/bulk', { action: 'delete', ids: [String(ids.Juliet)], confirm: 'yes' });
    expect(done.body).toContain(`Juliet ${word}</strong>: Deleted permanently.`);
    const gone = await t.app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: 'GET', url: `/calendar/events/v1/events/${ids.Juliet}`, headers: { authorization: u.admin.authorization } });
    expect(gone.statusCode).toBe(404);
    expect(tabCount((await as.admin.get('/manage/events/')).body, 'Trash')).toBe(0);
  });

  it('refuses a bulk form without its token or from another site', async () => {
    const fastify = t.app.getHttpAdapter().getInstance();
    const res = await fastify.inject({
      method: 'POST',
      url: '/manage/events/bulk',
      headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: `action=trash&ids[]=${ids.Alpha}`,
    });
    expect(res.statusCode).toBe(403);
    expect(await statusOf(ids.Alpha)).toBe('publish');
  });

  it('shows the overview as the signed-in user may read it', async () => {
    const admin = (await as.admin.get('/manage/')).body;
    expect(admin).toContain('href="/manage/events/?status=pending"');
    const pending = Number(/<span class="count">(\d+)<\/span> events? pending review/.exec(admin)?.[1]);
    expect(pending).toBe(tabCount((await as.admin.get('/manage/events/')).body, 'Pending'));
    expect(admin).toContain(`Hotel ${word}`); // scheduled
    expect(admin).toMatch(/Drafts \(\d+\)/);
    expect(admin).toContain('Last changes');
    expect(admin).toContain('<h2 id="ov-sources">Sources</h2>');

    const author = (await as.author2.get('/manage/')).body;
    expect(author).toContain(`Delta ${word}`); // its own draft
    expect(author).not.toContain('<h2 id="ov-sources">');
    const other = (await as.author.get('/manage/')).body;
    expect(other).not.toContain(`Delta ${word}`); // neither in drafts nor in the last changes
    expect(other).toContain('Last changes');
    expect(other).toContain(`Charlie ${word}`);
  });
});
