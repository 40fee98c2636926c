// Scheduled events (endpoints.md §3 rule 5): a `future` event whose date has passed is shown and
// treated as published by every read at once, while only the scheduled publisher writes it:
// GETs never write, and the publisher publishes each due event once (with several instances:
// scheduled-publish-instances, in e2e-slow).
import { ScheduledPublisher } from '../../../src/events';
import { makeUsers, readEvent, readTerm } from '../../support/api';
import { listIds } from '../../support/events';
import { API, http } from '../../support/http';
import { follow, passed, scheduled } from '../../support/scheduled';
import { createTestApp, TestApp } from '../../support/test-app';

/** Polls `check` until it holds, for at most `seconds` (no assertion on the time it took). */
async function eventually(check: () => Promise<boolean>, seconds = 20): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not so after ${seconds} s`);
}

describe('scheduled publishing without a timer: reads show, only the publisher writes', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;

  // CALENDAR_SCHEDULE_POLL_SECONDS=0: this instance publishes nothing by itself; the test calls tick().
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_SCHEDULE_POLL_SECONDS: '0' });
    users = await makeUsers(t);
  });
  afterAll(async () => t.close());

  it('a due event is published in every read at once, and GETs move neither the change feed nor the counts', async () => {
    const admin = users.admin.authorization;
    const { event, categoryId } = await scheduled(t, admin);
    // Before its date: hidden from anonymous readers, in every cache the reads fill.
    expect(await listIds(t, `include=${event.id}`)).toEqual([]);
    expect((await http(t).get(`${API}/events/${event.id}`)).status).toBe(403);
    expect(await listIds(t, `include=${event.id}&status=future`, admin)).toEqual([event.id]);
    const before = await follow(t, admin);

    await passed(event.date_utc);
    expect(await listIds(t, `include=${event.id}`)).toEqual([event.id]);
    expect((await readEvent(t, event.id)).status).toBe('publish');
    expect((await readEvent(t, event.id, admin)).status).toBe('publish');
    expect(await listIds(t, `include=${event.id}&status=future`, admin)).toEqual([]);
    expect(await listIds(t, `include=${event.id}&status=publish`, admin)).toEqual([event.id]);
    expect((await http(t).get(`/event/${event.slug}/`)).status).toBe(200); // the public page
    // The reads wrote nothing: no change row, the count still the stored one.
    const afterReads = await follow(t, admin, before.token);
    expect(afterReads).toEqual({ changes: [], token: before.token });
    expect((await readTerm(t, 'categories', categoryId)).count).toBe(0);

    expect(await t.app.get(ScheduledPublisher).tick()).toBe(1);
    const published = await follow(t, admin, before.token);
    expect(published.changes.filter((c) => c.type === 'event').map((c) => [c.id, c.action])).toEqual([[event.id, 'upsert']]);
    expect((await readTerm(t, 'categories', categoryId)).count).toBe(1);
    expect((await readEvent(t, event.id)).status).toBe('publish');
    expect(await listIds(t, `include=${event.id}`)).toEqual([event.id]);
    // Nothing is due any more: another tick writes nothing.
    expect(await t.app.get(ScheduledPublisher).tick()).toBe(0);
    expect((await follow(t, admin, published.token)).changes).toEqual([]);
  }, 30_000);
});

describe('scheduled publishing on a timer', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_SCHEDULE_POLL_SECONDS: '0.2' });
    users = await makeUsers(t);
  });
  afterAll(async () => t.close());

  it('publishes a due event with no request at all: the change feed and the count show it', async () => {
    const admin = users.admin.authorization;
    const { event, categoryId } = await scheduled(t, admin);
    const before = await follow(t, admin);
    await eventually(async () => (await follow(t, admin, before.token)).changes.some((c) => c.type === 'event' && c.id === event.id));
    expect((await readTerm(t, 'categories', categoryId)).count).toBe(1);
    expect((await readEvent(t, event.id)).status).toBe('publish');
  }, 30_000);
});
