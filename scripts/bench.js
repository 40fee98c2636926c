#!/usr/bin/env node
// `npm run bench`: seeds a temporary database, starts the production build on it and drives each
// scenario with wrk (one thread; installed from Debian's packages when missing); beside every
// result, the same response served by a bare node:http server (the "ceiling": what this machine
// and load generator can do at all), so that the ratio real/ceiling says how much of the budget
// the service itself spends. Requests that vary (ids, random pages, created events) come from a
// generated Lua script (scripts/bench-wrk.js), and so do the results: one JSON line per run.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { ensureWrk, wrkVersion, luaCyclePaths, luaNumberedBody, writeScript, runWrk } = require('./bench-wrk');
const recurrence = require('./bench-series');

const ROOT = path.join(__dirname, '..');
const API = '/calendar/events/v1';
const ADMIN = { login: 'bench-admin', password: crypto.randomBytes(12).toString('hex') };
const AUTH = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;

const USAGE = `Usage: npm run bench -- [options]

  --events N         events to seed (default 100000; venues, organizers, terms as \`seed\` scales them)
  --seconds S        measured seconds per scenario, real and ceiling each (default 10)
  --connections C    concurrent connections (default 16)
  --warmup S         whole seconds of unmeasured load before each measurement (default 1, 0: none)
  --db URL           mysql://user:pass@host:port/NAME: create database NAME there (it must not
                     exist) and drop it at the end; default: a SQLite file in a temporary folder
  --seed S           data and random-request seed (default 1)
  --scenarios A,B    run only these scenarios (names as in the table)
  --mixed-combos N   filter combinations the mixed scenario draws its pages from (default 1000,
                     enough that few pages repeat)
  --json FILE        also write the results, with machine information, as JSON
  --webhook-relay    the measured server runs with CALENDAR_WEBHOOK_WORKER=off and a second
                     server on the same database sends the webhook deliveries (the layout of
                     README "Running several instances"); without it the measured server
                     sends them itself
  --slices K         measure the chosen scenarios in K alternating slices of S/K seconds each
                     (all scenarios' first slices, then all second slices, …) and report each
                     scenario's slices together: when the machine's speed drifts between runs,
                     scenarios compared with each other (create-event against
                     create-event-subscribed) are then measured over the same minutes (default 1)
  --profile DIR      run the server under the V8 profiler (node --cpu-prof): it writes a
                     .cpuprofile into DIR when it stops (open it in Chrome DevTools); numbers
                     measured so are lower than without the profiler
  --series N         run the server with CALENDAR_RECURRENCE=on and, after the seed, create N
                     weekly two-year series (104 occurrences each) through the API; adds the
                     scenarios create-series and edit-series-all (default 0: none; the series
                     targets are set for 1000 among 100000 events)
  --compare          with --series: also seed a second database the same way, add the same
                     occurrences to it as single events (through the API, the module off), and
                     measure every wrk scenario on both in turns (series, singles, singles,
                     series: half the seconds each); reports both and the difference in %;
                     give it --warmup 5: the server that just took the singles' writes starts
                     colder than 1 s of warm-up makes up for
  --samples S        requests of create-series and edit-series-all, sent one at a time
                     (default 50)

Load generator: wrk with one thread (wrk -t1), installed with apt-get when it is not on PATH.
`;

// ---------------------------------------------------------------- options

function readOptions() {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '100000' },
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '16' },
      warmup: { type: 'string', default: '1' },
      db: { type: 'string' },
      seed: { type: 'string', default: '1' },
      scenarios: { type: 'string' },
      json: { type: 'string' },
      profile: { type: 'string' },
      slices: { type: 'string', default: '1' },
      series: { type: 'string', default: '0' },
      compare: { type: 'boolean', default: false },
      samples: { type: 'string', default: '50' },
      'mixed-combos': { type: 'string', default: '1000' },
      'webhook-relay': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const int = (name, min) => {
    const n = Number(values[name]);
    if (!/^\d+$/.test(values[name]) || n < min) usage(`--${name} must be a whole number of at least ${min}.`);
    return n;
  };
  if (values.db !== undefined && !/^(mysql|mariadb):\/\/[^/]+\/\w+$/.test(values.db)) usage('--db must be mysql://user:pass@host:port/NAME.');
  return {
    events: int('events', 1),
    seconds: int('seconds', 1),
    connections: int('connections', 1),
    // wrk's -d takes whole seconds.
    warmup: int('warmup', 0),
    db: values.db,
    seed: int('seed', 0),
    scenarios: values.scenarios ? values.scenarios.split(',').map((s) => s.trim()) : undefined,
    json: values.json,
    profile: values.profile && path.resolve(values.profile),
    webhookRelay: values['webhook-relay'],
    slices: int('slices', 1),
    mixedCombos: int('mixed-combos', 1),
    ...seriesOptions(values, int),
  };
}

/** --series, --compare and --samples, checked together. */
function seriesOptions(values, int) {
  const series = int('series', 0);
  if (values.compare && series === 0) usage('--compare needs --series N.');
  if (values.compare && (values.slices !== '1' || values['webhook-relay']))
    usage('--compare measures the two servers in turns; it does not take --slices or --webhook-relay.');
  return { series, compare: values.compare, samples: int('samples', 1) };
}

function usage(message) {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

// ---------------------------------------------------------------- children and cleanup

const children = new Set();
const cleanups = [];

function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

async function cleanup() {
  for (const child of children) child.kill('SIGTERM');
  const deadline = Date.now() + 5000;
  while (children.size > 0 && Date.now() < deadline) await sleep(50);
  for (const child of children) child.kill('SIGKILL');
  for (const task of cleanups.splice(0).reverse()) await task().catch((err) => note(`cleanup: ${err.message}`));
}

let stopping = false;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    note(`\n${signal}: stopping`);
    cleanup().finally(() => process.exit(code));
  });
}
// Last resort (an uncaught exception, process.exit elsewhere): no child outlives the bench.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

// ---------------------------------------------------------------- small helpers

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const note = (text) => process.stderr.write(`${text}\n`);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One request with the raw status, headers and body (what the ceiling server will replay). */
function request(base, { method = 'GET', path: target, headers = {}, body, timeout = 60_000 }) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(target, base), { method, headers, timeout }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${target}: no answer within ${timeout / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function getJson(base, target, headers) {
  const res = await request(base, { path: target, headers });
  if (res.status !== 200) throw new Error(`GET ${target} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return { json: JSON.parse(res.body.toString()), headers: res.headers };
}

/** Peak VmRSS (MB) of a process while `work` runs, sampled every 200 ms from /proc. */
async function peakRss(pid, work) {
  let peak = 0;
  const sample = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      // not Linux, or the process is gone: no sample
    }
  };
  sample();
  const timer = setInterval(sample, 200);
  try {
    const result = await work();
    sample();
    return { result, peakRssMb: peak };
  } finally {
    clearInterval(timer);
  }
}

// ---------------------------------------------------------------- build, database, seed, server

function build() {
  // scripts/start.js compiles when the sources are newer than dist/; `help` then exits at once.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'start.js'), '--cli', 'help'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * A fresh database: a SQLite file in `dir`, or the database `--db` names, which it creates (and
 * drops at the end); `suffix` goes into the file's or database's name (the --compare run's own).
 */
async function prepareDatabase(opts, dir, suffix = '') {
  if (!opts.db) {
    const Database = require('better-sqlite3');
    const probe = new Database(':memory:');
    const version = probe.prepare('SELECT sqlite_version() AS v').get().v;
    probe.close();
    return { url: `sqlite:${path.join(dir, `bench${suffix}.sqlite`)}`, kind: 'sqlite', version: `SQLite ${version}` };
  }
  const mysql = require('mysql2/promise');
  const url = new URL(opts.db.replace(/^mariadb:/, 'mysql:'));
  const name = `${url.pathname.slice(1)}${suffix}`;
  const own = new URL(url);
  own.pathname = `/${name}`;
  url.pathname = '/';
  const admin = () => mysql.createConnection({ uri: url.toString() });
  const conn = await admin();
  try {
    const [exists] = await conn.query('SHOW DATABASES LIKE ?', [name]);
    if (exists.length > 0) throw new Error(`Database "${name}" already exists; the bench creates and drops its own. Drop it first or name another.`);
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    cleanups.push(async () => {
      const c = await admin();
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    });
    const [[{ version }]] = await conn.query('SELECT VERSION() AS version');
    return { url: own.toString(), kind: 'mysql', version: /mariadb/i.test(version) ? `MariaDB ${version}` : `MySQL ${version}` };
  } finally {
    await conn.end();
  }
}

/** `npm run cli -- seed` on the fresh database; its progress bar goes to our stderr. */
function seed(db, opts) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = track(
      spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'cli.js'), 'seed', '--events', String(opts.events), '--seed', String(opts.seed)], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`seed failed (exit ${code})\n${out}`));
      process.stderr.write(out);
      resolve({ seconds: (Date.now() - started) / 1000, report: out });
    });
  });
}

/** The node flags `npm run start:prod` gives the server (package.json): the bench runs what production runs. */
function productionNodeFlags() {
  const script = require(path.join(ROOT, 'package.json')).scripts['start:prod'];
  const m = /^node((?: --\S+)*) dist\/src\/main\.js$/.exec(script);
  if (!m) throw new Error(`package.json "start:prod" is not "node [--flag …] dist/src/main.js": ${script}`);
  return m[1].split(' ').filter(Boolean);
}

async function startServer(db, profileDir, extraEnv = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = track(
    spawn(
      process.execPath,
      [...productionNodeFlags(), ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), path.join(ROOT, 'dist', 'src', 'main.js')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: db.url,
          LOG_LEVEL: 'warn',
          CALENDAR_ADMIN_LOGIN: ADMIN.login,
          CALENDAR_ADMIN_PASSWORD: ADMIN.password,
          // create-event-subscribed's receiver listens on 127.0.0.1, and so does reads-during-source-run's feed.
          CALENDAR_WEBHOOK_ALLOW_PRIVATE: 'on',
          CALENDAR_SOURCES_ALLOW_PRIVATE: 'on',
          NODE_ENV: 'production',
          ...extraEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  );
  let log = '';
  const keep = (d) => (log = (log + d).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before answering:\n${log}`);
    const res = await request(base, { path: API }).catch(() => null);
    if (res?.status === 200) return { child, base, log: () => log };
    await sleep(200);
  }
  throw new Error(`the server did not answer within 120 s:\n${log}`);
}

/** A receiver that accepts every webhook delivery, and a subscription of every change to it (create-event-subscribed). */
async function subscribeAll(base, auth) {
  const receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${receiver.address().port}/hook`;
  const res = await request(base, {
    method: 'POST',
    path: `${API}/webhooks`,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['*'] }),
  });
  if (res.status !== 201) throw new Error(`POST /webhooks answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  // A write that starts after the subscription's answer is delivered to it (database/webhook-outbox.ts).
  return { receiver, id: JSON.parse(res.body.toString()).id };
}

/** Pending webhook deliveries now, and how long until there are none (at most two minutes). */
async function outboxLag(db) {
  const started = Date.now();
  let count;
  let close;
  if (db.kind === 'sqlite') {
    const Database = require('better-sqlite3');
    const conn = new Database(db.url.slice('sqlite:'.length), { readonly: true });
    const statement = conn.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
    count = async () => statement.get().n;
    close = async () => conn.close();
  } else {
    const conn = await require('mysql2/promise').createConnection({ uri: db.url.replace(/^mariadb:/, 'mysql:') });
    count = async () => Number((await conn.query("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'"))[0][0].n);
    close = () => conn.end();
  }
  try {
    const pending = await count();
    while ((await count()) > 0 && Date.now() - started < 120_000) await sleep(100);
    return { pending, seconds: (Date.now() - started) / 1000 };
  } finally {
    await close();
  }
}

async function unsubscribe(base, auth, state) {
  await request(base, { method: 'DELETE', path: `${API}/webhooks/${state.id}`, headers: { authorization: auth } });
  state.receiver.closeAllConnections();
  await new Promise((resolve) => state.receiver.close(resolve));
}

/** A bare node:http server in a child process that answers every request with the response it is sent. */
async function startCeiling() {
  const source = `
    const http = require('node:http');
    let reply = { status: 200, headers: {}, body: Buffer.alloc(0) };
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => { res.writeHead(reply.status, reply.headers); res.end(reply.body); });
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
    process.on('message', (m) => {
      reply = { status: m.status, headers: m.headers, body: Buffer.from(m.body, 'base64') };
      process.send({ ok: true });
    });
    process.on('disconnect', () => process.exit(0));
  `;
  const child = track(spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    /** Serve this captured response (hop-by-hop headers dropped, everything else identical). */
    async serve(res) {
      const headers = { ...res.headers };
      for (const h of ['connection', 'keep-alive', 'transfer-encoding', 'date']) delete headers[h];
      headers['content-length'] = String(res.body.length);
      child.send({ status: res.status, headers, body: res.body.toString('base64') });
      await new Promise((resolve) => child.once('message', resolve));
    },
  };
}

// ---------------------------------------------------------------- what the scenarios ask for

/** Ids and words to ask for, found through the API itself (and the seed's vocabulary). */
async function discover(base) {
  const { COMMON_WORDS, RARE_WORDS } = require(path.join(ROOT, 'dist', 'src', 'seed', 'vocabulary.js'));
  const eventIds = [];
  // The public pages of the listed events (pages.md): their paths, and the month of the first one.
  const eventPages = [];
  let pageMonth;
  const venueUse = new Map();
  for (let page = 1; page <= 10; page++) {
    const res = await request(base, { path: `${API}/events?per_page=50&page=${page}` });
    if (res.status !== 200) break;
    for (const e of JSON.parse(res.body.toString()).events) {
      eventIds.push(e.id);
      eventPages.push(new URL(e.url).pathname);
      pageMonth ??= e.start_date.slice(0, 7);
      if (e.venue && !Array.isArray(e.venue)) venueUse.set(e.venue.id, (venueUse.get(e.venue.id) ?? 0) + 1);
    }
  }
  const { json } = await getJson(base, `${API}/categories?orderby=count&order=desc&per_page=50`);
  const categories = json.categories.filter((c) => c.count > 0).map((c) => c.id);
  const venues = [...venueUse.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  if (eventIds.length === 0 || categories.length === 0 || venues.length === 0) throw new Error('the seeded database lists no events, categories or venues');
  return { eventIds, eventPages, pageMonth, categories, venues, common: COMMON_WORDS[0], rare: RARE_WORDS[0] };
}

/** First and last day of the month `offset` months after the current one (UTC), as list parameters. */
function month(offset) {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const day = (d) => d.toISOString().slice(0, 10);
  return `start_date=${day(first)}&end_date=${day(last)}`;
}

/**
 * The mixed scenario's requests: `count` seeded combinations of a category (half of them), a
 * venue (four in ten) and a one-month window (half), each with its page count found beforehand,
 * so that a request's random page (1–50) never runs past the end (page > last is a 404 by spec).
 */
async function mixedCombos(base, found, random, count) {
  const combos = [];
  for (let i = 0; i < count; i++) {
    const params = [];
    if (random.chance(0.5)) params.push(`categories=${random.pick(found.categories.slice(0, 20))}`);
    if (random.chance(0.4)) params.push(`venue=${random.pick(found.venues.slice(0, 50))}`);
    if (random.chance(0.5)) params.push(month(random.int(0, 23)));
    combos.push(params.join('&'));
  }
  const out = [];
  for (const query of combos) {
    const { headers } = await getJson(base, `${API}/events?${query}`);
    out.push({ query, pages: Math.min(50, Math.max(1, Number(headers['x-tec-totalpages']))) });
  }
  return out;
}

/** How many events the events-ics scenario's feed should hold (it takes the nearest query it finds). */
const ICS_EVENTS = 100;

/**
 * The events-ics scenario's query: a category and a window from today, chosen with the JSON
 * list's totals (a feed lists what the list lists for the same parameters) so that the feed
 * holds about ICS_EVENTS events whatever the size of the seed.
 */
async function icsQuery(base, found) {
  const today = new Date();
  const day = (offset) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset)).toISOString().slice(0, 10);
  let best;
  for (const category of found.categories.slice(0, 20)) {
    for (const days of [1, 3, 7, 14, 30, 60, 120, 240, 365]) {
      const query = `categories=${category}&start_date=${day(0)}&end_date=${day(days)}`;
      const { headers } = await getJson(base, `${API}/events?${query}&per_page=1`);
      const total = Number(headers['x-tec-total']);
      if (best === undefined || Math.abs(total - ICS_EVENTS) < Math.abs(best.total - ICS_EVENTS)) best = { query, total };
      if (Math.abs(total - ICS_EVENTS) <= ICS_EVENTS / 10) return best;
      if (total > ICS_EVENTS) break; // longer windows only hold more
    }
  }
  return best;
}

/**
 * A sync token from the middle of the change log, for the change-feed scenarios: the highest seq
 * a token may name is found by bisection (a token past the log's counter is a 400), and half of
 * it is taken — seeded seqs follow item ids, so about half of the log lies after it.
 */
async function middleSyncToken(base) {
  const { encodeSyncToken } = require(path.join(ROOT, 'dist', 'src', 'sync', 'sync-token.js'));
  const accepted = async (seq) => (await request(base, { path: `${API}/changes?per_page=1&since=${encodeSyncToken(seq)}` })).status === 200;
  let [low, high] = [0, 2 ** 40];
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await accepted(mid)) low = mid;
    else high = mid;
  }
  return encodeSyncToken(Math.floor(low / 2));
}

/**
 * Tokens from random points of the log's first half (changes-100-fresh): so many that the
 * pages they start do not fit in the response cache, so most requests are read from the log.
 */
function randomSyncTokens(middle, random) {
  const { decodeSyncToken, encodeSyncToken } = require(path.join(ROOT, 'dist', 'src', 'sync', 'sync-token.js'));
  const top = decodeSyncToken(middle);
  return Array.from({ length: MIXED_REQUESTS }, () => encodeSyncToken(random.int(1, top)));
}

/** How many mixed requests are drawn in advance; wrk walks through them and starts over at the end. */
const MIXED_REQUESTS = 20_000;

/**
 * The scenarios. `path`, `headers` and `body` make the one request whose answer the ceiling
 * replays; a scenario whose requests vary has `lua`: the request() of its wrk script, walking
 * through a list prepared here or numbering its bodies, continued from run to run (warm-up,
 * measurement, ceiling) as the requests of one generator.
 */
function scenarios(found, combos, random) {
  // The k-th created event, the write the bench measures: a new venue given whole (nested) and two
  // categories. wrk fills in k (from 1, counted over all the scenario's runs, so every title and
  // venue name is new) and the categories (ids in turn); k = 0 is the sample the ceiling replays.
  const createBody = (k, first, second, kind = 'event') =>
    JSON.stringify({
      title: `Bench ${kind} ${process.pid}-${k}`,
      start_date: '2027-06-01 18:00:00',
      end_date: '2027-06-01 21:00:00',
      categories: [first, second],
      venue: { venue: `Bench hall ${kind} ${process.pid}-${k}`, city: 'Springfield', country: 'United States' },
      cost: '$10',
    });
  const categories = found.categories.map(String);
  const others = categories.map((_, i) => categories[(i + Math.max(1, Math.floor(categories.length / 2))) % categories.length]);
  /** The write scenario; `kind` goes into the titles, so that two such scenarios never make the same slugs. */
  const createEvent = (name, kind) => ({
    name,
    method: 'POST',
    path: `${API}/events`,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: createBody(0, categories[0], others[0], kind),
    lua: luaNumberedBody(createBody('@K@', '@C@', '@D@', kind).replaceAll('%', '%%').replace('"@C@"', '"%s"').replace('"@D@"', '"%s"'), [categories, others]),
  });
  // Seeded like the rest: a combination, then a page of it, as many times as prepared.
  const mixed = [];
  for (let i = 0; i < MIXED_REQUESTS; i++) {
    const combo = random.pick(combos);
    const page = random.int(1, combo.pages);
    mixed.push(`${API}/events?${combo.query}${combo.query ? '&' : ''}page=${page}`);
  }
  const get = (name, target) => ({ name, method: 'GET', path: `${API}${target}` });
  return [
    get('events', '/events'),
    get('events-per-page-50', '/events?per_page=50'),
    // The same page coded (beyond.md #11): the coded form is kept with the cached answer.
    { ...get('events-per-page-50-br', '/events?per_page=50'), headers: { 'accept-encoding': 'gzip, deflate, br' } },
    { ...get('events-per-page-50-gzip', '/events?per_page=50'), headers: { 'accept-encoding': 'gzip' } },
    // A client revalidating the first page with the tag it holds: 304, no body (beyond.md #3).
    { ...get('events-304', '/events'), revalidate: true },
    get('events-category', `/events?categories=${found.categories[0]}`),
    get('events-search-common', `/events?search=${found.common}`),
    get('events-search-rare', `/events?search=${found.rare}`),
    get('events-venue', `/events?venue=${found.venues[0]}`),
    get('events-month', `/events?${month(1)}`),
    // An iCalendar feed of about ICS_EVENTS events (icsQuery; the bench says how many it found).
    get('events-ics', `/events.ics?${found.ics.query}`),
    {
      name: 'event-by-id',
      method: 'GET',
      path: `${API}/events/${found.eventIds[0]}`,
      lua: luaCyclePaths(found.eventIds.map((id) => `${API}/events/${id}`)),
    },
    // The public pages (pages.md): the month grid of a month with events, and one event's page,
    // cycling through the listed events as event-by-id does.
    { name: 'page-month', method: 'GET', path: `/events/month/${found.pageMonth}/` },
    { name: 'page-event', method: 'GET', path: found.eventPages[0], lua: luaCyclePaths(found.eventPages) },
    get('venues', '/venues'),
    get('organizers', '/organizers'),
    get('categories', '/categories'),
    // The change feed (sync.md): a page of 100 from the middle of the log, bare and with the items.
    get('changes-100', `/changes?per_page=100&since=${found.syncToken}`),
    get('changes-100-embed', `/changes?per_page=100&since=${found.syncToken}&embed=true`),
    // Pages from 20,000 different tokens: mostly not in the response cache (the first reader of a token).
    {
      ...get('changes-100-fresh', `/changes?per_page=100&since=${found.syncTokens[0]}`),
      lua: luaCyclePaths(found.syncTokens.map((token) => `${API}/changes?per_page=100&since=${token}`)),
    },
    // The editing pages (editing.md §6: under 50 ms at the median, warm): the events list as an
    // administrator sees it (tab counts, first page of every status), and one event's form,
    // cycling through the listed events.
    { name: 'manage-events', method: 'GET', path: '/manage/events/', headers: { cookie: found.session } },
    {
      name: 'manage-event-form',
      method: 'GET',
      path: MANAGE_EVENT_FORM(found.eventIds[0]),
      headers: { cookie: found.session },
      lua: luaCyclePaths(found.eventIds.map(MANAGE_EVENT_FORM)),
    },
    {
      name: 'mixed',
      method: 'GET',
      path: `${API}/events?${combos[0].query}`,
      lua: luaCyclePaths(mixed),
    },
    // Last: they grow the data the others read.
    createEvent('create-event', 'event'),
    // The same writes with a webhook subscription to every change: each write
    // also queues a delivery in its transaction, and the worker sends it to a local receiver.
    {
      ...createEvent('create-event-subscribed', 'subscribed'),
      queuesDeliveries: true,
      before: (base) => subscribeAll(base, AUTH),
      after: (base, state) => unsubscribe(base, AUTH, state),
    },
    // A list read while a source's run writes (sources.md §4: reads keep being answered): the
    // run of an iCalendar feed of SOURCE_RUN_EVENTS events, served here, starts before the
    // measurement and is waited for after it; its p99 is the figure (under 100 ms is the aim).
    {
      ...get('reads-during-source-run', '/events?per_page=10'),
      before: (base) => startSourceRun(base, AUTH),
      after: (base, state) => endSourceRun(base, AUTH, state),
    },
  ];
}

/** Events of the feed reads-during-source-run imports: more than a measurement lasts to write. */
const SOURCE_RUN_EVENTS = 10_000;

/** A feed of SOURCE_RUN_EVENTS events on loopback, an `ics` source of it, and its run started. */
async function startSourceRun(base, auth) {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//bench//source run//EN'];
  for (let i = 0; i < SOURCE_RUN_EVENTS; i++) {
    const day = new Date(Date.UTC(2028, 0, 1) + i * 3_600_000).toISOString().replace(/[-:]/g, '').slice(0, 15);
    lines.push('BEGIN:VEVENT', `UID:bench-${process.pid}-${i}@bench`, 'DTSTAMP:20260101T000000Z', `DTSTART:${day}Z`, `SUMMARY:Bench feed ${i}`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  const text = `${lines.join('\r\n')}\r\n`;
  const feed = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(text));
  await new Promise((resolve) => feed.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${feed.address().port}/bench.ics`;
  const headers = { authorization: auth, 'content-type': 'application/json' };
  const created = await request(base, { method: 'POST', path: `${API}/sources`, headers, body: JSON.stringify({ kind: 'ics', url, interval_minutes: 0 }) });
  if (created.status !== 201) throw new Error(`reads-during-source-run: POST /sources answered ${created.status} ${created.body.toString()}`);
  const id = JSON.parse(created.body.toString()).id;
  const started = await request(base, { method: 'POST', path: `${API}/sources/${id}/run`, headers });
  if (started.status !== 202) throw new Error(`reads-during-source-run: the run did not start (${started.status} ${started.body.toString()})`);
  return { feed, id, startedAt: Date.now() };
}

/** Waits for the run to end (it is said whether it outlasted the measurement), then removes the feed. */
async function endSourceRun(base, auth, state) {
  const until = Date.now() + 600_000;
  let run = null;
  while (Date.now() < until) {
    run = (await getJson(base, `${API}/sources/${state.id}`, { authorization: auth })).json.last_run;
    if (run && !['queued', 'running'].includes(run.status)) break;
    await sleep(500);
  }
  note(
    `  the source's run: ${run ? `${run.status}, ${run.created} created` : 'none'}, ended ${((Date.now() - state.startedAt) / 1000).toFixed(1)} s after it started`,
  );
  await new Promise((resolve) => state.feed.close(resolve));
}

// ---------------------------------------------------------------- measuring

/** Milliseconds (three decimals: wrk measures in microseconds). */
const ms = (us) => round(us / 1000, 3);

/**
 * One wrk run of a scenario against `base` (the server or the ceiling, whose pid is sampled for
 * its CPU use). The scenario's script is written on first use into the bench's temporary folder;
 * each run continues the request sequence where the scenario's previous run stopped.
 */
async function load(gen, base, pid, scenario, seconds, connections) {
  scenario.script ??= writeScript(path.join(gen.dir, `${scenario.name}.lua`), scenario);
  const r = await runWrk({
    bin: gen.bin,
    url: `${base}${scenario.path}`,
    script: scenario.script,
    seconds,
    connections,
    offset: scenario.generated ?? 0,
    targetPid: pid,
    track,
  });
  scenario.generated = (scenario.generated ?? 0) + r.generated;
  const e = r.errors;
  return {
    rps: r.durationUs > 0 ? round(r.requests / (r.durationUs / 1e6), 1) : 0,
    p50: ms(r.latencyUs.p50),
    p99: ms(r.latencyUs.p99),
    p90: ms(r.latencyUs.p90),
    max: ms(r.latencyUs.max),
    requests: r.requests,
    seconds: round(r.durationUs / 1e6, 2),
    // Socket errors: connect, read and write errors and timeouts (no answer within 30 s).
    errors: e.connect + e.read + e.write + e.timeout,
    socketErrors: { connect: e.connect, read: e.read, write: e.write, timeout: e.timeout },
    // Answers with a status of 400 or more (wrk counts status > 399 as errors).
    httpErrors: e.status,
    loadGeneratorCpu: r.cpu.generator === null ? null : round(r.cpu.generator, 2),
    targetCpu: r.cpu.target === null ? null : round(r.cpu.target, 2),
    // Of that, the server's main thread (JavaScript): its CPU per request is the steadiest measure
    // of what a request costs when the machine's speed drifts between runs.
    mainThreadCpu: r.cpu.targetMainThread === null ? null : round(r.cpu.targetMainThread, 2),
    mainThreadUsPerRequest: r.cpu.targetMainThread === null || r.requests === 0 ? null : round((r.cpu.targetMainThread * r.durationUs) / r.requests, 0),
    // Cores that other processes (not wrk, not the measured server) kept busy during the run.
    otherCpu: r.cpu.others === null ? null : round(r.cpu.others, 2),
  };
}

async function measure(gen, server, ceiling, scenario, opts, db) {
  const sample = await sampleOf(server, scenario);
  const part = await measureReal(gen, server, scenario, opts, db, opts.seconds, opts.warmup);
  return withRatio({ ...part, ...(await measureCeiling(gen, ceiling, scenario, opts, sample)) });
}

/** The service's req/s against the ceiling's. */
function withRatio(row) {
  return { ...row, ratio: row.ceiling.rps > 0 ? round(row.real.rps / row.ceiling.rps, 3) : 0 };
}

/** The one representative response the ceiling replays (for multi-request scenarios, the first). */
async function sampleOf(server, scenario) {
  if (scenario.revalidate && !scenario.headers?.['if-none-match']) {
    // The tag a client would hold: from one plain GET, then sent back in If-None-Match.
    const first = await request(server.base, { path: scenario.path });
    scenario.headers = { ...scenario.headers, 'if-none-match': String(first.headers.etag) };
  }
  const sample = await request(server.base, { method: scenario.method, path: scenario.path, headers: scenario.headers, body: scenario.body });
  if (sample.status >= 300) note(`  warning: ${scenario.method} ${scenario.path} answered ${sample.status}: ${sample.body.toString().slice(0, 200)}`);
  return sample;
}

/** One measurement of the server under a scenario's load, `seconds` long after `warmup` unmeasured ones. */
async function measureReal(gen, server, scenario, opts, db, seconds, warmup) {
  const run = (s) => load(gen, server.base, server.child.pid, scenario, s, opts.connections);
  if (warmup > 0) await run(warmup);
  const real = await peakRss(server.child.pid, () => run(seconds));
  // Writes that queue webhook deliveries: how long the outbox takes to empty once the load ends.
  // A lag that grows with the run means delivery does not keep up with this write rate.
  const lag = scenario.queuesDeliveries ? await outboxLag(db) : undefined;
  if (lag) note(`  deliveries: the outbox emptied ${lag.seconds.toFixed(1)} s after the load ended (${lag.pending} pending at its end)`);
  // Requests still in flight when the time is up are not counted anywhere: a server that hangs
  // would show as merely slow. It must still answer a request that no cache can serve.
  const alive = await request(server.base, { path: `${API}/events?search=alive${Date.now()}`, timeout: 10_000 }).then(
    (res) => res.status === 200,
    () => false,
  );
  return {
    name: scenario.name,
    real: { ...real.result, peakRssMb: round(real.peakRssMb, 1), stalled: !alive, ...(lag ? { outboxLagSeconds: round(lag.seconds, 1) } : {}) },
  };
}

/** The bare node:http server replaying the scenario's sample, and the service's ratio to it. */
async function measureCeiling(gen, ceiling, scenario, opts, sample) {
  await ceiling.serve(sample);
  const run = (s) => load(gen, ceiling.base, ceiling.child.pid, scenario, s, opts.connections);
  if (opts.warmup > 0) await run(opts.warmup);
  const top = await run(opts.seconds);
  return {
    request: `${scenario.method} ${scenario.path.replace(API, '')}${scenario.lua ? ' …' : ''}`,
    status: sample.status,
    bytes: sample.body.length,
    ceiling: top,
  };
}

/**
 * --slices K: every scenario of `list` measured K times, seconds/K each, in turns (the first
 * slice of each, then the second of each, …; a scenario's warm-up in its first slice only, its
 * before/after around each slice), then each scenario's slices as one measurement (mergeSlices).
 */
async function measureSliced(gen, server, ceiling, list, opts, db) {
  const seconds = Math.max(1, Math.round(opts.seconds / opts.slices));
  const parts = new Map(list.map((scenario) => [scenario, []]));
  for (let k = 0; k < opts.slices; k++) {
    for (const scenario of list) {
      note(`→ ${scenario.name}, slice ${k + 1} of ${opts.slices}: ${scenario.method} ${scenario.path.replace(API, '')}`);
      const state = scenario.before ? await scenario.before(server.base) : undefined;
      parts.get(scenario).push(await measureReal(gen, server, scenario, opts, db, seconds, k === 0 ? opts.warmup : 0));
      if (scenario.after) await scenario.after(server.base, state);
    }
  }
  const rows = [];
  for (const scenario of list) {
    const sample = await sampleOf(server, scenario);
    const real = mergeSlices(parts.get(scenario).map((p) => p.real));
    rows.push(withRatio({ name: scenario.name, real, ...(await measureCeiling(gen, ceiling, scenario, opts, sample)) }));
  }
  return rows;
}

/**
 * One scenario's slices as one measurement: counts and seconds added up, rates and CPU shares
 * over the total time, the peaks and maxima the highest slice's. Latency percentiles cannot be
 * merged exactly from percentiles: they are the slices' weighted by their requests.
 */
function mergeSlices(slices) {
  const requests = slices.reduce((n, s) => n + s.requests, 0);
  const seconds = slices.reduce((n, s) => n + s.seconds, 0);
  const byRequests = (key) => (requests > 0 ? round(slices.reduce((n, s) => n + s[key] * s.requests, 0) / requests, 3) : 0);
  const overTime = (key, digits = 2) =>
    slices.some((s) => s[key] === null) ? null : round(slices.reduce((n, s) => n + s[key] * s.seconds, 0) / seconds, digits);
  const sum = (key) => slices.reduce((n, s) => n + s[key], 0);
  const mainCpu = overTime('mainThreadCpu', 4);
  return {
    rps: seconds > 0 ? round(requests / seconds, 1) : 0,
    p50: byRequests('p50'),
    p99: byRequests('p99'),
    p90: byRequests('p90'),
    max: Math.max(...slices.map((s) => s.max)),
    requests,
    seconds: round(seconds, 2),
    errors: sum('errors'),
    socketErrors: Object.fromEntries(Object.keys(slices[0].socketErrors).map((k) => [k, slices.reduce((n, s) => n + s.socketErrors[k], 0)])),
    httpErrors: sum('httpErrors'),
    loadGeneratorCpu: overTime('loadGeneratorCpu'),
    targetCpu: overTime('targetCpu'),
    mainThreadCpu: mainCpu === null ? null : round(mainCpu, 2),
    mainThreadUsPerRequest: mainCpu === null || requests === 0 ? null : round((mainCpu * seconds * 1e6) / requests, 0),
    otherCpu: overTime('otherCpu'),
    peakRssMb: Math.max(...slices.map((s) => s.peakRssMb)),
    stalled: slices.some((s) => s.stalled),
    ...(slices[0].outboxLagSeconds !== undefined ? { outboxLagSeconds: Math.max(...slices.map((s) => s.outboxLagSeconds)) } : {}),
    slices: slices.map((s) => ({ rps: s.rps, mainThreadUsPerRequest: s.mainThreadUsPerRequest, peakRssMb: s.peakRssMb })),
  };
}

const round = (x, digits) => Number(x.toFixed(digits));

// ---------------------------------------------------------------- report

const msText = (x) => x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0);
const percent = (x) => (x === null ? '?' : `${(x * 100).toFixed(0)}%`);

function table(rows) {
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'err',
    '4xx/5xx',
    'peak RSS MB',
    'ceiling req/s',
    'c p50',
    'c p99',
    'c err',
    'wrk CPU',
    'real/ceiling',
  ];
  const lines = rows.map((r) => [
    r.name,
    r.real.rps.toFixed(0),
    msText(r.real.p50),
    msText(r.real.p99),
    String(r.real.errors),
    String(r.real.httpErrors),
    r.real.peakRssMb.toFixed(0),
    r.ceiling.rps.toFixed(0),
    msText(r.ceiling.p50),
    msText(r.ceiling.p99),
    String(r.ceiling.errors + r.ceiling.httpErrors),
    percent(r.ceiling.loadGeneratorCpu),
    `${(r.ratio * 100).toFixed(1)}%`,
  ]);
  return recurrence.textTable(header, lines);
}

/** Lines that must not go unnoticed: errors on either side, a saturated load generator, stalls. */
function warnings(rows) {
  const out = [];
  const errorText = (side) => {
    const parts = Object.entries(side.socketErrors)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n} ${kind}`);
    if (side.httpErrors > 0) parts.push(`${side.httpErrors} answers with status >= 400`);
    return parts.join(', ');
  };
  for (const r of rows) {
    if (r.real.stalled) out.push(`STALLED: after ${r.name} the server no longer answered (its requests never completed).`);
    if (r.real.errors + r.real.httpErrors > 0) out.push(`ERRORS in ${r.name} (server): ${errorText(r.real)} of ${r.real.requests} answers.`);
    if (r.ceiling.errors + r.ceiling.httpErrors > 0) out.push(`ERRORS in ${r.name} (ceiling): ${errorText(r.ceiling)} of ${r.ceiling.requests} answers.`);
    if (r.real.requests === 0) out.push(`NO ANSWERS in ${r.name}: the server completed no request during the measurement.`);
    if ((r.ceiling.loadGeneratorCpu ?? 0) >= 0.9) {
      out.push(
        `LOAD GENERATOR BUSY in ${r.name}: wrk used ${percent(r.ceiling.loadGeneratorCpu)} of a core against the ceiling ` +
          `(the ceiling server ${percent(r.ceiling.targetCpu)}); the ceiling may be wrk's limit rather than the machine's.`,
      );
    }
  }
  const busiest = rows
    .flatMap((r) => [
      { name: `${r.name} (server)`, cores: r.real.otherCpu ?? 0 },
      { name: `${r.name} (ceiling)`, cores: r.ceiling.otherCpu ?? 0 },
    ])
    .sort((a, b) => b.cores - a.cores)[0];
  if (busiest && busiest.cores >= 0.25) {
    out.push(
      `OTHER LOAD: processes outside the bench kept up to ${busiest.cores.toFixed(2)} of ${os.cpus().length} cores busy ` +
        `(during ${busiest.name}); req/s and ceilings are lower than on a quiet machine.`,
    );
  }
  return out.map((line) => `${line}\n`).join('');
}

function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  };
}

// ---------------------------------------------------------------- recurrence (--series)

/** A scenario's measurement between its before and after steps (a webhook subscription). */
async function measureAround(server, scenario, work) {
  const state = scenario.before ? await scenario.before(server.base) : undefined;
  const result = await work();
  if (scenario.after) await scenario.after(server.base, state);
  return result;
}

/**
 * --compare: a scenario on the series server and on the singles server, in four halves of the
 * measured time, series–singles–singles–series, so that a machine whose speed drifts (other
 * processes come and go) weighs on both alike; each side's halves are merged as --slices merges
 * them. The series side is compared with the ceiling as usual; the pair goes into `pairs`.
 */
async function measurePair(gen, series, singles, ceiling, opts, pairs) {
  const half = Math.max(1, Math.round(opts.seconds / 2));
  const run = (side, warmup) => measureAround(side.server, side.scenario, () => measureReal(gen, side.server, side.scenario, opts, side.db, half, warmup));
  const sample = await sampleOf(series.server, series.scenario);
  const [a1, b1, b2, a2] = [await run(series, opts.warmup), await run(singles, opts.warmup), await run(singles, 0), await run(series, 0)];
  const real = mergeSlices([a1.real, a2.real]);
  const twin = mergeSlices([b1.real, b2.real]);
  if (twin.stalled) note(`  the singles server stopped answering during ${series.scenario.name}`);
  pairs.push({ name: series.scenario.name, series: real, singles: twin });
  return withRatio({ name: series.scenario.name, real, ...(await measureCeiling(gen, ceiling, series.scenario, opts, sample)) });
}

/** What the scenarios ask for on a server: ids, words, the feed's query, sync tokens. */
async function findTargets(base, opts, Random) {
  const found = await discover(base);
  found.ics = await icsQuery(base, found);
  note(`events-ics: ${found.ics.total} events (${found.ics.query})`);
  found.syncToken = await middleSyncToken(base);
  found.syncTokens = randomSyncTokens(found.syncToken, new Random(opts.seed + 1)); // its own stream: the other scenarios draw as before
  found.session = await manageSession(base);
  return found;
}

/**
 * The editing pages' event form, by event id: a variable, as the form is its own page
 * (editing.md §2 `/manage/events/{id}/`); manage-event-form cycles through the listed events.
 */
const MANAGE_EVENT_FORM = (id) => `/manage/events/${id}/`;

/** The bench administrator's session cookie for the editing pages, from their sign-in form (editing.md §1). */
async function manageSession(base) {
  const res = await request(base, {
    method: 'POST',
    path: '/manage/login',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login: ADMIN.login, password: ADMIN.password }).toString(),
  });
  const cookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('calendar_session='));
  if (res.status !== 303 || !cookie) throw new Error(`signing in to the editing pages answered ${res.status}: ${res.body.toString().slice(0, 200)}`);
  return cookie.split(';')[0];
}

/**
 * --series N: N weekly series made through the API on the measured server (timed); with
 * --compare, a second database seeded the same way and a server on it with the module off,
 * given the same occurrences as single events.
 */
async function addSeries(server, opts, dir, Random, Progress) {
  const bodies = recurrence.seriesBodies(opts.series, await discover(server.base), new Random(opts.seed + 2), 'series');
  let started = Date.now();
  const made = await recurrence.createSeries(request, server.base, AUTH, bodies, Progress);
  const setup = { ids: made.ids, latency: recurrence.latencySummary(made.latencies), seconds: (Date.now() - started) / 1000 };
  note(
    `  ${bodies.length} series in ${setup.seconds.toFixed(1)} s; per series p50 ${setup.latency.p50} ms, p99 ${setup.latency.p99} ms, max ${setup.latency.max} ms`,
  );
  if (!opts.compare) return setup;
  const db = await prepareDatabase(opts, dir, '_singles');
  note('Seeding the comparison database the same way…');
  await seed(db, opts);
  const twinServer = await startServer(db, undefined);
  started = Date.now();
  const count = await recurrence.createSingles(request, twinServer.base, AUTH, bodies, opts.connections, Progress);
  return { ...setup, singles: { db, server: twinServer, count, seconds: (Date.now() - started) / 1000 } };
}

/** The recurrence part of the report: how the series were made, the comparison, the series writes. */
function recurrenceReport(setup, pairs, sequentialRows) {
  if (!setup) return '';
  const occurrences = setup.ids.length * recurrence.WEEKS;
  let out =
    `\nRecurrence (CALENDAR_RECURRENCE=on): ${setup.ids.length.toLocaleString('en-US')} weekly series, ${occurrences.toLocaleString('en-US')} occurrences, ` +
    `made through the API one at a time in ${setup.seconds.toFixed(1)} s (per series p50 ${setup.latency.p50} ms, p99 ${setup.latency.p99} ms, max ${setup.latency.max} ms).\n`;
  if (setup.singles) {
    out +=
      `Comparison: a second database seeded the same way, with the same ${setup.singles.count.toLocaleString('en-US')} occurrences as single events ` +
      `(made through the API in ${setup.singles.seconds.toFixed(1)} s) and the module off; each scenario measured on both in turns ` +
      `(series, singles, singles, series; half the seconds each).\n\n` +
      `${recurrence.comparisonTable(pairs)}\n`;
  }
  if (sequentialRows.length > 0) {
    out +=
      `\nSeries writes, sent one at a time by the bench itself (not wrk: requests of up to a second under 16 connections would measure the queue); ` +
      `latencies in ms, p99 by nearest rank (with fewer than 100 samples it is the largest):\n\n${recurrence.sequentialTable(sequentialRows)}\n`;
    for (const r of sequentialRows.filter((x) => x.errors > 0))
      out += `ERRORS in ${r.name}: ${r.errors} of ${r.samples} answers had another status; the first: ${r.firstError}\n`;
  }
  return out;
}

// ---------------------------------------------------------------- main

async function main() {
  const opts = readOptions();
  const started = Date.now();
  const wrkBin = ensureWrk(note);
  const loadGenerator = { ...wrkVersion(wrkBin), threads: 1, connections: opts.connections };
  note(`Load generator: wrk ${loadGenerator.version} (${wrkBin}), 1 thread, ${opts.connections} connections`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-bench-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  note('Building when needed…');
  build();
  const { Random } = require(path.join(ROOT, 'dist', 'src', 'seed', 'prng.js'));
  const { Progress } = require(path.join(ROOT, 'dist', 'src', 'seed', 'progress.js'));
  const db = await prepareDatabase(opts, dir);
  note(`Seeding ${opts.events.toLocaleString('en-US')} events into ${db.kind === 'sqlite' ? db.url : `${db.version} (${new URL(db.url).pathname.slice(1)})`}…`);
  const seeded = await seed(db, opts);
  note('Starting the server…');
  if (opts.profile) fs.mkdirSync(opts.profile, { recursive: true });
  const recurrenceEnv = opts.series > 0 ? { CALENDAR_RECURRENCE: 'on' } : {};
  const server = await startServer(db, opts.profile, { ...recurrenceEnv, ...(opts.webhookRelay ? { CALENDAR_WEBHOOK_WORKER: 'off' } : {}) });
  if (opts.webhookRelay) {
    note('Starting the webhook relay (a second server on the same database, sending the deliveries)…');
    await startServer(db, undefined, { ...recurrenceEnv, CALENDAR_WEBHOOK_WORKER: 'on' });
  }
  const setup = opts.series > 0 ? await addSeries(server, opts, dir, Random, Progress) : undefined;
  const twin = setup?.singles;
  const ceiling = await startCeiling();
  const found = await findTargets(server.base, opts, Random);
  const random = new Random(opts.seed);
  const combos = await mixedCombos(server.base, found, random, opts.mixedCombos);
  // The comparison run draws the same mixed requests: a copy of the generator as it is now.
  const twinRandom = Object.assign(Object.create(Object.getPrototypeOf(random)), random);
  let list = scenarios(found, combos, random);
  let twins = twin ? scenarios(await findTargets(twin.server.base, opts, Random), combos, twinRandom) : [];
  let sequential = setup ? recurrence.seriesWriteScenarios(found, setup.ids, new Random(opts.seed + 3), AUTH) : [];
  if (opts.scenarios) {
    const known = [...list, ...sequential].map((x) => x.name);
    const unknown = opts.scenarios.filter((s) => !known.includes(s));
    const hint = opts.series > 0 ? '' : ' (create-series and edit-series-all need --series N)';
    if (unknown.length > 0) throw new Error(`Unknown scenario(s): ${unknown.join(', ')}${hint}. Known: ${known.join(', ')}`);
    [list, twins, sequential] = [list, twins, sequential].map((l) => l.filter((s) => opts.scenarios.includes(s.name)));
  }

  const gen = { bin: wrkBin, dir };
  const rows = opts.slices > 1 ? await measureSliced(gen, server, ceiling, list, opts, db) : [];
  const pairs = [];
  for (const scenario of opts.slices > 1 ? [] : list) {
    note(`→ ${scenario.name}: ${scenario.method} ${scenario.path.replace(API, '')}`);
    const row = twin
      ? await measurePair(gen, { server, scenario, db }, { ...twin, scenario: twins.find((t) => t.name === scenario.name) }, ceiling, opts, pairs)
      : await measureAround(server, scenario, () => measure(gen, server, ceiling, scenario, opts, db));
    rows.push(row);
    if (row.real.stalled) {
      note(`  the server stopped answering during ${scenario.name}; the remaining scenarios are skipped`);
      break;
    }
  }
  const sequentialRows = [];
  for (const scenario of rows.some((r) => r.real.stalled) ? [] : sequential) {
    note(`→ ${scenario.name}: ${opts.samples} requests, one at a time`);
    sequentialRows.push(await recurrence.measureSequential(request, server.base, scenario, opts.samples));
  }

  const info = machine();
  const top = rows.reduce((best, r) => (best && best.ceiling.rps >= r.ceiling.rps ? best : r), undefined);
  const ceilingReached = top
    ? { rps: top.ceiling.rps, scenario: top.name, bytes: top.bytes, loadGeneratorCpu: top.ceiling.loadGeneratorCpu, ceilingServerCpu: top.ceiling.targetCpu }
    : null;
  process.stdout.write(
    `\n${info.cpus} × ${info.cpuModel}, ${info.memoryGb} GB, Node ${info.node}; ${db.version}; ` +
      `${opts.events.toLocaleString('en-US')} events (seeded in ${seeded.seconds.toFixed(1)} s); ` +
      `${opts.series > 0 ? `${opts.series.toLocaleString('en-US')} weekly series (--series); ` : ''}` +
      `wrk ${loadGenerator.version}, 1 thread, ${opts.connections} connections, ${opts.seconds} s per measurement${opts.webhookRelay ? '; webhook deliveries sent by a second server (--webhook-relay)' : ''}\n\n${table(rows)}\n\n` +
      warnings(rows) +
      (ceilingReached
        ? `Highest ceiling reached: ${ceilingReached.rps.toFixed(0)} req/s (${ceilingReached.scenario}, ${ceilingReached.bytes.toLocaleString('en-US')}-byte body; ` +
          `wrk ${percent(ceilingReached.loadGeneratorCpu)} of a core, the ceiling server ${percent(ceilingReached.ceilingServerCpu)}).\n`
        : '') +
      recurrenceReport(setup, pairs, sequentialRows) +
      `err: socket errors (connect, read, write) and timeouts (30 s); 4xx/5xx: answers with status >= 400; ` +
      `c p50/p99/err: the ceiling's latencies (ms) and errors of both kinds; wrk CPU: the share of a core wrk used against the ceiling; ` +
      `real/ceiling: the service's req/s against a bare node:http server replaying the same response.\n`,
  );
  if (opts.json) {
    const report = {
      date: new Date().toISOString(),
      machine: info,
      database: { kind: db.kind, version: db.version },
      events: opts.events,
      seedSeconds: round(seeded.seconds, 1),
      loadGenerator,
      ceilingReached,
      connections: opts.connections,
      seconds: opts.seconds,
      slices: opts.slices,
      warmup: opts.warmup,
      seed: opts.seed,
      totalSeconds: round((Date.now() - started) / 1000, 1),
      scenarios: rows,
      ...(setup
        ? {
            recurrence: {
              series: setup.ids.length,
              occurrences: setup.ids.length * recurrence.WEEKS,
              setupSeconds: round(setup.seconds, 1),
              perSeries: setup.latency,
              ...(setup.singles ? { singles: { events: setup.singles.count, setupSeconds: round(setup.singles.seconds, 1) }, comparison: pairs } : {}),
              sequential: sequentialRows,
            },
          }
        : {}),
    };
    fs.writeFileSync(opts.json, `${JSON.stringify(report, null, 2)}\n`);
    note(`Wrote ${opts.json}`);
  }
  if (server.child.exitCode !== null) throw new Error(`the server stopped during the run:\n${server.log()}`);
}

main().then(
  () => cleanup().then(() => process.exit(0)),
  (err) => {
    note(err instanceof Error ? (err.stack ?? err.message) : String(err));
    cleanup().finally(() => process.exit(1));
  },
);
