// Scheduled events (endpoints.md §3 rule 5): a `future` event whose date has passed is shown and
// treated as published by every read at once, while only the scheduled publisher writes it:
// GETs never write, and the publisher publishes each due event once, with
// several instances too.
import { ScheduledPublisher } from '../../../src/events';
import { createCategory, createEvent, EventBody, makeUsers, readEvent, readTerm, uid } from '../../support/api';
import { Change, changePages } from '../../support/changes';
import { listIds } from '../../support/events';
import { API, http } from '../../support/http';
import { twoInstances } from '../../support/instances';
import { createTestApp, TestApp } from '../../support/test-app';

/** Every change after `since` as `authorization` sees it, and the token at the end of the feed. */
async function follow(t: TestApp, authorization: string, since?: string): Promise<{ changes: Change[]; token: string }> {
  const changes: Change[] = [];
  let token = since ?? '';
  for await (const page of changePages(t, since, authorization)) {
    changes.push(...page.changes);
    token = page.next_sync_token;
  }
  return { changes, token };
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) `ms` from now, rounded up to the next whole second. */
const utcIn = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);

/** Waits until the wall clock is past `dateUtc` (the event's publication date has passed). */
async function passed(dateUtc: string): Promise<void> {
  const at = Date.parse(`${dateUtc.replace(' ', 'T')}Z`);
  while (Date.now() <= at) await new Promise((resolve) => setTimeout(resolve, at + 50 - Date.now()));
}

/** Polls `check` until it holds, for at most `seconds` (no assertion on the time it took). */
async function eventually(check: () => Promise<boolean>, seconds = 20): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not so after ${seconds} s`);
}

/** A scheduled event in a new category, due in about two seconds. */
async function scheduled(t: TestApp, authorization: string): Promise<{ event: EventBody; categoryId: number }> {
  const category = await createCategory(t, authorization, { name: uid('sched') });
  const event = await createEvent(t, authorization, { title: uid('sched'), date_utc: utcIn(2000), categories: [category.id] });
  expect(event.status).toBe('future');
  return { event, categoryId: category.id };
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

describe('scheduled publishing with two instances', () => {
  let pair: Awaited<ReturnType<typeof twoInstances>>;

  beforeAll(async () => {
    pair = await twoInstances({ CALENDAR_SCHEDULE_POLL_SECONDS: '0' });
  });
  afterAll(async () => pair.close());

  it('both publishers at once publish each due event once: one change, one count', async () => {
    const { a, b } = pair;
    const admin = (await a.userHeader(uid('admin'), 'administrator')).authorization;
    const first = await scheduled(a, admin);
    const second = await createEvent(b, admin, { title: uid('sched'), date_utc: first.event.date_utc, categories: [first.categoryId] });
    const before = await follow(a, admin);
    await passed(first.event.date_utc);
    const counts = await Promise.all([a.app.get(ScheduledPublisher).tick(), b.app.get(ScheduledPublisher).tick()]);
    expect(counts[0] + counts[1]).toBe(2);
    const changes = (await follow(a, admin, before.token)).changes.filter((c) => c.type === 'event');
    expect(changes.map((c) => c.id).sort((x, y) => x - y)).toEqual([first.event.id, second.id].sort((x, y) => x - y));
    expect((await readTerm(b, 'categories', first.categoryId)).count).toBe(2);
    for (const t of [a, b]) expect(await listIds(t, `include=${first.event.id},${second.id}`)).toHaveLength(2);
  }, 30_000);
});
