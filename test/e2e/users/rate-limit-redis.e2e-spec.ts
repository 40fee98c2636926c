// Failed-authentication counters shared by every instance through Redis (beyond.md #9:
// "Shared across instances through Redis when REDIS_URL is set").
//
// Needs a Redis server: TEST_REDIS_URL, or redis://127.0.0.1:6379 by default. .ci/run starts one
// and sets TEST_REDIS_URL, so there a missing Redis fails the run. Elsewhere, when no Redis
// answers at the default address, the shared-counter test is skipped and says so.
import { Redis } from 'ioredis';
import { createTestApp, TestApp } from '../../support/test-app';
import { API } from '../../support/http';
import { CLOSED_REDIS_URL, redisInstances, TEST_REDIS_URL } from '../../support/redis';
import { UsersService } from '../../../src/users/users.service';

const REDIS_URL = TEST_REDIS_URL;
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

const login = (t: TestApp, address: string, authorization: string) =>
  t.app
    .getHttpAdapter()
    .getInstance()
    .inject({ method: 'GET', url: `${API}/events`, remoteAddress: address, headers: { authorization } });

describe('failed-authentication limits shared through Redis', () => {
  let shared: Awaited<ReturnType<typeof redisInstances>> = null;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    shared = await redisInstances('the Redis rate-limit test', { CALENDAR_AUTH_MAX_FAILURES: '4', CALENDAR_AUTH_FAILURE_WINDOW: '60' });
    if (shared) ({ a, b } = shared);
  });
  afterAll(async () => shared?.close());

  it('failures counted by one instance block the login on the other', async () => {
    if (!shared) return;
    const { password } = await a.app.get(UsersService).create('shared-guess', 'editor');
    for (let i = 0; i < 2; i++) expect((await login(a, `10.9.0.${i}`, basic('shared-guess', `wrong ${i}`))).statusCode).toBe(401);
    for (let i = 2; i < 4; i++) expect((await login(b, `10.9.0.${i}`, basic('shared-guess', `wrong ${i}`))).statusCode).toBe(401);
    const blocked = await login(a, '10.9.0.9', basic('shared-guess', password));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'rest_too_many_requests', data: { status: 429 } });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(b, '10.9.0.10', basic('shared-guess', password))).statusCode).toBe(429);
    // The counters are in Redis under the configured prefix, not only in the processes.
    const client = new Redis(REDIS_URL);
    expect(await client.keys(`${shared.prefix}auth-fail*`)).not.toEqual([]);
    await client.quit();
  });
});

describe('failed-authentication limits while Redis does not answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: CLOSED_REDIS_URL, CALENDAR_AUTH_MAX_FAILURES: '2' });
  });
  afterAll(async () => t?.close());

  it('still counts in the process (nobody locked out, no guessing unlimited)', async () => {
    const { password } = await t.app.get(UsersService).create('no-redis', 'editor');
    expect((await login(t, '10.9.1.1', basic('no-redis', password))).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await login(t, '10.9.1.1', basic('no-redis', 'wrong'))).statusCode).toBe(401);
    expect((await login(t, '10.9.1.2', basic('no-redis', password))).statusCode).toBe(429);
  });
});
