import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { commandsOf } from '../../../src/cli/commands';
import { SHARED_VERSION_POLL_MS } from '../../../src/common/cache/data-version.service';
import { installedFeatures } from '../../../src/features';
import { createTestApp } from '../../support/test-app';
import { API, http } from '../../support/http';

const run = promisify(execFile);
// Spawns real processes, and the first one may compile the project first.
jest.setTimeout(120_000);
const ROOT = join(__dirname, '..', '..', '..');
const START = join(ROOT, 'scripts', 'start.js');

/** Runs `npm run cli -- …` the way a person would (through scripts/start.js, which builds when needed). */
async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [START, '--cli', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('command line (spec auth.md §1; README)', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-cli-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, LOG_LEVEL: 'silent' };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('user:create makes a user whose printed application password works over HTTP', async () => {
    const made = await cli(['user:create', 'ed', '--role', 'editor'], env);
    expect(made.code).toBe(0);
    const password = /Application password: (.+)/.exec(made.stdout)?.[1];
    expect(password).toMatch(/^(\w{4} ){5}\w{4}$/);

    const t = await createTestApp({ DATABASE_URL: env.DATABASE_URL });
    try {
      const auth = `Basic ${Buffer.from(`ed:${password}`).toString('base64')}`;
      const res = await http(t, auth).post(`${API}/tags`).send({ name: 'From the CLI user' });
      expect(res.status).toBe(201);
    } finally {
      await t.close();
    }
  });

  it('user:create takes a given password', async () => {
    const made = await cli(['user:create', 'ann', '--role', 'author', '--password', 'my given password'], env);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('Application password: my given password');
  });

  it('refuses a duplicate login and an unknown role with a clear message', async () => {
    const dup = await cli(['user:create', 'ed', '--role', 'editor'], env);
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toMatch(/already exists/);
    const role = await cli(['user:create', 'zed', '--role', 'overlord'], env);
    expect(role.code).not.toBe(0);
    expect(role.stderr).toMatch(/Unknown role "overlord"/);
    const usage = await cli(['user:create'], env);
    expect(usage.code).toBe(2);
  });

  it('migration:show, revert and run', async () => {
    const lines = (text: string) => text.trim().split('\n');
    expect((await cli(['migration:run'], env)).code).toBe(0);
    const shown = lines((await cli(['migration:show'], env)).stdout);
    expect(shown[0]).toMatch(/^\[X\] Initial\d+$/);
    expect(shown.every((l) => l.startsWith('[X]'))).toBe(true);
    expect((await cli(['migration:revert'], env)).code).toBe(0);
    const after = lines((await cli(['migration:show'], env)).stdout);
    expect(after.slice(0, -1).every((l) => l.startsWith('[X]'))).toBe(true);
    expect(after[after.length - 1]).toBe(shown[shown.length - 1].replace('[X]', '[ ]'));
    const ran = await cli(['migration:run'], env);
    expect(ran.stdout).toBe(`applied ${shown[shown.length - 1].slice(4)}\n`);
  });

  it('migration commands start without applying migrations; help needs no valid configuration', async () => {
    const fresh = { ...env, DATABASE_URL: `sqlite:${join(dir, 'fresh.sqlite')}`, CALENDAR_MIGRATE: 'on' };
    const shown = await cli(['migration:show'], fresh);
    expect(shown.code).toBe(0);
    expect(
      shown.stdout
        .trim()
        .split('\n')
        .every((l) => l.startsWith('[ ] ')),
    ).toBe(true);
    const help = await cli(['help'], { ...env, PORT: 'x' });
    expect(help).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^Usage: npm run cli -- <command>\n/) });
    // Built from what the installed features declare: the core's, and those of the extensions in extensions/.
    const names = Object.keys(commandsOf(installedFeatures()));
    expect(names).toEqual(expect.arrayContaining(['migration:run', 'user:create', 'import:tec', 'sources:run', 'seed']));
    for (const name of names) expect(help.stdout).toMatch(new RegExp(`^ {2}${name}\\b`, 'm'));
  });

  it('migration:check finds entities and migrations in agreement', async () => {
    // The check applies nothing (see migration-check.e2e-spec.ts); exit 0 also says the database is up to date.
    const checkEnv = { ...env, DATABASE_URL: `sqlite:${join(dir, 'check.sqlite')}` };
    expect((await cli(['migration:run'], checkEnv)).code).toBe(0);
    const checked = await cli(['migration:check'], checkEnv);
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  });
});

describe('user commands: list, password, revoke, delete', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-users-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'users.sqlite')}`, LOG_LEVEL: 'silent' };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cache:flush makes a running instance drop its read caches (data changed behind its back)', async () => {
    const t = await createTestApp({ DATABASE_URL: env.DATABASE_URL });
    try {
      const tags = async () => (await http(t).get(`${API}/tags?hide_empty=false&search=behind`)).body.total as number;
      expect(await tags()).toBe(0);
      // A tag written by hand: no change row, so the cached answer stays (the read model follows writes only).
      await t.app
        .get(DataSource)
        .query("INSERT INTO terms (taxonomy, name, name_key, slug, description, parent_id, count) VALUES ('tag', 'Behind', 'by-hand', 'behind', '', 0, 0)");
      expect(await tags()).toBe(0);
      const flushed = await cli(['cache:flush'], env);
      expect(flushed).toMatchObject({ code: 0, stdout: expect.stringContaining('Flushed') });
      await new Promise((resolve) => setTimeout(resolve, SHARED_VERSION_POLL_MS + 100));
      expect(await tags()).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('cache:flush takes no arguments', async () => {
    const res = await cli(['cache:flush', 'now'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('cache:flush takes no arguments');
  });

  it('user:list shows id, login, role and password count, never a secret', async () => {
    const made = await cli(['user:create', 'lister', '--role', 'author', '--password', 'lister password'], env);
    expect(made.code).toBe(0);
    const listed = await cli(['user:list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^id\tlogin\trole\tpasswords$/m);
    expect(listed.stdout).toMatch(/^\d+\tlister\tauthor\t1$/m);
    expect(listed.stdout).not.toContain('lister password');
    expect(listed.stdout).not.toContain('scrypt');
  });

  it('user:password replaces the passwords; user:revoke removes them; both refuse an unknown login', async () => {
    await cli(['user:create', 'rotator', '--role', 'editor', '--password', 'old password 1'], env);
    const changed = await cli(['user:password', 'rotator'], env);
    expect(changed.code).toBe(0);
    const password = /: (.+)$/m.exec(changed.stdout)?.[1] ?? '';
    expect(password).toMatch(/^(\w{4} ){5}\w{4}$/);
    const given = await cli(['user:password', 'rotator', '--password', 'chosen password'], env);
    expect(given.stdout).toContain('chosen password');
    const revoked = await cli(['user:revoke', 'rotator'], env);
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining('Revoked 1 application password') });
    for (const command of ['user:password', 'user:revoke', 'user:delete']) {
      const unknown = await cli([command, 'nobody-here'], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr.trim()).toBe('No user has the login "nobody-here".');
    }
  });

  it('user:delete removes a user without items (one with items: credentials.e2e-spec.ts)', async () => {
    await cli(['user:create', 'gone', '--role', 'subscriber', '--password', 'gone password'], env);
    expect(await cli(['user:delete', 'gone'], env)).toMatchObject({ code: 0, stdout: 'Deleted "gone".\n' });
    expect((await cli(['user:list'], env)).stdout).not.toMatch(/\tgone\t/);
  });
});

describe('operator errors: one line, no stack, non-zero exit', () => {
  const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m);

  it('the CLI with an unreachable database names host:port, never the password', async () => {
    const res = await cli(['user:list'], { DATABASE_URL: 'mysql://calendar:hunter2@127.0.0.1:1/calendar', LOG_LEVEL: 'info' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('cannot reach the database at 127.0.0.1:1 (ECONNREFUSED: nothing listens there)');
    expect(res.stderr).not.toContain('hunter2');
    noStack(res.stderr);
  });

  it('the CLI with a SQLite path under a file names the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-badpath-'));
    try {
      writeFileSync(join(dir, 'file'), '');
      const res = await cli(['user:list'], { DATABASE_URL: `sqlite:${join(dir, 'file', 'db.sqlite')}` });
      expect(res.code).toBe(1);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toContain(join(dir, 'file', 'db.sqlite'));
      noStack(res.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the server waits for a database that is down, a bounded time, saying so once per try', async () => {
    await cli([], {}).catch(() => null); // warm the build
    try {
      await run(process.execPath, [START], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: 'mysql://calendar:hunter2@127.0.0.1:1/calendar', CALENDAR_DB_CONNECT_WAIT: '3', LOG_LEVEL: 'info' },
      });
      throw new Error('the server started');
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      expect(e.code).toBe(1);
      expect(e.stderr.trim()).toBe('cannot reach the database at 127.0.0.1:1 (ECONNREFUSED: nothing listens there)');
      const tries = e.stdout
        .trim()
        .split('\n')
        .filter((l) => l.includes('trying again'));
      expect(tries.length).toBeGreaterThanOrEqual(1);
      expect(`${e.stdout}${e.stderr}`).not.toContain('hunter2');
      noStack(`${e.stdout}${e.stderr}`);
    }
  });

  it('a port in use is one line naming the address', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'calendar-port-'));
    try {
      await run(process.execPath, [START], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'p.sqlite')}`, LOG_LEVEL: 'warn' },
      });
      throw new Error('the server started');
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      expect(e.code).toBe(1);
      expect(e.stderr.trim()).toBe(`cannot listen on 127.0.0.1:${port}: the port is already in use`);
      noStack(`${e.stdout}${e.stderr}`);
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates the SQLite file readable by its owner only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-mode-'));
    try {
      const file = join(dir, 'data', 'calendar.sqlite');
      expect((await cli(['user:list'], { DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'silent' })).code).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('server process', () => {
  it('refuses bad configuration, naming each bad variable', async () => {
    const res = await cli([], {}).catch(() => null); // warm the build
    expect(res).not.toBeNull();
    try {
      await run(process.execPath, [START], { cwd: ROOT, env: { ...process.env, PORT: 'x', CALENDAR_TIMEZONE: 'Nowhere/Land' } });
      throw new Error('the server started');
    } catch (err) {
      const e = err as { code: number; stderr: string };
      expect(e.code).toBe(2);
      expect(e.stderr).toContain('PORT');
      expect(e.stderr).toContain('CALENDAR_TIMEZONE');
    }
  });

  it('serves, logs JSON lines without credentials, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-srv-'));
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const child = spawn(process.execPath, [START], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: port,
        DATABASE_URL: `sqlite:${join(dir, 'srv.sqlite')}`,
        CALENDAR_ADMIN_LOGIN: 'root',
        CALENDAR_ADMIN_PASSWORD: 'root-password-1',
        LOG_LEVEL: 'info',
      },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor(() => out.includes('calendar-events is listening'));
      const auth = `Basic ${Buffer.from('root:root-password-1').toString('base64')}`;
      const res = await fetch(`http://127.0.0.1:${port}${API}/categories`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Served' }),
      });
      expect(res.status).toBe(201);
      await waitFor(() => out.includes('"status":201'));
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      const lines = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const request = lines.find((l) => l.msg === 'request' && l.status === 201);
      expect(request).toMatchObject({ method: 'POST', route: '/calendar/events/v1/categories', reqId: expect.any(String) });
      expect(out).not.toContain('root-password-1');
      expect(out).not.toContain(auth.slice(6));
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function waitFor(check: () => boolean, attempts = 200): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached');
}
