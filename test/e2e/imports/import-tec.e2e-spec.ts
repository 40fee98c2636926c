// import:tec round trips (spec compat.md "Import from a live TEC site"): a
// second instance of the service, filled through its API, is imported by the CLI (a child
// process) into an empty database, and every record is compared field by field through the
// target's API. Runs twice (nothing duplicated), after a change (exactly it updated), after a
// kill -9 mid-run (the rerun completes), through 429/500 with Retry-After, and against a site
// that is not TEC (exit 2).
import { createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { spawnCli, type SpawnedCli } from '../../support/cli';

jest.setTimeout(300_000);
type Json = Record<string, unknown>;
type Run = SpawnedCli;

const cli = spawnCli;

/**
 * A proxy in front of the source: counts requests, can answer the next ones with an error
 * (and Retry-After), and can stall every request after the Nth (the run then hangs until killed).
 */
class Proxy {
  server!: Server;
  forwarded = 0;
  failures: { status: number; retryAfter?: string }[] = [];
  /** Holds (never answers) the first request whose URL this accepts, and every one after it. */
  stallWhen: (url: string) => boolean = () => false;
  private stalling = false;
  /** Resolved when the first request is held. */
  stalled!: Promise<void>;
  private onStall!: () => void;
  private held: ServerResponse[] = [];

  constructor(private readonly target: string) {
    this.reset();
  }

  reset(): void {
    this.stallWhen = () => false;
    this.stalling = false;
    this.failures = [];
    this.stalled = new Promise((resolve) => (this.onStall = resolve));
    for (const res of this.held.splice(0)) res.destroy();
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.reset();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const failure = this.failures.shift();
    if (failure) {
      res.writeHead(failure.status, { 'content-type': 'application/json', ...(failure.retryAfter ? { 'retry-after': failure.retryAfter } : {}) });
      res.end(JSON.stringify({ code: 'busy', message: 'try later' }));
      return;
    }
    this.stalling ||= this.stallWhen(req.url ?? '/');
    if (this.stalling) {
      this.held.push(res);
      this.onStall();
      return;
    }
    this.forwarded++;
    const target = new URL(req.url ?? '/', this.target);
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }
}

/** Every record of one list of the app, as an administrator sees it (all statuses). */
async function listAll(t: TestApp, auth: string, collection: string, query: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let page = 1; ; page++) {
    const res = await http(t, auth).get(`${API}/${collection}?per_page=50&page=${page}&${query}`);
    if (res.status === 404 || res.status === 400) break;
    expect(res.status).toBe(200);
    const items = (res.body as Json)[collection] as Json[];
    out.push(...items);
    if (items.length < 50) break;
  }
  return out;
}

const ID_KEYS = new Set(['id', 'global_id', 'global_id_lineage', 'rest_url', 'urls', 'author', 'parent']);

/**
 * A record with its ids and id-bearing URLs taken out, nested records likewise, and its
 * links named by what they point at (a category's parent by its slug).
 */
function normalised(value: unknown, parentSlug?: (id: number) => string | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => normalised(v, parentSlug));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) {
    if (k === 'parent' && typeof v === 'number' && parentSlug) out.parent = v === 0 ? 0 : parentSlug(v);
    if (ID_KEYS.has(k)) continue;
    out[k] = normalised(v, parentSlug);
  }
  return out;
}

const EVENT_QUERY = 'start_date=1971-01-01&end_date=2999-12-31&status=publish,future,draft,pending,private';
const ITEM_QUERY = 'status=publish,future,draft,pending,private';

/** Everything of an app, normalised and keyed by slug. */
async function snapshot(t: TestApp, auth: string): Promise<Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const collection of ['categories', 'tags', 'venues', 'organizers', 'events']) {
    const query = collection === 'events' ? EVENT_QUERY : collection === 'categories' || collection === 'tags' ? 'hide_empty=false' : ITEM_QUERY;
    const list = await listAll(t, auth, collection, query);
    const slugs = new Map(list.map((r) => [r.id as number, r.slug as string]));
    out[collection] = Object.fromEntries(list.map((r) => [r.slug as string, normalised(r, (id) => slugs.get(id))]));
  }
  return out;
}

/** Summary counts of one kind from the CLI's stdout. */
function counts(run: Run, kind: string): Record<string, number> {
  const line = run.stdout.split('\n').find((l) => l.trim().startsWith(kind)) ?? '';
  const n = (word: string) => Number(new RegExp(`${word} (\\d+)`).exec(line)?.[1] ?? NaN);
  return { created: n('(?:created|would create)'), updated: n('(?:updated|would update)'), unchanged: n('unchanged'), failed: n('failed') };
}

describe('import:tec (compat.md: Import from a live TEC site)', () => {
  let source: TestApp;
  let sourceAdmin: string;
  let sourceRoot: string;
  let proxy: Proxy;
  let proxyRoot: string;
  let dir: string;
  let targetUrl: string;
  let dropTarget: () => Promise<void> = async () => undefined;
  let env: Record<string, string>;
  let credentials: string[];
  let target: TestApp;
  let targetAdmin: string;
  let changedSlug: string;

  beforeAll(async () => {
    source = await createTestApp();
    await source.app.listen(0, '127.0.0.1');
    sourceRoot = `http://127.0.0.1:${(source.app.getHttpServer().address() as AddressInfo).port}`;
    const admin = await source.userHeader('sourceadmin', 'administrator');
    sourceAdmin = admin.authorization;
    const password = Buffer.from(sourceAdmin.slice('Basic '.length), 'base64').toString().split(':').slice(1).join(':');
    credentials = ['--user', 'sourceadmin', '--password', password];
    proxy = new Proxy(sourceRoot);
    // The site's address, as a user moving from WordPress types it: the importer finds the
    // namespace at its /wp-json/tribe/events/v1 alias (compat.md), which it then reads through.
    proxyRoot = await proxy.listen();
    await fillSource();

    dir = mkdtempSync(join(tmpdir(), 'calendar-import-tec-'));
    const server = process.env.TEST_DATABASE_URL;
    if (server && /^(mysql|mariadb):\/\//.test(server)) {
      // A second database on the same server, named after the test database (like createTestApp's scratch ones).
      const url = new URL(server.replace(/^mariadb:/, 'mysql:'));
      const name = `${url.pathname.slice(1) || 'calendar_test'}_tec_${process.pid}`;
      url.pathname = '';
      const conn = await createConnection({ uri: url.toString() });
      await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await conn.end();
      dropTarget = async () => {
        const c = await createConnection({ uri: url.toString() });
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
      };
      url.pathname = `/${name}`;
      targetUrl = url.toString();
    } else targetUrl = `sqlite:${join(dir, 'target.sqlite')}`;
    env = { DATABASE_URL: targetUrl, CALENDAR_BASE_URL: 'http://127.0.0.1:3000' };
    const made = await cli(['user:create', 'importer', '--role', 'administrator', '--password', 'importer secret'], env);
    expect(made.code).toBe(0);
  });

  afterAll(async () => {
    await target?.close();
    await proxy?.close();
    await source?.close();
    await dropTarget();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Source data through its API: every field, zones, all-day, multi-day, nesting, hierarchy, drafts. */
  async function fillSource(): Promise<void> {
    const post = async (path: string, body: Json) => {
      const res = await http(source, sourceAdmin).post(`${API}/${path}`).send(body);
      if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as Json;
    };
    const arts = await post('categories', { name: 'Arts', description: 'All the arts', slug: 'arts' });
    const music = await post('categories', { name: 'Music', parent: arts.id });
    const jazz = await post('categories', { name: 'Jazz', parent: music.id, slug: 'jazz-music' });
    await post('categories', { name: 'Unused', description: 'No events' });
    const outdoor = await post('tags', { name: 'Outdoor', description: 'Under the sky' });
    const free = await post('tags', { name: 'Free entry' });
    const hall = await post('venues', {
      venue: 'Concert Hall',
      description: '<p>Big <em>hall</em></p>',
      address: 'Via Roma 1',
      city: 'Turin',
      country: 'Italy',
      province: 'TO',
      zip: '10100',
      phone: '+39 011 000',
      website: 'https://hall.example/',
      show_map: false,
      show_map_link: true,
      date_utc: '2020-02-03 04:05:06',
    });
    const ny = await post('venues', { venue: 'Loft', city: 'New York', state: 'NY', country: 'United States', status: 'draft' });
    const ann = await post('organizers', { organizer: 'Ann Org', email: 'ann@org.example', phone: '555', website: 'https://ann.example/', description: 'Ann' });
    const bob = await post('organizers', { organizer: 'Bob Org' });

    await post('events', {
      title: 'Spring concert',
      description: '<p>Two <strong>sets</strong>.</p>',
      excerpt: 'Short text',
      slug: 'spring-concert',
      start_date: '2030-03-31 01:30:00', // the night Europe/Rome moves to summer time
      end_date: '2030-03-31 04:00:00',
      timezone: 'Europe/Rome',
      cost: ['$10', '$25'],
      website: 'https://concert.example/',
      show_map: true,
      show_map_link: false,
      sticky: true,
      featured: true,
      venue: hall.id,
      organizer: [ann.id, bob.id],
      categories: [String(jazz.id), String(arts.id)],
      tags: [String(outdoor.id), String(free.id)],
      date_utc: '2021-05-06 07:08:09',
    });
    await post('events', {
      title: 'Harvest fair',
      start_date: '2030-09-10',
      end_date: '2030-09-12',
      all_day: true,
      timezone: 'UTC+5',
      cost: 'Free',
      venue: { venue: 'Field', city: 'Almaty', description: 'Nested venue' },
      organizer: [{ organizer: 'Nested Org', email: 'nested@org.example' }, { id: bob.id }],
      categories: ['Music'],
    });
    await post('events', { title: 'Draft night', start_date: '2031-01-01 20:00', end_date: '2031-01-01 23:00', status: 'draft', venue: ny.id });
    await post('events', { title: 'Pending talk', start_date: '2031-02-01 10:00', end_date: '2031-02-01 11:00', status: 'pending', tags: ['Free entry'] });
    await post('events', {
      title: 'Private dinner',
      start_date: '2031-03-01 19:00',
      end_date: '2031-03-01 22:00',
      status: 'private',
      timezone: 'America/New_York',
    });
    // A decimal comma: the copy keeps the cost as written (sources.md §4), not `€10.50`.
    await post('events', { title: 'Long ago', start_date: '1990-06-01 10:00', end_date: '1990-06-03 18:00', timezone: 'Asia/Kolkata', cost: '€10,50' });
    // More than one page of events (per_page=50), so that an interrupted run has written some.
    for (let i = 1; i <= 52; i++) {
      await post('events', {
        title: `Daily ${i}`,
        start_date: `2032-01-01 ${String(8 + (i % 10)).padStart(2, '0')}:00`,
        end_date: '2032-01-01 20:00',
        categories: [String(music.id)],
      });
    }
    changedSlug = 'daily-7';
  }

  async function openTarget(): Promise<void> {
    if (target) return;
    // `sharing`: the CLI's database itself (createTestApp would otherwise make a fresh MariaDB one).
    target = await createTestApp({}, { sharing: { databaseUrl: targetUrl } });
    targetAdmin = (await target.userHeader('reader', 'administrator')).authorization;
  }

  it('refuses a site that is not TEC with exit 2', async () => {
    const plain = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>not a calendar</html>');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const run = await cli(['import:tec', `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/No TEC REST API/);
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('refuses wrong credentials with exit 2', async () => {
    const run = await cli(['import:tec', proxyRoot, '--user', 'sourceadmin', '--password', 'wrong wrong'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refused the credentials/);
  });

  it('a dry run reads and counts, and writes nothing', async () => {
    const run = await cli(['import:tec', proxyRoot, '--dry-run', ...credentials], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Dry run/);
    expect(counts(run, 'categories').created).toBe(4);
    await openTarget();
    expect(await listAll(target, targetAdmin, 'categories', 'hide_empty=false')).toEqual([]);
  });

  it('killed mid-run (kill -9), the next run completes', async () => {
    // Stall when the organizers are asked for (the terms and venues are written by then), then
    // kill the process: the next test's run must complete from there.
    proxy.reset();
    proxy.stallWhen = (url) => url.includes('/organizers');
    const run = await cli(['import:tec', proxyRoot, ...credentials], env, (child) => {
      void proxy.stalled.then(() => child.kill('SIGKILL'));
    });
    expect(run.code).toBeNull(); // killed
    proxy.reset();
    await openTarget();
    expect((await listAll(target, targetAdmin, 'venues', ITEM_QUERY)).length).toBeGreaterThan(0);
    expect(await listAll(target, targetAdmin, 'events', EVENT_QUERY)).toEqual([]);
  });

  it('imports everything, equal to the source in every field but ids (429/500 with Retry-After retried)', async () => {
    proxy.reset();
    proxy.failures = [{ status: 429, retryAfter: '1' }, { status: 500 }, { status: 503, retryAfter: new Date(Date.now() + 1000).toUTCString() }];
    const run = await cli(['import:tec', proxyRoot, ...credentials], env);
    expect(run.stdout).toContain(`From ${proxyRoot}/wp-json/tribe/events/v1`);
    expect(run.stderr).toMatch(/retrying .* HTTP 429/);
    expect(run.stderr).toMatch(/HTTP 500/);
    expect(run.code).toBe(0);
    expect(counts(run, 'events').failed).toBe(0);
    await openTarget();
    const [from, to] = [await snapshot(source, sourceAdmin), await snapshot(target, targetAdmin)];
    // What the source holds (so that the comparison below cannot pass on empty lists).
    expect(Object.fromEntries(Object.entries(from).map(([k, v]) => [k, Object.keys(v).length]))).toEqual({
      categories: 4,
      tags: 2,
      venues: 3,
      organizers: 3,
      events: 58,
    });
    expect(to.events['spring-concert']).toMatchObject({ timezone: 'Europe/Rome', cost: '$10 – $25', featured: true, sticky: true, status: 'publish' });
    expect((to.events['spring-concert'] as Json).venue).toMatchObject({ venue: 'Concert Hall', city: 'Turin' });
    expect(to.events['long-ago']).toMatchObject({ cost: '€10,50' });
    expect(to.categories['jazz-music']).toMatchObject({ parent: 'music' });
    expect(to.events['draft-night']).toMatchObject({ status: 'draft' });
    for (const collection of Object.keys(from)) {
      expect(Object.keys(to[collection]).sort()).toEqual(Object.keys(from[collection]).sort());
      for (const slug of Object.keys(from[collection])) expect([collection, slug, to[collection][slug]]).toEqual([collection, slug, from[collection][slug]]);
    }
  });

  it('a second run changes nothing and duplicates nothing', async () => {
    await openTarget();
    const before = await snapshot(target, targetAdmin);
    const run = await cli(['import:tec', proxyRoot, ...credentials], env);
    expect(run.code).toBe(0);
    for (const kind of ['categories', 'tags', 'venues', 'organizers', 'events']) {
      const c = counts(run, kind);
      expect([kind, c.created, c.updated, c.failed]).toEqual([kind, 0, 0, 0]);
      expect(c.unchanged).toBeGreaterThan(0);
    }
    expect(await snapshot(target, targetAdmin)).toEqual(before);
  });

  it('the same site by another URL (directly, not through the proxy) is the same origin: nothing doubled (sources.md §4)', async () => {
    await openTarget();
    const before = await snapshot(target, targetAdmin);
    const direct = sourceRoot.replace('127.0.0.1', 'localhost');
    const run = await cli(['import:tec', `${direct}/`, ...credentials], env);
    expect(run.stderr).not.toMatch(/already exists/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`From ${direct}/wp-json/tribe/events/v1`);
    for (const kind of ['categories', 'tags', 'venues', 'organizers', 'events']) {
      const c = counts(run, kind);
      expect([kind, c.created, c.updated, c.failed]).toEqual([kind, 0, 0, 0]);
    }
    expect(await snapshot(target, targetAdmin)).toEqual(before);
  });

  it('after a change on the source, the next run updates exactly that record', async () => {
    const list = await listAll(source, sourceAdmin, 'events', `${EVENT_QUERY}&search=Daily`);
    const changed = list.find((e) => e.slug === changedSlug)!;
    // modified_utc has a resolution of one second: make sure the change is seen as one.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(
      (
        await http(source, sourceAdmin)
          .post(`${API}/events/${String(changed.id)}`)
          .send({ title: 'Daily seven, moved', featured: true })
      ).status,
    ).toBe(200);
    const run = await cli(['import:tec', proxyRoot, ...credentials], env);
    expect(run.code).toBe(0);
    expect(counts(run, 'events')).toMatchObject({ created: 0, updated: 1, failed: 0 });
    await openTarget();
    const res = await http(target, targetAdmin).get(`${API}/events/by-slug/${changedSlug}`);
    expect(res.body).toMatchObject({
      title: 'Daily seven, moved',
      featured: true,
      modified_utc: (await http(source, sourceAdmin).get(`${API}/events/${String(changed.id)}`)).body.modified_utc,
    });
  });

  it('without credentials only published records come', async () => {
    const dir2 = mkdtempSync(join(tmpdir(), 'calendar-import-tec-anon-'));
    try {
      const anonEnv = { ...env, DATABASE_URL: `sqlite:${join(dir2, 'anon.sqlite')}` };
      expect((await cli(['user:create', 'importer', '--role', 'administrator'], anonEnv)).code).toBe(0);
      const run = await cli(['import:tec', proxyRoot], anonEnv);
      expect(run.code).toBe(0);
      const anon = await createTestApp({ DATABASE_URL: anonEnv.DATABASE_URL });
      try {
        const auth = (await anon.userHeader('r', 'administrator')).authorization;
        const statuses = new Set((await listAll(anon, auth, 'events', EVENT_QUERY)).map((e) => e.status));
        expect([...statuses]).toEqual(['publish']);
      } finally {
        await anon.close();
      }
    } finally {
      rmSync(dir2, { recursive: true, force: true });
    }
  });
});
