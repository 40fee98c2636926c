// sync.md "Webhooks", at least once: the service is killed (SIGKILL) while a delivery is in
// flight; started again on the same database, it sends the delivery again, with the same id,
// once the dead instance's lease has run out. The service runs as a child process (dist).
// With the default lease, another instance takes over a killed one's
// deliveries, and the later deliveries of the same items, within seconds, not after a minute.
import { ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { API } from '../../support/http';
import { Received, signatureValid, WebhookReceiver } from '../../support/webhook-receiver';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');
const AUTH = `Basic ${Buffer.from('root:root-password-1').toString('base64')}`;

describe('webhooks survive a kill -9 mid-delivery', () => {
  let receiver: WebhookReceiver;
  let databaseUrl: string;
  let dropDatabase: (() => Promise<void>) | null = null;
  const children: ChildProcessWithoutNullStreams[] = [];

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    // Builds dist when the sources changed (what `npm start` does), without starting anything.
    await run(process.execPath, [join(ROOT, 'scripts', 'start.js'), '--cli', 'migration:show'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'hooks-build-')), 'x.sqlite')}` },
    }).catch(() => null);
    const server = process.env.TEST_DATABASE_URL;
    if (server) {
      const url = new URL(server.replace(/^mariadb:/, 'mysql:'));
      const name = `calendar_hooks_crash_${process.pid}`;
      url.pathname = '';
      const conn = await createConnection(url.toString());
      await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await conn.end();
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropDatabase = async () => {
        const c = await createConnection(server);
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
      };
    } else {
      databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'hooks-crash-')), 'crash.sqlite')}`;
    }
  }, 300_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await receiver.stop();
    await dropDatabase?.();
  });

  /** Starts the built service on the test's database; `env` adds settings (by default a one-second lease). */
  async function start(
    env: Record<string, string> = { CALENDAR_WEBHOOK_LEASE_SECONDS: '1' },
  ): Promise<{ child: ChildProcessWithoutNullStreams; base: string }> {
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        CALENDAR_ADMIN_LOGIN: 'root',
        CALENDAR_ADMIN_PASSWORD: 'root-password-1',
        CALENDAR_WEBHOOK_ALLOW_PRIVATE: 'on',
        LOG_LEVEL: 'info',
        ...env,
      },
    });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    for (let i = 0; !out.includes('calendar-events is listening'); i++) {
      if (i > 300 || child.exitCode !== null) throw new Error(`the service did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { child, base: `http://127.0.0.1:${port}${API}` };
  }

  it('delivers the same delivery after a restart', async () => {
    const target = await receiver.start();
    receiver.answer = (_r, nth) => (nth === 1 ? 'hang' : 200);
    const first = await start();
    const post = (path: string, body: unknown) =>
      fetch(`${first.base}${path}`, { method: 'POST', headers: { Authorization: AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const hook = (await (await post('/webhooks', { url: target, events: ['category.created'] })).json()) as { id: number; secret: string };
    expect((await post('/categories', { name: 'Survives' })).status).toBe(201);
    const [inFlight] = await receiver.until((all) => all.length >= 1);

    const exited = new Promise((resolve) => first.child.on('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    await start();

    const got = await receiver.until((all) => all.length >= 2, 30_000);
    expect(got[1].body.id).toBe(inFlight.body.id);
    expect(got[1].body.event).toBe('category.created');
    expect(signatureValid(hook.secret, got[1])).toBe(true);
  }, 120_000);

  it('with the default lease, a second instance sends the killed one’s deliveries and the later ones of the same items', async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    const hooks = new WebhookReceiver();
    let hold = true;
    hooks.answer = () => (hold ? 'hang' : 200);
    try {
      const target = await hooks.start();
      // The default lease. Retries come quickly: on a loaded machine the killed instance's sends
      // may reach sync.md's 10 s timeout before the kill, and then wait for a retry instead of a
      // takeover; with the default 30 s schedule that wait alone would fill this test's bound.
      const quickRetries = { CALENDAR_WEBHOOK_RETRY_BASE_SECONDS: '0.2' };
      const first = await start(quickRetries);
      const send = (method: string, path: string, body: unknown) =>
        fetch(`${first.base}${path}`, { method, headers: { Authorization: AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect((await send('POST', '/webhooks', { url: target, events: ['category.*'] })).status).toBe(201);
      const ids: number[] = [];
      for (const name of ['Taken over 1', 'Taken over 2', 'Taken over 3'])
        ids.push(((await (await send('POST', '/categories', { name })).json()) as { id: number }).id);
      // The first instance is sending the three (the receiver does not answer); each item's update waits behind it.
      const inFlight = await hooks.until((all) => all.length >= 3);
      for (const id of ids) expect((await send('POST', `/categories/${id}`, { description: 'changed' })).status).toBe(200);

      const exited = new Promise((resolve) => first.child.on('exit', resolve));
      first.child.kill('SIGKILL');
      await exited;
      hold = false;
      await start(quickRetries);

      // Bounded well below the old 60 s lease: with it, nothing would arrive in this wait.
      const forItems = (all: Received[]) => ids.every((id) => all.filter((r) => r.body.data.id === id && r.body.event === 'category.updated').length >= 1);
      const got = await hooks.until(forItems, 30_000);
      const after = got.slice(3);
      for (const sent of inFlight.slice(0, 3)) expect(after.filter((r) => r.body.id === sent.body.id)).toHaveLength(1);
      for (const id of ids) expect(after.filter((r) => r.body.data.id === id).map((r) => r.body.event)).toEqual(['category.created', 'category.updated']);
    } finally {
      await hooks.stop();
    }
  }, 120_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
