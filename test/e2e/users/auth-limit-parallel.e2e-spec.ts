// Failed-authentication limits under concurrency (beyond.md #9): wrong
// passwords for one login sent all at once get at most the limit of 401s, the rest 429 with
// Retry-After, whether the guesses are the same password (checked once, the requests waiting on
// that one check) or different ones, with the counters in this process or in Redis shared by
// two instances.
import type { Response as InjectResponse } from 'light-my-request';
import { createTestApp, TestApp } from '../../support/test-app';
import { API } from '../../support/http';
import { redisInstances } from '../../support/redis';
import { UsersService } from '../../../src/users/users.service';

const LIMIT = 10;
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

const attempt = (t: TestApp, address: string, authorization: string) =>
  t.app
    .getHttpAdapter()
    .getInstance()
    .inject({ method: 'GET', url: `${API}/events`, remoteAddress: address, headers: { authorization } });

/** Every answer is a 401 or a 429 with Retry-After and the errors.md body; returns how many were 401. */
function unauthorizedCount(answers: InjectResponse[]): number {
  for (const res of answers.filter((r) => r.statusCode !== 401)) {
    expect({ status: res.statusCode, body: res.json() as unknown }).toEqual({
      status: 429,
      body: { code: 'rest_too_many_requests', message: expect.any(String), data: { status: 429 } },
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }
  return answers.filter((r) => r.statusCode === 401).length;
}

describe('failed logins sent in parallel, counted in the process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_AUTH_MAX_FAILURES: String(LIMIT), CALENDAR_AUTH_FAILURE_WINDOW: '60' });
  });
  afterAll(async () => t?.close());

  it('16 requests with the same wrong password: at most the limit of 401s, the rest 429', async () => {
    await t.app.get(UsersService).create('same-guess', 'editor');
    const answers = await Promise.all(Array.from({ length: 16 }, () => attempt(t, '10.28.1.1', basic('same-guess', 'wrong'))));
    expect(unauthorizedCount(answers)).toBeLessThanOrEqual(LIMIT);
    expect(answers.filter((r) => r.statusCode === 429)).not.toHaveLength(0);
  });

  it('40 requests with different wrong passwords from different addresses: at most the limit of 401s', async () => {
    await t.app.get(UsersService).create('many-guesses', 'editor');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(t, `10.28.2.${i}`, basic('many-guesses', `wrong ${i % 7}`))));
    expect(unauthorizedCount(answers)).toBeLessThanOrEqual(LIMIT);
    // The login is blocked now, its right password too.
    expect((await attempt(t, '10.28.2.250', basic('many-guesses', 'wrong 0'))).statusCode).toBe(429);
  });

  it('a client sending its right password on many connections at once is not blocked by its own check', async () => {
    const { password } = await t.app.get(UsersService).create('many-connections', 'editor');
    const answers = await Promise.all(Array.from({ length: 16 }, () => attempt(t, '10.28.3.1', basic('many-connections', password))));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
  });
});

describe('failed logins sent in parallel to two instances sharing Redis', () => {
  let shared: Awaited<ReturnType<typeof redisInstances>> = null;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    shared = await redisInstances('the parallel Redis rate-limit test', { CALENDAR_AUTH_MAX_FAILURES: String(LIMIT), CALENDAR_AUTH_FAILURE_WINDOW: '60' });
    if (shared) ({ a, b } = shared);
  });
  afterAll(async () => shared?.close());

  it('32 requests, same and different wrong passwords, half to each instance: at most the limit of 401s', async () => {
    if (!shared) return;
    await a.app.get(UsersService).create('shared-parallel', 'editor');
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) => attempt(i % 2 === 0 ? a : b, `10.28.4.${i % 5}`, basic('shared-parallel', i % 3 === 0 ? 'same' : `wrong ${i}`))),
    );
    expect(unauthorizedCount(answers)).toBeLessThanOrEqual(LIMIT);
    expect((await attempt(b, '10.28.4.200', basic('shared-parallel', 'same'))).statusCode).toBe(429);
  });
});
