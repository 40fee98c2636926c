// Sources that cannot hurt the calendar (sources.md §4, docs/security.md): hostile sources
// served here on loopback — endless pages, huge and compressed answers, slow pages, short pages,
// redirects to another origin, foreign markup — against the real server on a real database
// (SQLite, or TEST_DATABASE_URL's server). Each run ends with its limit named in its `errors`,
// and nothing a short read did not see goes to the trash.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { API, http } from '../../support/http';
import { FAST_SOURCES, Site } from '../../support/sources';
import { createTestApp, TestApp } from '../../support/test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read nested members of the answers (`last_run.id`, `errors[0].message`) freely
type Json = Record<string, any>;

const api = (path: string) => `${API}${path}`;
const ROOT = '/wp-json/tribe/events/v1/';

/** A TEC event record as a TEC site answers it. */
function tecEvent(n: number, extra: Json = {}): Json {
  return {
    id: n,
    global_id: `hostile.test?id=${n}`,
    title: `Hostile ${n}`,
    description: '<p>Text</p>',
    start_date: '2031-05-01 10:00:00',
    end_date: '2031-05-01 11:00:00',
    timezone: 'UTC',
    all_day: false,
    cost: '€10,50',
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    status: 'publish',
    author: '1',
    url: `http://hostile.test/event/${n}`,
    modified_utc: '2026-01-01 00:00:00',
    ...extra,
  };
}

/**
 * A TEC site: the events list answers what `events(page, perPage)` gives (a body, or a function
 * that writes the answer itself); every other list is empty.
 */
function tecHandler(events: (page: number, perPage: number) => Json | ((res: ServerResponse) => void), others: Partial<Record<string, Json[]>> = {}) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!url.pathname.startsWith(ROOT)) return res.writeHead(404).end();
    const collection = url.pathname.slice(ROOT.length);
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    if (collection === 'events') {
      const answer = events(page, perPage);
      if (typeof answer === 'function') return answer(res);
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    }
    const list = others[collection] ?? [];
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ [collection]: list, total: list.length, total_pages: list.length ? 1 : 0 }));
  };
}

/** An iCalendar feed of `n` events (with `extra` lines in the first). */
function feed(n: number, extra: string[] = [], prefix = 'hostile'): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//hostile//EN'];
  for (let i = 1; i <= n; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push('BEGIN:VEVENT', `UID:${prefix}-${i}@test`, 'DTSTAMP:20260101T000000Z', `DTSTART:203106${day}T${String(i % 24).padStart(2, '0')}0000Z`);
    lines.push(`SUMMARY:Feed event ${i}`, ...(i === 1 ? extra : []), 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

async function startRun(t: TestApp, admin: string, body: Json): Promise<Json> {
  const created = await http(t, admin)
    .post(api('/sources'))
    .send({ interval_minutes: 0, ...body });
  if (created.status !== 201) throw new Error(`POST /sources answered ${created.status} ${JSON.stringify(created.body)}`);
  const started = await http(t, admin).post(api(`/sources/${created.body.id as number}/run`));
  expect(started.status).toBe(202);
  return created.body as Json;
}

/** The source's last run once one has ended. */
async function endedRun(t: TestApp, admin: string, id: number, after = 0, timeoutMs = 60_000): Promise<Json> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = (await http(t, admin).get(api(`/sources/${id}`))).body.last_run as Json | null;
    if (run && run.id > after && !['queued', 'running'].includes(run.status)) return run;
    if (Date.now() > until) throw new Error(`source ${id}: no run ended in time (last: ${JSON.stringify(run)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function runOnce(t: TestApp, admin: string, body: Json): Promise<{ source: Json; run: Json }> {
  const source = await startRun(t, admin, body);
  return { source, run: await endedRun(t, admin, source.id as number) };
}

/** The event-list pages a TEC site was asked for (not the first probe of one event). */
const eventPages = (s: Site) => s.seen.filter((r) => r.url?.startsWith(`${ROOT}events?`) && r.url.includes('per_page=50')).length;

/** The server still answers its API (it did not run out of memory, and is not held). */
async function stillAnswers(t: TestApp): Promise<void> {
  expect((await http(t).get(api('/events?per_page=1'))).status).toBe(200);
}

const errorsOf = (run: Json) => (run.errors as { message: string }[]).map((e) => e.message).join('\n');

describe('sources under limits (sources.md §4: bounded runs)', () => {
  let t: TestApp;
  let admin: string;
  const sites: Site[] = [];
  const site = async (handler: Site['handler']): Promise<Site> => {
    const s = new Site();
    s.handler = handler;
    await s.listen();
    sites.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await createTestApp({
      ...FAST_SOURCES,
      CALENDAR_SOURCES_MAX_ANSWER_MB: '1',
      CALENDAR_SOURCES_MAX_RUN_MB: '3',
      CALENDAR_SOURCES_MAX_PAGES: '5',
      CALENDAR_SOURCES_MAX_EVENTS: '20',
      CALENDAR_SOURCES_MAX_TERMS: '5',
      CALENDAR_SOURCES_DEADLINE_SECONDS: '6',
    });
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    for (const s of sites) await s.close();
  });

  it('a TEC site that paginates forever is read up to CALENDAR_SOURCES_MAX_PAGES pages, and the run fails naming it', async () => {
    const s = await site(tecHandler((page) => ({ events: [tecEvent(page)], total: page + 1, total_pages: page + 1 })));
    const { run } = await runOnce(t, admin, { kind: 'tec', url: s.url });
    expect(run.status).toBe('failed');
    expect(errorsOf(run)).toMatch(/more than 5 pages.*CALENDAR_SOURCES_MAX_PAGES/);
    expect(eventPages(s)).toBe(5);
    expect(run.created).toBe(0);
    await stillAnswers(t);
  });

  it('a TEC site that declares a billion pages is refused at its first page', async () => {
    const s = await site(tecHandler(() => ({ events: [tecEvent(1)], total: 1_000_000_000, total_pages: 1_000_000_000 })));
    const { run } = await runOnce(t, admin, { kind: 'tec', url: s.url });
    expect(run.status).toBe('failed');
    expect(errorsOf(run)).toMatch(/declares 1000000000 pages.*CALENDAR_SOURCES_MAX_PAGES/);
    expect(eventPages(s)).toBe(1);
    await stillAnswers(t);
  });

  it('an answer larger than CALENDAR_SOURCES_MAX_ANSWER_MB fails the run, plain or gzip-compressed (counted inflated, while read)', async () => {
    const padded = JSON.stringify({ events: [], total: 0, total_pages: 1, pad: 'x'.repeat(5 * 1024 * 1024) });
    const plain = await site(
      tecHandler((_page, perPage) =>
        perPage === 50 ? (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(padded) : { events: [], total: 0, total_pages: 0 },
      ),
    );
    const zipped = gzipSync(padded);
    expect(zipped.length).toBeLessThan(1024 * 1024);
    const compressed = await site(
      tecHandler((_page, perPage) =>
        perPage === 50
          ? (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': zipped.length }).end(zipped)
          : { events: [], total: 0, total_pages: 0 },
      ),
    );
    const icsZipped = gzipSync(feed(1, [`X-PAD:${'A'.repeat(5 * 1024 * 1024)}`]));
    const ics = await site((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar', 'content-encoding': 'gzip' }).end(icsZipped));
    for (const source of [
      { kind: 'tec', url: plain.url },
      { kind: 'tec', url: compressed.url },
      { kind: 'ics', url: `${ics.url}/feed.ics` },
    ]) {
      const { run } = await runOnce(t, admin, source);
      expect([source.url, run.status]).toEqual([source.url, 'failed']);
      expect(errorsOf(run)).toMatch(/larger than 1 MB.*CALENDAR_SOURCES_MAX_ANSWER_MB/);
    }
    await stillAnswers(t);
  });

  it('answers that together exceed CALENDAR_SOURCES_MAX_RUN_MB fail the run', async () => {
    const pad = 'y'.repeat(900 * 1024);
    const s = await site(
      tecHandler((page, perPage) =>
        perPage === 50 ? { events: [tecEvent(page)], total: 5, total_pages: 5, pad } : { events: [tecEvent(1)], total: 5, total_pages: 5 },
      ),
    );
    const { run } = await runOnce(t, admin, { kind: 'tec', url: s.url });
    expect(run.status).toBe('failed');
    expect(errorsOf(run)).toMatch(/more than 3 MB.*CALENDAR_SOURCES_MAX_RUN_MB/);
  });

  it('a run past CALENDAR_SOURCES_DEADLINE_SECONDS (a slow site) fails naming its deadline', async () => {
    const s = await site(
      tecHandler((page, perPage) =>
        perPage === 50
          ? (res) =>
              setTimeout(
                () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ events: [tecEvent(page)], total: 5, total_pages: 5 })),
                2500,
              )
          : { events: [tecEvent(1)], total: 5, total_pages: 5 },
      ),
    );
    const { run } = await runOnce(t, admin, { kind: 'tec', url: s.url });
    expect(run.status).toBe('failed');
    expect(errorsOf(run)).toMatch(/deadline of 6 s passed.*CALENDAR_SOURCES_DEADLINE_SECONDS/);
    expect(run.created).toBe(0);
  });

  it('a feed of more events than CALENDAR_SOURCES_MAX_EVENTS: the run stops there, partial, naming it, and trashes nothing', async () => {
    const ics = await site((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(feed(25)));
    const { run } = await runOnce(t, admin, { kind: 'ics', url: `${ics.url}/feed.ics` });
    expect(run.status).toBe('partial');
    expect(errorsOf(run)).toMatch(/stopped at 20 events.*CALENDAR_SOURCES_MAX_EVENTS/);
    expect(run.created).toBe(20);
    expect(run.trashed).toBe(0);
  });

  it('an event with more categories than CALENDAR_SOURCES_MAX_TERMS fails, named; the others are written', async () => {
    const ics = await site((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(feed(2, ['CATEGORIES:a,b,c,d,e,f,g'], 'terms')));
    const { run } = await runOnce(t, admin, { kind: 'ics', url: `${ics.url}/feed.ics` });
    expect(run.status).toBe('partial');
    expect([run.created, run.failed]).toEqual([1, 1]);
    expect(errorsOf(run)).toMatch(/7 categories and tags.*CALENDAR_SOURCES_MAX_TERMS/);
  });

  it("a redirect to another origin does not carry the source's credentials; the first origin gets them", async () => {
    const other = await site(tecHandler(() => ({ events: [], total: 0, total_pages: 0 })));
    const first = await site((req, res) => res.writeHead(302, { location: `${other.url}${req.url ?? '/'}` }).end());
    const { run } = await runOnce(t, admin, { kind: 'tec', url: first.url, login: 'reader', password: 'secret-app-password' });
    expect(first.seen.length).toBeGreaterThan(0);
    expect(first.seen.every((r) => typeof r.headers.authorization === 'string')).toBe(true);
    expect(other.seen.length).toBeGreaterThan(0);
    expect(other.seen.map((r) => r.headers.authorization)).toEqual(other.seen.map(() => undefined));
    expect(run.status).toBe('succeeded');
  });
});

describe('sources that do not hold the server, read short pages, or write markup (sources.md §4)', () => {
  let t: TestApp;
  let admin: string;
  const sites: Site[] = [];
  const ALL = '/events?per_page=50&status=publish,draft,pending,private,trash&start_date=1971-01-01&end_date=2999-12-31';

  beforeAll(async () => {
    t = await createTestApp(FAST_SOURCES);
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    for (const s of sites) await s.close();
  });

  it('a site that answers page 2 of its declared 2 with a 404, or an empty page, fails the run: nothing goes to the trash', async () => {
    let mode: 'whole' | '404' | 'empty' = 'whole';
    const s = new Site();
    sites.push(s);
    s.handler = tecHandler((page, perPage) => {
      if (perPage !== 50 || page === 1) return { events: [1, 2, 3].map((n) => tecEvent(n)), total: 4, total_pages: 2 };
      if (mode === '404') return (res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"rest_no_route"}');
      return { events: mode === 'empty' ? [] : [tecEvent(4)], total: 4, total_pages: 2 };
    });
    await s.listen();
    const source = await startRun(t, admin, { kind: 'tec', url: s.url });
    const whole = await endedRun(t, admin, source.id as number);
    expect([whole.status, whole.created]).toEqual(['succeeded', 4]);
    let after = whole.id as number;
    for (const short of ['404', 'empty'] as const) {
      mode = short;
      expect((await http(t, admin).post(api(`/sources/${source.id as number}/run`))).status).toBe(202);
      const run = await endedRun(t, admin, source.id as number, after);
      after = run.id as number;
      expect([short, run.status, run.trashed]).toEqual([short, 'failed', 0]);
      expect(errorsOf(run)).toMatch(/page 2 of the 2 the site declared.*not read whole/);
      const events = (await http(t, admin).get(api(`${ALL}&source=${source.id as number}`))).body.events as Json[];
      expect(events.map((e) => [e.title, e.status]).sort()).toEqual([1, 2, 3, 4].map((n) => [`Hostile ${n}`, 'publish']));
    }
  });

  it('markup from a source is cleaned as for a role without unfiltered HTML, though its author is an administrator; text and cost stay as written', async () => {
    const venue = {
      id: 70,
      global_id: 'hostile.test?id=70',
      venue: 'Hall <img src=x onerror="alert(1)">',
      description: '<p onclick="steal()">Big</p><script>alert(2)</script>',
      city: 'Turin<script>alert(3)</script>',
      status: 'publish',
      author: '1',
      modified_utc: '2026-01-01 00:00:00',
    };
    const s = new Site();
    sites.push(s);
    s.handler = tecHandler(
      () => ({
        events: [
          tecEvent(50, {
            title: 'Tom &amp; Jerry <script>alert(4)</script>live',
            description: '<p onmouseover="x()">Come</p><iframe src="http://evil.test/"></iframe><a href="javascript:alert(5)">here</a>',
            excerpt: '<img src=x onerror=alert(6)>Short',
            venue: { global_id: venue.global_id },
          }),
        ],
        total: 1,
        total_pages: 1,
      }),
      { venues: [venue] },
    );
    await s.listen();
    const { source, run } = await runOnce(t, admin, { kind: 'tec', url: s.url });
    expect(run.status).toBe('succeeded');
    const [event] = (await http(t, admin).get(api(`${ALL}&source=${source.id as number}`))).body.events as Json[];
    const stored = JSON.stringify(event);
    expect(stored).not.toMatch(/<script|<iframe|onerror|onclick|onmouseover|javascript:/i);
    expect(event.title).toBe('Tom &amp; Jerry live');
    expect(event.description).toContain('Come');
    expect(event.cost).toBe('€10,50');
    expect(event.venue.venue).toBe('Hall');
    expect(event.venue.city).toBe('Turin');
  });

  it('requests are answered while a run writes: a run is seen writing, mid-way, through the API', async () => {
    const ics = new Site();
    sites.push(ics);
    ics.handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(feed(600));
    await ics.listen();
    const source = await startRun(t, admin, { kind: 'ics', url: `${ics.url}/feed.ics` });
    // The run's counts reach its row as it goes; a request answered between two writes sees them mid-way.
    let seen: Json | null = null;
    for (let tries = 0; tries < 2000; tries++) {
      const run = (await http(t, admin).get(api(`/sources/${source.id as number}`))).body.last_run as Json | null;
      if (run && run.status !== 'queued' && run.status !== 'running') break;
      if (run && run.status === 'running' && run.created > 0) {
        seen = run;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen).toMatchObject({ status: 'running' });
    expect(seen!.created).toBeLessThan(600);
    await stillAnswers(t);
    const run = await endedRun(t, admin, source.id as number, 0, 120_000);
    expect([run.status, run.created]).toEqual(['succeeded', 600]);
  }, 180_000);
});

describe('addresses that carry a private IPv4 address in IPv6 (the address rule of sources, webhooks and images)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_SOURCES_WORKER: 'off' });
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t?.close());

  const HIDDEN = [
    'http://[::127.0.0.1]/', // IPv4-compatible
    'http://[::ffff:0:127.0.0.1]/', // IPv4-translated
    'http://[2002:7f00:1::1]/', // 6to4 of 127.0.0.1
    'http://[2002:a9fe:a9fe::]/', // 6to4 of 169.254.169.254
    'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', // Teredo, client 127.0.0.1
    'http://[64:ff9b::a00:1]/', // NAT64 of 10.0.0.1
    'http://[64:ff9b:1::1]/', // local-use NAT64
    'http://[fec0::1]/', // site-local
  ];

  it.each(HIDDEN)('refuses %s as a source and as a webhook', async (url) => {
    const source = await http(t, admin).post(api('/sources')).send({ kind: 'ics', url });
    expect([url, source.status, source.body.code]).toEqual([url, 400, 'rest_invalid_param']);
    const hook = await http(t, admin)
      .post(api('/webhooks'))
      .send({ url, events: ['*'] });
    expect([url, hook.status, hook.body.code]).toEqual([url, 400, 'rest_invalid_param']);
  });
});
