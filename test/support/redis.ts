import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestApp, TestApp } from './test-app';

/**
 * The Redis the tests that need one use: TEST_REDIS_URL, or redis://127.0.0.1:6379 by default.
 * .ci/run starts one and sets TEST_REDIS_URL, so there a missing Redis fails the run.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A Redis address where nothing listens (port 1): every command fails at once. */
export const CLOSED_REDIS_URL = 'redis://127.0.0.1:1';

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Whether the Redis of TEST_REDIS_URL answers. When it does not: throws if TEST_REDIS_URL was
 * set (CI), else says on the console which tests (`what`) are skipped and returns false.
 */
export async function redisForTests(what: string): Promise<boolean> {
  if (await redisAnswers(TEST_REDIS_URL)) return true;
  const message = `Redis does not answer at ${TEST_REDIS_URL}; start it with: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`;
  if (process.env.TEST_REDIS_URL) throw new Error(message);
  console.warn(`SKIPPED ${what}: ${message}`);
  return false;
}

/**
 * Two instances on one database whose counters share the Redis of TEST_REDIS_URL under a key
 * prefix of their own (so that earlier runs and other test files count nothing there); close()
 * stops them and deletes the prefix's keys. null when Redis does not answer (see redisForTests).
 */
export async function redisInstances(
  what: string,
  env: Record<string, string>,
): Promise<{ a: TestApp; b: TestApp; prefix: string; close: () => Promise<void> } | null> {
  if (!(await redisForTests(what))) return null;
  const prefix = `calendar-test-${randomBytes(4).toString('hex')}:`;
  const shared = { ...env, REDIS_URL: TEST_REDIS_URL, CALENDAR_REDIS_PREFIX: prefix };
  const a = await createTestApp(shared);
  const b = await createTestApp(shared, { sharing: a });
  return {
    a,
    b,
    prefix,
    async close() {
      await b.close();
      await a.close();
      const client = new Redis(TEST_REDIS_URL);
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      await client.quit();
    },
  };
}
