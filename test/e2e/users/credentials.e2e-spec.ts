// Failed-authentication limits (beyond.md #9), revocation seen by a running server, the bootstrap
// administrator's stored password.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { expectError } from '../../support/expect';
import { UsersService } from '../../../src/users/users.service';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('credentials', () => {
  let t: TestApp;
  let users: UsersService;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_AUTH_MAX_FAILURES: '3', CALENDAR_AUTH_FAILURE_WINDOW: '60' });
    users = t.app.get(UsersService);
  });
  afterAll(async () => t?.close());

  /** A request from a given client address (Fastify's inject sets the remote address). */
  const from = (address: string, authorization: string) =>
    t.app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: 'GET', url: `${API}/events`, remoteAddress: address, headers: { authorization } });

  it('a wrong password is 401 until the login has used its failures, then 429 with Retry-After — a right one too', async () => {
    const { password } = await users.create('guessed', 'editor');
    for (let i = 0; i < 3; i++) {
      const res = await from(`10.0.1.${i}`, basic('guessed', `wrong ${i}`)); // other addresses: the login's count
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('incorrect_password');
    }
    const blocked = await from('10.0.1.9', basic('guessed', 'wrong again'));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'rest_too_many_requests', data: { status: 429 } });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const right = await from('10.0.1.10', basic('guessed', password));
    expect(right.statusCode).toBe(429);
  });

  it('an address that fails for many logins is blocked for every login, known or not', async () => {
    await users.create('bystander', 'author');
    for (const login of ['nobody-1', 'nobody-2', 'bystander']) {
      const res = await from('10.0.2.1', basic(login, 'not the password'));
      expect(res.statusCode).toBe(401);
    }
    const res = await from('10.0.2.1', basic('nobody-3', 'x'));
    expect(res.statusCode).toBe(429);
    // Another address is not affected.
    expect((await from('10.0.2.2', basic('nobody-3', 'x'))).statusCode).toBe(401);
  });

  it('unknown login and wrong password keep their own codes (and cost the same work)', async () => {
    await users.create('known', 'author');
    expectError(await http(t, basic('unknown-login', 'whatever')).get(`${API}/events`), 401, 'invalid_username');
    expectError(await http(t, basic('known', 'whatever')).get(`${API}/events`), 401, 'incorrect_password');
  });
});

describe('credentials managed while the server runs', () => {
  let t: TestApp;
  let users: UsersService;
  beforeAll(async () => {
    t = await createTestApp();
    users = t.app.get(UsersService);
  });
  afterAll(async () => t?.close());

  it('a revoked or replaced password stops working at once, although the server remembered it', async () => {
    const { password } = await users.create('revoked', 'editor');
    const auth = basic('revoked', password);
    expect((await http(t, auth).get(`${API}/events`)).status).toBe(200); // remembered from here on
    await users.revoke('revoked');
    expectError(await http(t, auth).get(`${API}/events`), 401, 'incorrect_password');
    const next = await users.setPassword('revoked');
    expect((await http(t, basic('revoked', next)).get(`${API}/events`)).status).toBe(200);
    await users.setPassword('revoked', 'another long password');
    expectError(await http(t, basic('revoked', next)).get(`${API}/events`), 401, 'incorrect_password');
  });

  it('a deleted user is unknown; a user with items is kept unless someone takes them over', async () => {
    const { password } = await users.create('leaver', 'author');
    const auth = basic('leaver', password);
    const venue = await http(t, auth).post(`${API}/venues`).send({ venue: 'Leaver hall' });
    expect(venue.status).toBe(201);
    const event = await http(t, auth).post(`${API}/events`).send({ title: 'Leaver party', start_date: '2040-02-02 20:00', end_date: '2040-02-02 23:00' });
    expect(event.status).toBe(201);
    // Read anonymously first, so the event and its list item sit in the read caches.
    const readEvent = async () => (await http(t).get(`${API}/events/${event.body.id}`)).body.author;
    const listed = async () => (await http(t).get(`${API}/events?start_date=2040-02-01&end_date=2040-02-03`)).body.events[0].author;
    expect([await readEvent(), await listed()]).toEqual([event.body.author, event.body.author]);
    await expect(users.delete('leaver')).rejects.toThrow(/--reassign/);
    await users.create('heir', 'editor');
    expect(await users.delete('leaver', 'heir')).toEqual({ reassigned: 2 });
    expectError(await http(t, auth).get(`${API}/events`), 401, 'invalid_username');
    const heir = String((await users.list()).find((u) => u.login === 'heir')?.id);
    expect((await http(t).get(`${API}/venues/${venue.body.id}`)).body.author).toBe(heir);
    // The reassignment is a write like any other: the cached event follows it.
    expect([await readEvent(), await listed()]).toEqual([heir, heir]);
  });
});

describe('general request limit (CALENDAR_RATE_LIMIT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_RATE_LIMIT: '5' });
  });
  afterAll(async () => t?.close());

  it('is off by default and, when set, answers 429 past the limit per address', async () => {
    const inject = (address: string) =>
      t.app
        .getHttpAdapter()
        .getInstance()
        .inject({ method: 'GET', url: `${API}/categories`, remoteAddress: address });
    for (let i = 0; i < 5; i++) expect((await inject('10.0.3.1')).statusCode).toBe(200);
    const over = await inject('10.0.3.1');
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rest_too_many_requests');
    expect((await inject('10.0.3.2')).statusCode).toBe(200);
  });
});

describe('bootstrap administrator', () => {
  it('warns when the configured password is not the stored one, and keeps the stored one', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'calendar-boss-'));
    const env: Record<string, string> = { CALENDAR_ADMIN_LOGIN: 'boss', CALENDAR_ADMIN_PASSWORD: 'first password' };
    // Two starts on one database: a file unless the tests run on MariaDB.
    if (!process.env.TEST_DATABASE_URL) env.DATABASE_URL = `sqlite:${join(folder, 'boss.sqlite')}`;
    const first = await createTestApp(env);
    try {
      await first.app.get(UsersService).setPassword('boss', 'changed on purpose');
      const lines: string[] = [];
      const second = await createTestApp({ ...env, LOG_LEVEL: 'warn' }, { sharing: first, onLog: (line) => lines.push(line) });
      try {
        const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((l) => l.level === 40);
        expect(warnings.map((w) => w.msg)).toEqual([expect.stringMatching(/^CALENDAR_ADMIN_PASSWORD does not match the stored password of "boss"/)]);
        expect(lines.join('\n')).not.toContain('first password');
        expect((await http(second, basic('boss', 'changed on purpose')).get(`${API}/events`)).status).toBe(200);
        expect((await http(second, basic('boss', 'first password')).get(`${API}/events`)).status).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
