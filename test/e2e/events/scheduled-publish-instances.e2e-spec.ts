// Scheduled events (endpoints.md §3 rule 5) on two instances of one database (a temporary SQLite
// file, or a database of TEST_DATABASE_URL's server): both publishers at once publish each due
// event once. In e2e-slow (jest.config.js) with the other tests of several instances; one
// instance's publisher is tested in scheduled-publish.
import { ScheduledPublisher } from '../../../src/events';
import { createEvent, readTerm, uid } from '../../support/api';
import { listIds } from '../../support/events';
import { twoInstances } from '../../support/instances';
import { follow, passed, scheduled } from '../../support/scheduled';

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
