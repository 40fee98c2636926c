// Two service instances on one database: with REDIS_URL, a write
// through A is announced on Redis and B's next read already shows it; without Redis, B notices
// it only at its next poll of the change log. Both instances' polls are set an hour long here,
// so what makes the write visible on B in the first case can only be the push.
//
// SQLite: one file in a temporary folder; MariaDB: the TEST_DATABASE_URL database. Needs a
// Redis server for the push (test/support/redis.ts: skipped with a message when none answers,
// a failure when TEST_REDIS_URL is set).
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { CacheBus } from '../../../src/common/cache/cache-bus';
import { DataVersion } from '../../../src/common/cache/data-version.service';
import { cacheFlush } from '../../../src/cli/cache.commands';
import { createEvent } from '../../support/api';
import { API, http } from '../../support/http';
import { twoInstances } from '../../support/instances';
import { redisForTests, TEST_REDIS_URL } from '../../support/redis';
import type { TestApp } from '../../support/test-app';

const HOUR_MS = 3_600_000;
/** The events below are dated 2030: outside the list's default window. */
const titlesOn = async (t: TestApp) => {
  const res = await http(t).get(`${API}/events?start_date=2030-01-01&end_date=2030-12-31&per_page=50`);
  expect(res.status).toBe(200);
  return (res.body.events as { title: string }[]).map((e) => e.title);
};

/** Only an announcement (or a poll an hour away) makes this instance read the change log again. */
const pollHourly = (t: TestApp) => Object.assign(t.app.get(DataVersion).intervals, { pushed: HOUR_MS, polled: HOUR_MS });

/** Resolves once the instance's subscription to the Redis channel is up. */
async function subscribed(t: TestApp): Promise<void> {
  const bus = t.app.get(CacheBus);
  if (!bus.pushed) await once(bus, 'subscribed');
}

describe('two instances with Redis: invalidation is pushed', () => {
  let available = false;
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void> = async () => undefined;
  let editor: string;
  const prefix = `calendar-test-${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    available = await redisForTests('the pushed cache invalidation across instances');
    if (!available) return;
    ({ a, b, close } = await twoInstances({ REDIS_URL: TEST_REDIS_URL, CALENDAR_REDIS_PREFIX: prefix }));
    await Promise.all([subscribed(a), subscribed(b)]);
    pollHourly(a);
    pollHourly(b);
    editor = (await a.userHeader('writer', 'editor')).authorization;
  });
  afterAll(async () => close());

  it("a write through A shows in B's list as soon as B has heard A's announcement", async () => {
    if (!available) return;
    // B reads first: its caches now hold the list without the new event.
    expect(await titlesOn(b)).toEqual([]);
    expect(await titlesOn(b)).toEqual([]);

    // What goes over the wire: A's instance id on the prefixed channel.
    const listener = new Redis(TEST_REDIS_URL);
    await listener.subscribe(`${prefix}cache`);
    const onWire = once(listener, 'message');
    const heardByB = once(b.app.get(CacheBus), 'remote');
    await createEvent(a, editor, { title: 'Pushed to B', status: 'publish', start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 11:00:00' });
    expect(await onWire).toEqual([`${prefix}cache`, a.app.get(CacheBus).instanceId]);
    await listener.quit();
    await heardByB;

    expect(await titlesOn(b)).toEqual(['Pushed to B']);
  });

  it('an instance ignores its own announcements (its caches already follow its own writes)', async () => {
    if (!available) return;
    const bus = a.app.get(CacheBus);
    let heard = 0;
    const count = () => (heard += 1);
    bus.on('remote', count);
    const listener = new Redis(TEST_REDIS_URL);
    await listener.subscribe(`${prefix}cache`);
    const ownOnWire = once(listener, 'message');
    await createEvent(a, editor, { title: 'Own write', status: 'publish', start_date: '2030-04-01 10:00:00', end_date: '2030-04-01 11:00:00' });
    expect(await ownOnWire).toEqual([`${prefix}cache`, bus.instanceId]);
    await listener.quit();
    // Redis delivers in the order it received: once B's later announcement is in, A's own was too.
    const heardB = once(bus, 'remote');
    b.app.get(CacheBus).publish();
    await heardB;
    bus.off('remote', count);
    expect(heard).toBe(1);
    expect(await titlesOn(a)).toEqual(['Pushed to B', 'Own write']);
  });

  it("the CLI's cache:flush reaches the other instances through the same channel", async () => {
    if (!available) return;
    expect(await titlesOn(b)).toEqual(['Pushed to B', 'Own write']);
    const version = b.app.get(DataVersion);
    const before = await version.current();
    const heardByB = once(b.app.get(CacheBus), 'remote');
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await cacheFlush.prepare([])(a.app)).toBe(0);
      expect(out).toHaveBeenCalledWith(expect.stringContaining('announced through Redis'));
    } finally {
      out.mockRestore();
    }
    await heardByB;
    // B reads the change log again (its poll is an hour away): the flush's change row moves its version.
    expect(await version.current()).not.toBe(before);
  });
});

describe('two instances without Redis: the poll is the only way', () => {
  let a: TestApp;
  let b: TestApp;
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    ({ a, b, close } = await twoInstances({}));
    pollHourly(b);
  });
  afterAll(async () => close());

  it("B keeps its cached list until its next poll of the change log, then shows A's write", async () => {
    const editor = (await a.userHeader('writer', 'editor')).authorization;
    expect(await titlesOn(b)).toEqual([]);
    await createEvent(a, editor, { title: 'Polled by B', status: 'publish', start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 11:00:00' });
    expect(await titlesOn(a)).toEqual(['Polled by B']);
    // Nothing told B: its caches still answer the list as it was.
    expect(await titlesOn(b)).toEqual([]);
    // The poll comes round (here: made due at once); the change log shows the write.
    Object.assign(b.app.get(DataVersion).intervals, { polled: 0 });
    expect(await titlesOn(b)).toEqual(['Polled by B']);
  });
});
