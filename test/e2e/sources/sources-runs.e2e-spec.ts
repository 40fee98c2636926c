// Sources' runs across processes and instances (spec sources.md §3; CLI commands `sources:list`
// and `sources:run`): a run killed with its process (kill -9) is taken over after its lease as
// the same run and ends; two instances on one database never run one source at once; the CLI's
// listing and exit codes; a tec source's credentials sealed with CALENDAR_WEBHOOK_KEY, never
// answered, and reading drafts. Real partner sites (other instances of the service), real HTTP,
// a real database shared by processes (a SQLite file, or TEST_DATABASE_URL's server).
import { createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { cliDatabase, runCli, spawnCli } from '../../support/cli';
import { API, http } from '../../support/http';
import { twoInstances } from '../../support/instances';
import { FAST_SOURCES, partnerSite } from '../../support/sources';
import { createTestApp, TestApp } from '../../support/test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read nested members of the answers (`last_run.id`, `runs[0].status`) freely
type Json = Record<string, any>;

const FAST = FAST_SOURCES;

/**
 * On the Galera cluster (.ci/run sets TEST_CLUSTER_NODES): the second instance goes through
 * another node, so the starts and leases of the two are certified against each other.
 */
const NODES = (process.env.TEST_CLUSTER_NODES ?? '').split(',').filter(Boolean);

async function instancePair(env: Record<string, string>): Promise<{ a: TestApp; b: TestApp; close: () => Promise<void> }> {
  if (NODES.length < 2) return twoInstances(env);
  const a = await createTestApp(env);
  const b = await createTestApp(env, { sharing: a, through: NODES[1] });
  return {
    a,
    b,
    async close() {
      await b.close();
      await a.close();
    },
  };
}

/** Every status an administrator may list, over every date. */
const ALL_EVENTS = `/events?per_page=50&status=publish,future,draft,pending,private&start_date=1971-01-01&end_date=2999-12-31`;

const api = (path: string) => `${API}${path}`;

async function post(t: TestApp, auth: string, path: string, body: Json, status = 201): Promise<Json> {
  const res = await http(t, auth).post(api(path)).send(body);
  if (res.status !== status) throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Json;
}

/** The titles of every event of the app (all statuses), sorted: a title twice is an event twice. */
async function titles(t: TestApp, auth: string): Promise<string[]> {
  const res = await http(t, auth).get(api(ALL_EVENTS));
  expect(res.status).toBe(200);
  return (res.body.events as Json[]).map((e) => e.title as string).sort();
}

/** Polls `probe` until it returns something other than undefined; fails with `what` after the timeout. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000, seen: () => unknown = () => undefined): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (last seen: ${JSON.stringify(seen())})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The source's last run once one newer than `after` has ended. */
async function endedRun(t: TestApp, auth: string, id: number, after = 0, timeoutMs = 30_000): Promise<Json> {
  let run: Json | null = null;
  return waitFor(
    `a run of source ${id} after run ${after} to end`,
    async () => {
      run = (await http(t, auth).get(api(`/sources/${id}`))).body.last_run as Json | null;
      return run && run.id > after && !['queued', 'running'].includes(run.status) ? run : undefined;
    },
    timeoutMs,
    () => run,
  );
}

/** A partner: another instance of the service, listening, with its own host in its global ids, and its events. */
async function partner(host: string, events: { title: string; status?: string }[]) {
  const { t, url, admin } = await partnerSite(host);
  // The administrator's application password (users.create makes one), as a source is given it.
  const password = Buffer.from(admin.slice('Basic '.length), 'base64').toString().split(':').slice(1).join(':');
  const hall = await post(t, admin, '/venues', { venue: `Hall of ${host}`, city: 'Turin' });
  let day = 10;
  for (const e of events) {
    await post(t, admin, '/events', {
      title: e.title,
      start_date: `2031-05-${day} 20:00:00`,
      end_date: `2031-05-${day++} 22:00:00`,
      venue: hall.id,
      status: e.status ?? 'publish',
    });
  }
  return { t, url, admin, password, close: () => t.close() };
}

/**
 * A proxy in front of a partner: delays each request by `delayMs`, counts the requests in flight
 * (and the most at once), and holds — never answers — every request `stallWhen` accepts until
 * release(); `stalled` resolves when the first one is held.
 */
class Proxy {
  url = '';
  delayMs = 0;
  inFlight = 0;
  maxInFlight = 0;
  forwarded = 0;
  stallWhen: (url: URL) => boolean = () => false;
  readonly stalled: Promise<void>;
  private onStall!: () => void;
  private readonly held: ServerResponse[] = [];
  private readonly server: Server;

  constructor(private readonly target: string) {
    this.stalled = new Promise((resolve) => (this.onStall = resolve));
    this.server = createServer((req, res) => this.handle(req, res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Stops stalling; the held requests are dropped (their client is gone). */
  release(): void {
    this.stallWhen = () => false;
    for (const res of this.held.splice(0)) res.destroy();
  }

  close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.on('close', () => this.inFlight--);
    const target = new URL(req.url ?? '/', this.target);
    if (this.stallWhen(target)) {
      this.held.push(res);
      this.onStall();
      return;
    }
    setTimeout(() => {
      this.forwarded++;
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    }, this.delayMs);
  }
}

/** A test HTTP server answering each path with a fixed text. */
async function feedServer(bodies: Record<string, string>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const body = bodies[new URL(req.url ?? '/', 'http://x').pathname];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/calendar' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function calendar(...vevents: string[][]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//sources-runs//EN'];
  for (const v of vevents) lines.push('BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...v, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

describe('a run killed with its process (kill -9) is taken over after its lease, as the same run (sources.md §3)', () => {
  let db: { url: string; remove: () => Promise<void> };
  let setup: TestApp;
  let worker: TestApp | undefined;
  let admin: string;
  let p: Awaited<ReturnType<typeof partner>>;
  let proxy: Proxy;
  const TITLES = ['Kill concert 1', 'Kill concert 2', 'Kill concert 3'];

  beforeAll(async () => {
    p = await partner(
      'partner-kill.test',
      TITLES.map((title) => ({ title })),
    );
    proxy = new Proxy(p.url);
    await proxy.listen();
    db = await cliDatabase();
    // An instance without a worker on the CLI's database: it migrates it, seeds and reads it.
    setup = await createTestApp({ ...FAST, CALENDAR_SOURCES_WORKER: 'off' }, { sharing: { databaseUrl: db.url } });
    admin = (await setup.userHeader('admin', 'administrator')).authorization;
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await setup?.close();
    await proxy?.close();
    await p?.close();
    await db?.remove();
  });

  it('sources:run killed while it reads the partner: a server instance ends the same run, succeeded, every event once', async () => {
    const source = await post(setup, admin, '/sources', { kind: 'tec', url: proxy.url, interval_minutes: 0 });
    // Stall when the events are listed (the first page of the whole list, after the probe).
    proxy.stallWhen = (url) => url.pathname.endsWith('/events') && url.searchParams.get('per_page') === '50';
    const env = { ...FAST, DATABASE_URL: db.url, CALENDAR_BASE_URL: 'http://127.0.0.1:3000', CALENDAR_SOURCES_TIMEOUT_SECONDS: '60' };
    const killed = await spawnCli(['sources:run', String(source.id)], env, (child) => {
      void proxy.stalled.then(() => child.kill('SIGKILL'));
    });
    expect(killed).toMatchObject({ code: null, signal: 'SIGKILL' });

    // The run the process held is left running, with its lease; nothing was written.
    const left = (await http(setup, admin).get(api(`/sources/${source.id as number}`))).body.last_run as Json;
    expect(left).toMatchObject({ status: 'running', trigger: 'manual', created: 0 });
    expect(await titles(setup, admin)).toEqual([]);

    proxy.release();
    const forwardedBefore = proxy.forwarded;
    // A server instance (worker on) on the same database takes the run over once the lease has run out.
    worker = await createTestApp(FAST, { sharing: { databaseUrl: db.url } });
    const run = await endedRun(setup, admin, source.id as number, (left.id as number) - 1, 60_000);
    expect(run).toMatchObject({ id: left.id, status: 'succeeded', trigger: 'manual', started_utc: left.started_utc, failed: 0, errors: [] });
    expect(run.created).toBeGreaterThanOrEqual(TITLES.length);
    expect(proxy.forwarded).toBeGreaterThan(forwardedBefore);
    const runs = (await http(setup, admin).get(api(`/sources/${source.id as number}/runs`))).body.runs as Json[];
    expect(runs.map((r) => r.id)).toEqual([left.id]);
    expect(await titles(setup, admin)).toEqual(TITLES);
    const ofSource = await http(setup, admin).get(api(`${ALL_EVENTS}&source=${source.id as number}`));
    expect(ofSource.body.events).toHaveLength(TITLES.length);
  }, 240_000);
});

describe('two instances on one database (through two nodes on the cluster) never run one source at once (sources.md §3)', () => {
  let pair: Awaited<ReturnType<typeof instancePair>>;
  let admin: string;
  let p: Awaited<ReturnType<typeof partner>>;
  let proxy: Proxy;
  let source: Json;
  const TITLES = ['Twin show 1', 'Twin show 2', 'Twin show 3'];

  /** Every run of the source, oldest first. */
  const runsOf = async (): Promise<Json[]> =>
    ((await http(pair.a, admin).get(api(`/sources/${source.id as number}/runs`))).body.runs as Json[]).slice().sort((x, y) => x.id - y.id);

  /** Runs this instance finished, by its metrics. */
  const finishedBy = async (t: TestApp): Promise<number> => {
    const text = (await http(t).get('/metrics')).text;
    return [...text.matchAll(/^calendar_source_runs_total\{[^}]*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  beforeAll(async () => {
    p = await partner(
      'partner-twins.test',
      TITLES.map((title) => ({ title })),
    );
    proxy = new Proxy(p.url);
    // Each request takes a while: a run (some 7 requests) outlasts the 2 s lease, which must be renewed.
    proxy.delayMs = 400;
    await proxy.listen();
    pair = await instancePair(FAST);
    admin = (await pair.a.userHeader('admin', 'administrator')).authorization;
  }, 120_000);

  afterAll(async () => {
    await pair?.close();
    await proxy?.close();
    await p?.close();
  });

  it('over several scheduled runs: one request at a time at the partner, runs that never overlap, no event twice', async () => {
    source = await post(pair.a, admin, '/sources', { kind: 'tec', url: proxy.url, interval_minutes: 15 });
    // Four runs ended — or the partner already saw two requests at once (then the check below says so).
    await waitFor(
      'four scheduled runs to end',
      async () => (proxy.maxInFlight > 1 || (await runsOf()).filter((r) => r.finished_utc !== null).length >= 4 ? true : undefined),
      90_000,
    );
    expect(proxy.maxInFlight).toBe(1);
    // The schedule stops; a run going ends.
    const stopped = await http(pair.b, admin)
      .patch(api(`/sources/${source.id as number}`))
      .send({ interval_minutes: 0 });
    expect([stopped.status, stopped.body.next_run_utc]).toEqual([200, null]);
    await settled();

    const runs = await runsOf();
    expect(runs.length).toBeGreaterThanOrEqual(4);
    for (const r of runs) expect([r.id, r.status, r.trigger, r.failed]).toEqual([r.id, 'succeeded', 'schedule', 0]);
    for (let i = 1; i < runs.length; i++) expect([runs[i - 1].id, runs[i - 1].finished_utc <= runs[i].started_utc]).toEqual([runs[i - 1].id, true]);
    expect(proxy.forwarded).toBeGreaterThanOrEqual(runs.length * 5);
    expect(proxy.maxInFlight).toBe(1);
    // Each run was finished (recorded) by one instance only.
    expect((await finishedBy(pair.a)) + (await finishedBy(pair.b))).toBe(runs.length);
    expect(await titles(pair.a, admin)).toEqual(TITLES);
    expect(runs[0].created).toBeGreaterThanOrEqual(TITLES.length);
    for (const r of runs.slice(1)) expect([r.id, r.created, r.updated]).toEqual([r.id, 0, 0]);
  }, 180_000);

  it('a run asked of both instances at the same moment: one 202, one 409 rest_source_busy, one run', async () => {
    const before = await runsOf();
    const answers = await Promise.all([pair.a, pair.b].map((t) => http(t, admin).post(api(`/sources/${source.id as number}/run`))));
    const byStatus = answers.map((r) => ({ status: r.status, code: r.body.code as unknown })).sort((x, y) => x.status - y.status);
    expect(byStatus).toEqual([
      { status: 202, code: undefined },
      { status: 409, code: 'rest_source_busy' },
    ]);
    const accepted = answers.find((r) => r.status === 202)!.body as Json;
    expect(['queued', 'running']).toContain(accepted.status);
    const run = await endedRun(pair.a, admin, source.id as number, before[before.length - 1].id as number);
    expect(run).toMatchObject({ id: accepted.id, status: 'succeeded', trigger: 'manual' });
    expect((await runsOf()).map((r) => r.id)).toEqual([...before.map((r) => r.id), accepted.id]);
    expect(proxy.maxInFlight).toBe(1);
    expect(await titles(pair.b, admin)).toEqual(TITLES);
  }, 120_000);

  /** Waits until the source has no run going, seen twice a poll apart (a start that raced the PATCH has shown up). */
  async function settled(): Promise<void> {
    let last = -1;
    await waitFor(
      'the source to have no run going',
      async () => {
        const run = (await http(pair.a, admin).get(api(`/sources/${source.id as number}`))).body.last_run as Json;
        const quiet = !['queued', 'running'].includes(run.status);
        if (quiet && run.id === last) return true;
        last = quiet ? (run.id as number) : -1;
        await new Promise((r) => setTimeout(r, 500));
        return undefined;
      },
      60_000,
    );
  }
});

describe('CLI: sources:list and sources:run (exit 0 succeeded, 1 partial, 2 failed or unknown)', () => {
  let db: { url: string; remove: () => Promise<void> };
  let setup: TestApp;
  let admin: string;
  let feeds: Awaited<ReturnType<typeof feedServer>>;
  let env: Record<string, string>;
  const sources: Record<'good' | 'partial' | 'down' | 'tec', Json> = {} as never;

  beforeAll(async () => {
    feeds = await feedServer({
      '/good.ics': calendar(
        ['UID:good-1@test', 'DTSTART:20310601T180000Z', 'DTEND:20310601T200000Z', 'SUMMARY:Good talk'],
        ['UID:good-2@test', 'DTSTART:20310602T180000Z', 'DTEND:20310602T200000Z', 'SUMMARY:Good walk'],
      ),
      // One VEVENT with a rule nobody can read: that record fails, the other is written.
      '/partial.ics': calendar(
        ['UID:fine@test', 'DTSTART:20310603T180000Z', 'DTEND:20310603T200000Z', 'SUMMARY:Fine one'],
        ['UID:broken@test', 'DTSTART:20310604T180000Z', 'DTEND:20310604T200000Z', 'RRULE:FREQ=WEEKLY;BYDAY=ZZ', 'SUMMARY:Broken rule'],
      ),
    });
    db = await cliDatabase();
    setup = await createTestApp({ ...FAST, CALENDAR_SOURCES_WORKER: 'off' }, { sharing: { databaseUrl: db.url } });
    admin = (await setup.userHeader('admin', 'administrator')).authorization;
    sources.good = await post(setup, admin, '/sources', { kind: 'ics', url: `${feeds.url}/good.ics`, interval_minutes: 0 });
    sources.partial = await post(setup, admin, '/sources', { kind: 'ics', url: `${feeds.url}/partial.ics`, interval_minutes: 0 });
    sources.down = await post(setup, admin, '/sources', { kind: 'ics', url: 'http://127.0.0.1:9/down.ics', interval_minutes: 0 });
    sources.tec = await post(setup, admin, '/sources', { kind: 'tec', url: 'http://127.0.0.1:9/site', interval_minutes: 60, enabled: false });
    env = { ...FAST, DATABASE_URL: db.url, CALENDAR_BASE_URL: 'http://127.0.0.1:3000', CALENDAR_SOURCES_TIMEOUT_SECONDS: '5' };
  }, 120_000);

  afterAll(async () => {
    await setup?.close();
    await feeds?.close();
    await db?.remove();
  });

  const lastRun = async (s: Json): Promise<Json> => (await http(setup, admin).get(api(`/sources/${s.id as number}`))).body.last_run as Json;

  it('sources:list lists every source: id, kind and URL', async () => {
    const run = await runCli(['sources:list'], env);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    for (const s of Object.values(sources)) {
      const row = run.stdout.split('\n').find((l) => l.startsWith(`${s.id as number} `));
      expect([s.id, row]).toEqual([s.id, expect.stringMatching(new RegExp(`^${s.id as number}\\s+${s.kind as string}\\s.*\\s${literal(s.url as string)}$`))]);
    }
    expect(run.stdout.split('\n').filter((l) => /^\d+\s/.test(l))).toHaveLength(4);
  }, 120_000);

  it('sources:run ID of a source that succeeds exits 0 and says `succeeded`; the events are written', async () => {
    const run = await runCli(['sources:run', String(sources.good.id)], env);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(/run \d+: succeeded\n\s+created 2,/) });
    expect(await lastRun(sources.good)).toMatchObject({ status: 'succeeded', trigger: 'manual', created: 2, failed: 0 });
    expect(await titles(setup, admin)).toEqual(['Good talk', 'Good walk']);
  }, 120_000);

  it('sources:run ID of a source where some records fail exits 1, says `partial` and names the record', async () => {
    const run = await runCli(['sources:run', String(sources.partial.id)], env);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: expect.stringMatching(/run \d+: partial\n/) });
    expect(run.stdout).toMatch(/broken@test.*BYDAY=ZZ/);
    expect(await lastRun(sources.partial)).toMatchObject({ status: 'partial', created: 1, failed: 1 });
    expect(await titles(setup, admin)).toEqual(['Fine one', 'Good talk', 'Good walk']);
  }, 120_000);

  it('sources:run ID of a source that cannot be read exits 2 and says `failed`; nothing is written', async () => {
    const run = await runCli(['sources:run', String(sources.down.id)], env);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: expect.stringMatching(/run \d+: failed\n/) });
    expect(await lastRun(sources.down)).toMatchObject({ status: 'failed', created: 0 });
    expect(await titles(setup, admin)).toEqual(['Fine one', 'Good talk', 'Good walk']);
  }, 120_000);

  it('sources:run in a process whose environment keeps private addresses out: failed at once, the error names the setting', async () => {
    const strict = { ...env, CALENDAR_SOURCES_ALLOW_PRIVATE: 'off' };
    for (const s of [sources.good, sources.tec]) {
      const run = await runCli(['sources:run', String(s.id)], strict);
      expect([s.kind, run.code, run.stdout]).toEqual([s.kind, 2, expect.stringMatching(/run \d+: failed\n/)]);
      // Refused before any connection, and not tried again: a refusal is final.
      expect(run.stdout).toMatch(/127\.0\.0\.1 is not a public address \(CALENDAR_SOURCES_ALLOW_PRIVATE=on allows it\)/);
      expect(run.stdout).not.toMatch(/gave up after/);
    }
    expect(await titles(setup, admin)).toEqual(['Fine one', 'Good talk', 'Good walk']);
  }, 120_000);

  it('sources:run of an unknown id exits 2 and says so', async () => {
    const run = await runCli(['sources:run', '9999'], env);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/no source has the id 9999/) });
  }, 120_000);
});

describe("a tec source's credentials (sources.md §2): sealed with CALENDAR_WEBHOOK_KEY, never answered, and reading drafts", () => {
  let target: TestApp;
  let admin: string;
  let p: Awaited<ReturnType<typeof partner>>;

  beforeAll(async () => {
    p = await partner('partner-creds.test', [{ title: 'Public show' }, { title: 'Draft show', status: 'draft' }]);
    target = await createTestApp({ ...FAST, CALENDAR_WEBHOOK_KEY: 'a1'.repeat(32) });
    admin = (await target.userHeader('admin', 'administrator')).authorization;
  }, 120_000);

  afterAll(async () => {
    await target?.close();
    await p?.close();
  });

  const runNow = async (id: number): Promise<Json> => {
    const before = (await http(target, admin).get(api(`/sources/${id}`))).body.last_run as Json | null;
    if (before && ['queued', 'running'].includes(before.status)) await endedRun(target, admin, id, (before.id as number) - 1);
    const started = await http(target, admin).post(api(`/sources/${id}/run`));
    expect(started.status).toBe(202);
    return endedRun(target, admin, id, (started.body.id as number) - 1);
  };
  const stored = async (id: number): Promise<{ login: string | null; password: string | null }> =>
    (
      (await target.app.get(DataSource).query('SELECT login, password FROM sources WHERE id = ?', [id])) as { login: string | null; password: string | null }[]
    )[0];
  /** An answer shows neither the login nor the password, as a field or anywhere in its text. */
  const hidesCredentials = (text: string, body: Json | Json[]) => {
    for (const s of Array.isArray(body) ? body : [body]) {
      expect(s).not.toHaveProperty('login');
      expect(s).not.toHaveProperty('password');
    }
    expect(text).not.toContain(p.password);
    expect(text).not.toContain('partneradmin');
  };

  it('without credentials, a run reads what is public only', async () => {
    const source = await post(target, admin, '/sources', { kind: 'tec', url: p.url, interval_minutes: 0 });
    expect(await runNow(source.id as number)).toMatchObject({ status: 'succeeded', failed: 0 });
    expect(await titles(target, admin)).toEqual(['Public show']);
    await http(target, admin)
      .delete(api(`/sources/${source.id as number}`))
      .expect(200);
  }, 120_000);

  it('created with login and password: the password is stored sealed, no answer shows either, and a run brings the draft too', async () => {
    const created = await http(target, admin)
      .post(api('/sources'))
      .send({ kind: 'tec', url: p.url, interval_minutes: 0, login: 'partneradmin', password: p.password });
    expect(created.status).toBe(201);
    hidesCredentials(created.text, created.body as Json);
    const id = created.body.id as number;
    const row = await stored(id);
    expect(row.password).toMatch(/^enc1:/);
    expect(row.password).not.toContain(p.password);
    expect(row.login).toBe('partneradmin');

    const run = await runNow(id);
    expect(run).toMatchObject({ status: 'succeeded', failed: 0, errors: [] });
    // The same origin as the first source's: the public event is the same one, not a second copy.
    expect(await titles(target, admin)).toEqual(['Draft show', 'Public show']);
    const draft = ((await http(target, admin).get(api(ALL_EVENTS))).body.events as Json[]).find((e) => e.title === 'Draft show')!;
    expect(draft.status).toBe('draft');

    // Changing the password seals the new one; reading, listing and changing never show them.
    const patched = await http(target, admin)
      .patch(api(`/sources/${id}`))
      .send({ password: `${p.password}x`, enabled: true });
    expect(patched.status).toBe(200);
    hidesCredentials(patched.text, patched.body as Json);
    const resealed = await stored(id);
    expect(resealed.password).toMatch(/^enc1:/);
    expect(resealed.password).not.toBe(row.password);
    const one = await http(target, admin).get(api(`/sources/${id}`));
    hidesCredentials(one.text, one.body as Json);
    const all = await http(target, admin).get(api('/sources'));
    hidesCredentials(all.text, all.body.sources as Json[]);
    const runs = await http(target, admin).get(api(`/sources/${id}/runs`));
    hidesCredentials(runs.text, runs.body.runs as Json[]);
  }, 120_000);
});

/** `text` as a regular expression that matches it literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
