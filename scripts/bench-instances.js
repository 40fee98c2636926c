#!/usr/bin/env node
// `npm run bench:instances`: how soon a write through one instance shows in a list read through
// another on the same database. Starts two production servers on one
// fresh database, then, again and again, creates an event through A and reads B's list of that
// event's day until it holds it; the time from A's 201 to B's first list with the event is the
// visibility latency. Measured with REDIS_URL (writes pushed) and without (B polls the change log).
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.join(__dirname, '..');
const API = '/calendar/events/v1';
const ADMIN = { login: 'bench-admin', password: crypto.randomBytes(12).toString('hex') };
const USAGE = `Usage: npm run bench:instances -- [--writes N] [--redis URL] [--db mysql://…/NAME]

  --writes N   writes measured per mode (default 200)
  --redis URL  the Redis of the pushed mode (default redis://127.0.0.1:6379)
  --db URL     mysql://user:pass@host:port/NAME: a database NAME to create there and drop at the
               end; default: a SQLite file in a temporary folder
`;

const children = [];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function request(base, { method = 'GET', path: target, headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(new URL(target, base), { method, headers: { ...headers, ...(data ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(databaseUrl, extraEnv) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
  Object.assign(env, { CALENDAR_ADMIN_LOGIN: ADMIN.login, CALENDAR_ADMIN_PASSWORD: ADMIN.password, NODE_ENV: 'production' }, extraEnv);
  if (extraEnv.REDIS_URL === undefined) delete env.REDIS_URL;
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`a server exited (${child.exitCode}) before answering`);
    if ((await request(base, { path: '/readyz' }).catch(() => null))?.status === 200) return { base, child };
  }
  throw new Error('a server did not become ready within 60 s');
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** `writes` times: create an event through A, read B's list of its day until it is there. */
async function measure(a, b, writes) {
  const authorization = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;
  const latencies = [];
  for (let i = 0; i < writes; i++) {
    const day = new Date(Date.UTC(2031, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const list = `${API}/events?start_date=${day}&end_date=${day}%2023:59:59`;
    const title = `visible-${crypto.randomBytes(4).toString('hex')}`;
    await request(b.base, { path: list }); // B's caches now hold the day without the event
    const body = { title, status: 'publish', start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00` };
    const made = await request(a.base, { method: 'POST', path: `${API}/events`, headers: { authorization }, body });
    if (made.status !== 201) throw new Error(`creating an event answered ${made.status}: ${made.text}`);
    const written = process.hrtime.bigint();
    for (;;) {
      if ((await request(b.base, { path: list })).text.includes(title)) break;
      if (process.hrtime.bigint() - written > 10_000_000_000n) throw new Error('B did not show the write within 10 s');
    }
    latencies.push(Number(process.hrtime.bigint() - written) / 1e6);
  }
  latencies.sort((x, y) => x - y);
  return { median: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), max: latencies[latencies.length - 1] };
}

async function freshDatabase(db, dir, label) {
  if (!db) return { url: `sqlite:${path.join(dir, `${label}.sqlite`)}`, drop: async () => undefined };
  const mysql = require('mysql2/promise');
  const url = new URL(db.replace(/^mariadb:/, 'mysql:'));
  const name = `${url.pathname.slice(1)}_${label}`;
  url.pathname = '/';
  const conn = await mysql.createConnection({ uri: url.toString() });
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    url: dbUrl.toString(),
    async drop() {
      const c = await mysql.createConnection({ uri: url.toString() });
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}

async function main() {
  const { values } = parseArgs({ options: { writes: { type: 'string' }, redis: { type: 'string' }, db: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) return void process.stdout.write(USAGE);
  const writes = Number(values.writes ?? 200);
  const redis = values.redis ?? 'redis://127.0.0.1:6379';
  // scripts/start.js compiles when the sources are newer than dist/; `help` then exits at once.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'start.js'), '--cli', 'help'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calendar-bench-instances-'));
  try {
    for (const [mode, env] of [
      ['pushed (REDIS_URL)', { REDIS_URL: redis, CALENDAR_REDIS_PREFIX: `bench-${crypto.randomBytes(3).toString('hex')}:` }],
      ['polled (no Redis)', {}],
    ]) {
      const db = await freshDatabase(values.db, dir, mode.startsWith('pushed') ? 'pushed' : 'polled');
      try {
        const a = await startServer(db.url, env);
        const b = await startServer(db.url, env);
        const r = await measure(a, b, writes);
        process.stdout.write(`${mode.padEnd(20)} ${writes} writes: median ${r.median.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms\n`);
        for (const s of [a, b]) s.child.kill('SIGTERM');
        await Promise.all([a, b].map((s) => new Promise((resolve) => (s.child.exitCode !== null ? resolve() : s.child.once('exit', resolve)))));
      } finally {
        await db.drop();
      }
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exit(1);
});
