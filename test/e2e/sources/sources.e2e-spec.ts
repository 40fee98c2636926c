// Sources (spec sources.md): two TEC-speaking instances of the service and an
// iCalendar feed served here, merged into one calendar by scheduled runs, through real HTTP and
// a real database (SQLite, or TEST_DATABASE_URL's server).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DataSource } from 'typeorm';
import { API, http } from '../../support/http';
import { FAST_SOURCES, partnerSite, Site } from '../../support/sources';
import { createTestApp, TestApp } from '../../support/test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read nested members of the answers (`last_run.id`, `errors[0].message`) freely
type Json = Record<string, any>;

/** Quick schedules (support/sources.ts); a source has 1 s to answer (the slow one below never does). */
const FAST = { ...FAST_SOURCES, CALENDAR_SOURCES_TIMEOUT_SECONDS: '1' };

/** A partner (support/sources.ts), closed with the test. */
async function partner(host: string): Promise<{ t: TestApp; url: string; admin: string; close: () => Promise<void> }> {
  const site = await partnerSite(host);
  return { ...site, close: () => site.t.close() };
}

function feed(events: { uid: string; summary: string; start: string; cost?: string }[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//sources//EN'];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:20260101T000000Z`,
      `DTSTART:${e.start}`,
      `SUMMARY:${e.summary}`,
      'LOCATION:Town Hall',
      'CATEGORIES:Music',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

describe('sources (sources.md)', () => {
  let target: TestApp;
  let admin: string;
  let a: Awaited<ReturnType<typeof partner>>;
  let b: Awaited<ReturnType<typeof partner>>;
  let ics: Site;
  let icsBody: string;
  let icsEtag: string;

  const api = (path: string) => `${API}${path}`;
  const post = async (t: TestApp, auth: string, path: string, body: Json, status = 201): Promise<Json> => {
    const res = await http(t, auth).post(api(path)).send(body);
    if (res.status !== status) throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  };
  const list = async (collection: string, query = ''): Promise<Json[]> =>
    (await http(target, admin).get(api(`/${collection}?per_page=50&status=publish,draft,pending,private${query}`))).body[collection] ?? [];

  /** Waits until the source has a run newer than `after` that ended; returns it. */
  async function endedRun(id: number, after = 0, timeoutMs = 20_000): Promise<Json> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const run = (await http(target, admin).get(api(`/sources/${id}`))).body.last_run as Json | null;
      if (run && run.id > after && !['queued', 'running'].includes(run.status)) return run;
      if (Date.now() > until) throw new Error(`source ${id}: no run after ${after} ended in time (last: ${JSON.stringify(run)})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    [a, b] = [await partner('partner-a.test'), await partner('partner-b.test')];
    for (const p of [a, b]) {
      const music = await post(p.t, p.admin, '/categories', { name: 'Music', description: `Music at ${p.url}` });
      const hall = await post(p.t, p.admin, '/venues', { venue: 'Town Hall', city: 'Turin' });
      const org = await post(p.t, p.admin, '/organizers', { organizer: 'City Culture' });
      for (const n of [1, 2]) {
        await post(p.t, p.admin, '/events', {
          title: `${p === a ? 'A' : 'B'} concert ${n}`,
          start_date: `2031-0${n}-10 20:00:00`,
          end_date: `2031-0${n}-10 22:00:00`,
          categories: [music.id],
          venue: hall.id,
          organizer: [org.id],
          cost: '€10,50',
          status: 'publish',
        });
      }
    }
    ics = new Site();
    await ics.listen();
    icsBody = feed([
      { uid: 'feed-1@test', summary: 'Feed talk', start: '20310301T180000Z' },
      { uid: 'feed-2@test', summary: 'Feed walk', start: '20310302T090000Z' },
    ]);
    icsEtag = '"v1"';
    ics.handler = (req, res) => {
      if (req.headers['if-none-match'] === icsEtag) {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/calendar', etag: icsEtag }).end(icsBody);
    };
    target = await createTestApp(FAST);
    admin = (await target.userHeader('admin', 'administrator')).authorization;
  }, 60_000);

  afterAll(async () => {
    await target?.close();
    await a?.close();
    await b?.close();
    await ics?.close();
  });

  let sourceA: Json;
  let sourceB: Json;
  let sourceFeed: Json;

  it('administrators only; bad fields are named; unknown ids are 404 rest_source_invalid_id', async () => {
    const editor = (await target.userHeader('editor', 'editor')).authorization;
    expect((await http(target).get(api('/sources'))).status).toBe(401);
    expect((await http(target, editor).get(api('/sources'))).body.code).toBe('rest_forbidden');
    expect((await http(target, editor).post(api('/sources')).send({ kind: 'ics', url: ics.url })).status).toBe(403);
    const bad = await http(target, admin)
      .post(api('/sources'))
      .send({ kind: 'rss', url: 'ftp://x', interval_minutes: 5, window_days: [3, 1] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['interval_minutes', 'kind', 'url', 'window_days']);
    const creds = await http(target, admin).post(api('/sources')).send({ kind: 'ics', url: ics.url, login: 'x', password: 'y' });
    expect(Object.keys(creds.body.data.params).sort()).toEqual(['login', 'password']);
    const missing = await http(target, admin).get(api('/sources/999'));
    expect([missing.status, missing.body.code]).toEqual([404, 'rest_source_invalid_id']);
    expect((await http(target, admin).post(api('/sources/999/run'))).body.code).toBe('rest_source_invalid_id');
    expect((await http(target, admin).get(api('/sources'))).body).toEqual({ sources: [] });
  });

  it('merges two TEC sites and a feed into one calendar: no doubled terms, venues or organizers; text exact', async () => {
    sourceA = await post(target, admin, '/sources', { kind: 'tec', url: a.url, interval_minutes: 15, login: 'partneradmin', password: 'not used' });
    expect(sourceA).toMatchObject({
      kind: 'tec',
      url: a.url,
      interval_minutes: 15,
      enabled: true,
      keep_local_edits: true,
      on_source_delete: 'trash',
      author: 'admin',
    });
    expect(sourceA).not.toHaveProperty('password');
    expect(sourceA).not.toHaveProperty('login');
    sourceB = await post(target, admin, '/sources', { kind: 'tec', url: `${b.url}/`, interval_minutes: 15 });
    sourceFeed = await post(target, admin, '/sources', { kind: 'ics', url: `${ics.url}/calendar.ics`, interval_minutes: 15, categories: ['From the feed'] });
    expect(sourceFeed.window_days).toEqual([-30, 365]);
    // The stored password is not the password (CALENDAR_WEBHOOK_KEY is not set here: stored as given, never answered).
    const runs = await Promise.all([sourceA, sourceB, sourceFeed].map((s) => endedRun(s.id as number)));
    // Source A was given a wrong password: the site refuses it, the run fails and writes nothing.
    expect(runs[0]).toMatchObject({ status: 'failed', created: 0 });
    expect(runs[0].errors[0].message).toMatch(/refused the credentials/);
    expect(runs[1]).toMatchObject({ status: 'succeeded', failed: 0 });
    expect(runs[2]).toMatchObject({ status: 'succeeded', created: 2, failed: 0 });

    // Without credentials, A reads what is public.
    const patched = await http(target, admin)
      .patch(api(`/sources/${sourceA.id as number}`))
      .send({ login: '', password: '' });
    expect(patched.status).toBe(200);
    await http(target, admin)
      .post(api(`/sources/${sourceA.id as number}/run`))
      .expect(202);
    const ranA = await endedRun(sourceA.id as number, runs[0].id as number);
    expect(ranA).toMatchObject({ status: 'succeeded', failed: 0 });

    const events = await list('events', '&start_date=2031-01-01&end_date=2032-01-01');
    expect(events.map((e) => e.title).sort()).toEqual(['A concert 1', 'A concert 2', 'B concert 1', 'B concert 2', 'Feed talk', 'Feed walk']);
    expect((await list('categories', '&hide_empty=false')).map((c) => c.name).sort()).toEqual(['From the feed', 'Music']);
    expect((await list('venues')).map((v) => v.venue)).toEqual(['Town Hall']);
    expect((await list('organizers')).map((o) => o.organizer)).toEqual(['City Culture']);
    for (const e of events.filter((x) => x.title.includes('concert'))) expect(e.cost).toBe('€10,50');
    // Operators' view: the events each source wrote.
    const ofB = await http(target).get(api(`/events?source=${sourceB.id as number}&start_date=2031-01-01&end_date=2032-01-01`));
    expect(ofB.body.events.map((e: Json) => e.title).sort()).toEqual(['B concert 1', 'B concert 2']);
    expect((await http(target).get(api('/events?source=abc'))).body.data.params).toHaveProperty('source');
  });

  it('a feed that has not changed answers 304 to the validators of the last run: succeeded, nothing changed', async () => {
    const before = (await http(target, admin).get(api(`/sources/${sourceFeed.id as number}`))).body.last_run as Json;
    ics.seen = [];
    await http(target, admin)
      .post(api(`/sources/${sourceFeed.id as number}/run`))
      .expect(202);
    const run = await endedRun(sourceFeed.id as number, before.id as number);
    expect(run).toMatchObject({ status: 'succeeded', created: 0, updated: 0, failed: 0 });
    expect(ics.seen.some((r) => r.headers['if-none-match'] === icsEtag)).toBe(true);
  });

  it('an update and a deletion at a source reach the copy on the schedule; a local edit survives', async () => {
    const aEvents = (await http(a.t, a.admin).get(api('/events?start_date=2031-01-01&end_date=2032-01-01'))).body.events as Json[];
    const [one, two] = [aEvents.find((e) => e.title === 'A concert 1')!, aEvents.find((e) => e.title === 'A concert 2')!];
    const copies = await list('events', `&source=${sourceA.id as number}&start_date=2031-01-01&end_date=2032-01-01`);
    const copyOfTwo = copies.find((e) => e.title === 'A concert 2')!;
    // The runs after `after` (by the schedule) until `done` holds; their counts added up.
    const runsUntil = async (after: number, done: () => Promise<boolean>) => {
      const until = Date.now() + 20_000;
      while (!(await done())) {
        if (Date.now() > until) throw new Error('the schedule did not bring the change in time');
        await new Promise((r) => setTimeout(r, 100));
      }
      await endedRun(sourceA.id as number, after); // at least one run ended after the changes
      const runs = ((await http(target, admin).get(api(`/sources/${sourceA.id as number}/runs`))).body.runs as Json[]).filter(
        (r) => r.id > after && !['queued', 'running'].includes(r.status),
      );
      const sum = (k: string) => runs.reduce((n, r) => n + (r[k] as number), 0);
      return { runs, updated: sum('updated'), kept_local: sum('kept_local'), trashed: sum('trashed'), created: sum('created') };
    };
    // The last run once it has ended: a run still reading the source could otherwise bring the
    // changes below and not be counted.
    const lastId = async () => (await endedRun(sourceA.id as number)).id as number;
    const titles = async () =>
      (await list('events', `&source=${sourceA.id as number}&start_date=2031-01-01&end_date=2032-01-01`)).map((e) => e.title as string).sort();

    // A local edit of one copy, then changes at the source to both.
    await new Promise((r) => setTimeout(r, 1100)); // modified_utc counts seconds
    const before = await lastId();
    await http(target, admin)
      .post(api(`/events/${copyOfTwo.id as number}`))
      .send({ title: 'A concert 2 (our title)' })
      .expect(200);
    // The change the wait below watches for is made last: a scheduled run that reads the source
    // between the two changes then never counts as the one that brought them.
    await http(a.t, a.admin)
      .post(api(`/events/${two.id as number}`))
      .send({ description: 'changed at the source' })
      .expect(200);
    await http(a.t, a.admin)
      .post(api(`/events/${one.id as number}`))
      .send({ title: 'A concert 1, moved' })
      .expect(200);
    const changes = await runsUntil(before, async () => (await titles()).includes('A concert 1, moved'));
    expect(changes.runs.every((r) => r.status === 'succeeded' && r.trigger === 'schedule')).toBe(true);
    expect(changes).toMatchObject({ updated: 1, kept_local: expect.any(Number), created: 0 });
    expect(changes.kept_local).toBeGreaterThanOrEqual(1);
    expect(await titles()).toEqual(['A concert 1, moved', 'A concert 2 (our title)']);
    const copy = (await list('events', `&source=${sourceA.id as number}&start_date=2031-01-01&end_date=2032-01-01`)).find(
      (e) => e.title === 'A concert 1, moved',
    )!;

    // A deletion at the source: the copy goes to the trash on the next complete run.
    const beforeDelete = await lastId();
    await http(a.t, a.admin)
      .delete(api(`/events/${one.id as number}?force=true`))
      .expect(200);
    const gone = await runsUntil(
      beforeDelete,
      async () => (await http(target, admin).get(api(`/events/${copy.id as number}`))).body.code === 'event-no-longer-available',
    );
    expect(gone).toMatchObject({ trashed: 1, updated: 0, created: 0 });
  });

  it('an event gone from a feed goes to the trash, and comes back when the feed has it again', async () => {
    // By hand from here on: each run below is the one started after the feed changed.
    const stopped = await http(target, admin)
      .patch(api(`/sources/${sourceFeed.id as number}`))
      .send({ interval_minutes: 0 });
    if (['queued', 'running'].includes(stopped.body.last_run?.status)) await endedRun(sourceFeed.id as number, (stopped.body.last_run.id as number) - 1);
    const feedRun = async () => {
      const started = await http(target, admin).post(api(`/sources/${sourceFeed.id as number}/run`));
      expect(started.status).toBe(202);
      return endedRun(sourceFeed.id as number, (started.body.id as number) - 1);
    };
    const walk = (await list('events', `&source=${sourceFeed.id as number}&start_date=2031-01-01&end_date=2032-01-01`)).find((e) => e.title === 'Feed walk')!;
    icsBody = feed([{ uid: 'feed-1@test', summary: 'Feed talk', start: '20310301T180000Z' }]);
    icsEtag = '"v2"';
    expect(await feedRun()).toMatchObject({ status: 'succeeded', trashed: 1 });
    expect((await http(target, admin).get(api(`/events/${walk.id as number}`))).body.code).toBe('event-no-longer-available');
    icsBody = feed([
      { uid: 'feed-1@test', summary: 'Feed talk', start: '20310301T180000Z' },
      { uid: 'feed-2@test', summary: 'Feed walk', start: '20310302T090000Z' },
    ]);
    icsEtag = '"v3"';
    expect(await feedRun()).toMatchObject({ status: 'succeeded', created: 0, updated: 1 });
    expect((await http(target, admin).get(api(`/events/${walk.id as number}`))).body).toMatchObject({ status: 'publish', title: 'Feed walk' });
  });

  it('a category of the source that was deleted since is left out; the run still writes its events', async () => {
    const runB = async (): Promise<Json> => {
      const started = await http(target, admin).post(api(`/sources/${sourceB.id as number}/run`));
      if (started.status === 409) {
        const going = (await http(target, admin).get(api(`/sources/${sourceB.id as number}`))).body.last_run as Json;
        await endedRun(sourceB.id as number, (going.id as number) - 1);
        return runB();
      }
      expect(started.status).toBe(202);
      return endedRun(sourceB.id as number, (started.body.id as number) - 1);
    };
    await http(target, admin)
      .patch(api(`/sources/${sourceB.id as number}`))
      .send({ interval_minutes: 0, categories: ['Partners'] })
      .expect(200);
    expect(await runB()).toMatchObject({ status: 'succeeded', failed: 0 });
    const partners = (await list('categories', '&hide_empty=false')).find((c) => c.name === 'Partners')!;
    await http(target, admin)
      .delete(api(`/categories/${partners.id as number}?force=true`))
      .expect(200);
    const bEvent = ((await http(b.t, b.admin).get(api('/events?start_date=2031-01-01&end_date=2032-01-01'))).body.events as Json[])[0];
    await http(b.t, b.admin)
      .post(api(`/events/${bEvent.id as number}`))
      .send({ title: 'B concert, renamed' })
      .expect(200);
    const run = await runB();
    expect(run).toMatchObject({ status: 'succeeded', failed: 0 });
    expect(run.updated).toBeGreaterThanOrEqual(1);
    const copy = (await list('events', `&source=${sourceB.id as number}&start_date=2031-01-01&end_date=2032-01-01`)).find(
      (e) => e.title === 'B concert, renamed',
    )!;
    expect(copy.categories.map((c: Json) => c.name)).toEqual(['Music']);
  });

  it('a source that is down, slow, not the API or garbage gives a failed run, writes nothing, and backs off', async () => {
    const bad = new Site();
    const url = await bad.listen();
    try {
      const count = async () => (await target.app.get(DataSource).query('SELECT COUNT(*) AS n FROM events'))[0].n as number;
      const before = Number(await count());
      const cases: [string, string, (req: IncomingMessage, res: ServerResponse) => void, RegExp][] = [
        ['tec', url, (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a blog</html>'), /No TEC REST API/],
        ['tec', url, () => undefined /* never answers */, /timed out/],
        ['ics', `${url}/x.ics`, (_q, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end('BEGIN:VCALENDAR\r\nthis is not'), /./],
        ['ics', 'http://127.0.0.1:9/down.ics', (_q, res) => res.end(), /connection refused|cannot fetch/],
      ];
      for (const [kind, where, handler, message] of cases) {
        bad.handler = handler;
        const s = await post(target, admin, '/sources', { kind, url: where, interval_minutes: 0 });
        expect(s.next_run_utc).toBeNull();
        await http(target, admin)
          .post(api(`/sources/${s.id as number}/run`))
          .expect(202);
        const run = await endedRun(s.id as number);
        expect([kind, where, run.status]).toEqual([kind, where, 'failed']);
        expect(run.errors[0].message).toMatch(message);
        expect(run).toMatchObject({ created: 0, updated: 0, trashed: 0 });
        await http(target, admin)
          .delete(api(`/sources/${s.id as number}`))
          .expect(200);
      }
      expect(Number(await count())).toBe(before);
      // Backoff: a failing scheduled source waits twice its interval before the next run.
      bad.handler = (_q, res) => res.writeHead(500).end();
      const s = await post(target, admin, '/sources', { kind: 'ics', url: `${url}/y.ics`, interval_minutes: 15 });
      const run = await endedRun(s.id as number);
      expect(run.status).toBe('failed');
      const after = (await http(target, admin).get(api(`/sources/${s.id as number}`))).body as Json;
      const wait = Date.parse(`${after.next_run_utc as string}Z`) - Date.parse(`${run.finished_utc as string}Z`);
      expect(wait).toBeGreaterThanOrEqual(2000); // 2 × 15 × 0.1 s, whole seconds
      await http(target, admin)
        .delete(api(`/sources/${s.id as number}`))
        .expect(200);
    } finally {
      await bad.close();
    }
  });

  it('a run by hand while one is going is 409 rest_source_busy; runs are listed newest first', async () => {
    const slow = new Site();
    const url = await slow.listen();
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    slow.handler = (_q, res) => void held.then(() => res.writeHead(200, { 'content-type': 'text/calendar' }).end(icsBody));
    try {
      // By hand only from now on; a scheduled run that was going ends first.
      const stopped = await http(target, admin)
        .patch(api(`/sources/${sourceFeed.id as number}`))
        .send({ interval_minutes: 0 });
      expect(stopped.body.next_run_utc).toBeNull();
      if (['queued', 'running'].includes(stopped.body.last_run?.status)) await endedRun(sourceFeed.id as number, (stopped.body.last_run.id as number) - 1);
      await http(target, admin)
        .patch(api(`/sources/${sourceFeed.id as number}`))
        .send({ url: `${url}/feed.ics` })
        .expect(200);
      const first = await http(target, admin).post(api(`/sources/${sourceFeed.id as number}/run`));
      expect(first.status).toBe(202);
      expect(['queued', 'running']).toContain(first.body.status);
      const second = await http(target, admin).post(api(`/sources/${sourceFeed.id as number}/run`));
      expect([second.status, second.body.code]).toEqual([409, 'rest_source_busy']);
      release();
      const run = await endedRun(sourceFeed.id as number, (first.body.id as number) - 1);
      expect(run.id).toBe(first.body.id);
      const runs = (await http(target, admin).get(api(`/sources/${sourceFeed.id as number}/runs`))).body.runs as Json[];
      expect(runs[0].id).toBe(first.body.id);
      expect(runs.map((r) => r.id)).toEqual([...runs.map((r) => r.id as number)].sort((x, y) => y - x));
    } finally {
      release();
      await slow.close();
    }
  });

  it('metrics count runs by kind and status and tell the age of each last success', async () => {
    const text = (await http(target).get('/metrics')).text;
    expect(text).toMatch(/calendar_source_runs_total\{kind="tec",status="succeeded"\} [1-9]/);
    expect(text).toMatch(/calendar_source_runs_total\{kind="ics",status="failed"\} [1-9]/);
    expect(text).toMatch(new RegExp(`calendar_source_last_success_age_seconds\\{source="${sourceB.id as number}",kind="tec"\\} \\d`));
  });

  it('_fields narrows the sources, a source and its runs (compat.md)', async () => {
    const listed = (await http(target, admin).get(api('/sources?_fields=id,kind'))).body.sources as Json[];
    expect(listed.length).toBeGreaterThan(0);
    for (const s of listed) expect(Object.keys(s).sort()).toEqual(['id', 'kind']);
    expect((await http(target, admin).get(api(`/sources/${sourceB.id as number}?_fields=url,last_run.status`))).body).toEqual({
      url: `${b.url}/`,
      last_run: { status: 'succeeded' },
    });
    const runs = (await http(target, admin).get(api(`/sources/${sourceB.id as number}/runs?_fields=status`))).body.runs as Json[];
    expect(runs.every((r) => Object.keys(r).join() === 'status')).toBe(true);
  });

  it('delete: the source and its runs go, its events stay', async () => {
    const res = await http(target, admin).delete(api(`/sources/${sourceB.id as number}`));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, previous: { id: sourceB.id } });
    expect((await http(target, admin).get(api(`/sources/${sourceB.id as number}/runs`))).body.code).toBe('rest_source_invalid_id');
    expect((await list('events', '&start_date=2031-01-01&end_date=2032-01-01')).map((e) => e.title)).toEqual(expect.arrayContaining(['B concert 2']));
  });
});

describe('sources and private addresses (sources.md §2: the outbound rules of webhooks)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_SOURCES_WORKER: 'off' });
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t?.close());

  it('refuses a source on a loopback, private or link-local address unless CALENDAR_SOURCES_ALLOW_PRIVATE=on', async () => {
    for (const url of ['http://127.0.0.1:8080/feed.ics', 'http://localhost/', 'http://10.1.2.3/', 'http://169.254.169.254/latest/', 'http://[::1]/x.ics']) {
      const res = await http(t, admin).post(`${API}/sources`).send({ kind: 'ics', url });
      expect([url, res.status, res.body.code]).toEqual([url, 400, 'rest_invalid_param']);
      expect(res.body.data.params.url).toMatch(/CALENDAR_SOURCES_ALLOW_PRIVATE/);
    }
    expect((await http(t, admin).get(`${API}/sources`)).body).toEqual({ sources: [] });
  });
});
