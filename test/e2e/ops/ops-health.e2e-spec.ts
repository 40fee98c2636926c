// GET /healthz and GET /readyz (sync.md "Operations"): liveness says only that
// the process answers; readiness names each check (database, migrations, Redis when configured)
// and answers 503 naming the one that fails.
//
// The Redis-up case needs a Redis server (test/support/redis.ts: skipped with a message when
// none answers, a failure when TEST_REDIS_URL is set).
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, JSON_TYPE } from '../../support/http';
import { CLOSED_REDIS_URL, redisForTests, TEST_REDIS_URL } from '../../support/redis';
import { createEvent } from '../../support/api';

describe('GET /healthz and /readyz without Redis', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(async () => t?.close());

  it('healthz answers 200 {"status":"ok"}, outside the API namespace', async () => {
    const res = await http(t).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(JSON_TYPE);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ status: 'ok' });
    expect((await http(t).get(`${API}/healthz`)).body).toMatchObject({ code: 'rest_no_route' });
  });

  it('readyz answers 200 with the database and migrations checks up, and no Redis check', async () => {
    const res = await http(t).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: { status: 'up' }, migrations: { status: 'up' } } });
  });

  it('readyz answers 503 naming migrations while one is pending, and 200 again once it is applied', async () => {
    const db = t.app.get(DataSource);
    const latest = db.migrations[db.migrations.length - 1].name;
    await db.undoLastMigration({ transaction: 'each' });
    try {
      const res = await http(t).get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: 'error',
        checks: { database: { status: 'up' }, migrations: { status: 'down', message: '1 migration(s) not applied', pending: [latest] } },
      });
    } finally {
      await db.runMigrations({ transaction: 'each' });
    }
    expect((await http(t).get('/readyz')).status).toBe(200);
  });

  it('GET /metrics does not exist unless CALENDAR_METRICS=on (404 rest_no_route)', async () => {
    const res = await http(t).get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
  });
});

describe('GET /readyz when REDIS_URL points at a closed port', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ REDIS_URL: CLOSED_REDIS_URL })));
  afterAll(async () => t?.close());

  it('answers 503 naming the redis check, the others up', async () => {
    const res = await http(t).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'error', checks: { database: { status: 'up' }, migrations: { status: 'up' }, redis: { status: 'down' } } });
    expect(res.body.checks.redis.message).toEqual(expect.any(String));
    // Liveness does not depend on Redis.
    expect((await http(t).get('/healthz')).status).toBe(200);
  });

  it('still answers reads and writes: Redis away never fails a request', async () => {
    const editor = await t.userHeader('editor', 'editor');
    const event = await createEvent(t, editor.authorization, { title: 'Written while Redis is away', status: 'publish' });
    const list = await http(t).get(`${API}/events?start_date=2030-01-01&end_date=2030-12-31`);
    expect(list.status).toBe(200);
    expect(list.body.events.map((e: { id: number }) => e.id)).toContain(event.id);
  });
});

describe('GET /readyz with Redis', () => {
  let available = false;
  let t: TestApp;
  beforeAll(async () => {
    available = await redisForTests('the readiness check of a Redis that answers');
    if (available) t = await createTestApp({ REDIS_URL: TEST_REDIS_URL });
  });
  afterAll(async () => t?.close());

  it('answers 200 with the redis check up', async () => {
    if (!available) return;
    const res = await http(t).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: { status: 'up' }, migrations: { status: 'up' }, redis: { status: 'up' } } });
  });
});
