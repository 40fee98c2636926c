// The listing columns on link rows: event_terms and event_organizers carry
// their event's status, hide_from_listings, start, end and publication date, so that a list
// filtered by a term or an organizer walks their index. Every write path must keep them in step
// (ListingSync); after a varied sequence of writes through the API, the scheduler, createMany
// and (TEST_EXTENSIONS=on) a recurring series, no link row may differ from its event.
import { DataSource } from 'typeorm';
import type { Actor } from '../../../src/common/auth';
import { UnitOfWork } from '../../../src/database/unit-of-work';
import { EventWrites, ScheduledPublisher } from '../../../src/events';
import { createCategory, createEvent, createOrganizer, createTag, uid } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { listIds } from '../../support/events';
import { API, http } from '../../support/http';
import { createTestApp, EXTENSIONS_ON, TestApp } from '../../support/test-app';

/** Link rows whose listing columns differ from their event's, in both tables (one comparison each). */
const DRIFT = ['event_terms', 'event_organizers']
  .map(
    (table) =>
      `SELECT '${table}' AS link, l.event_id AS event_id FROM ${table} l JOIN events e ON e.id = l.event_id ` +
      'WHERE l.status <> e.status OR l.hidden <> e.hide_from_listings OR l.start_date <> e.start_date OR l.end_date <> e.end_date OR l.date_utc <> e.date_utc',
  )
  .join(' UNION ALL ');

/** `YYYY-MM-DD HH:MM:SS` (UTC) `ms` from now, rounded up to the next whole second. */
const utcIn = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000).toISOString().replace('T', ' ').slice(0, 19);

describe('listing columns on link rows stay in step with their events', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: string;
  let actor: Actor;

  beforeAll(async () => {
    // The test publishes due events itself (ScheduledPublisher.tick).
    t = await createTestApp({ CALENDAR_SCHEDULE_POLL_SECONDS: '0' });
    db = t.app.get(DataSource);
    const user = await t.userHeader('listing-admin', 'administrator');
    admin = user.authorization;
    actor = { id: user.id, login: 'listing-admin', role: 'administrator' };
  });
  afterAll(async () => t?.close());

  const drift = async () => (await db.query(DRIFT)) as { link: string; event_id: number | string }[];
  const update = async (id: number, body: Record<string, unknown>) => expectStatus(await http(t, admin).post(`${API}/events/${id}`).send(body), 200);

  it('after creates, edits, hiding, trash, restore, scheduled publication, relinking and batches, no link row differs', async () => {
    const music = await createCategory(t, admin, { name: uid('music') });
    const jazz = await createCategory(t, admin, { name: uid('jazz'), parent: music.id });
    const free = await createTag(t, admin, { name: uid('free') });
    const ann = await createOrganizer(t, admin, { organizer: uid('ann') });
    const bob = await createOrganizer(t, admin, { organizer: uid('bob') });

    const a = await createEvent(t, admin, {
      title: 'A',
      start_date: '2031-05-01 10:00',
      end_date: '2031-05-01 11:00',
      categories: [jazz.id],
      tags: [free.id],
      organizer: [ann.id],
    });
    const b = await createEvent(t, admin, {
      title: 'B',
      status: 'draft',
      start_date: '2031-05-02 10:00',
      end_date: '2031-05-02 11:00',
      categories: [music.id, jazz.id],
      organizer: [ann.id, bob.id],
    });
    await update(a.id, { start_date: '2031-06-01 09:00', end_date: '2031-06-03 18:00' }); // dates
    await update(b.id, { status: 'publish' }); // draft → publish
    await update(a.id, { hide_from_listings: true }); // hidden
    expectStatus(await http(t, admin).delete(`${API}/events/${b.id}`), 200); // trash
    await update(b.id, { status: 'draft' }); // restore
    await update(b.id, { status: 'publish', start_date: '2031-04-01 08:00', end_date: '2031-04-01 09:00' });
    await update(a.id, { hide_from_listings: false, categories: [music.id], tags: [], organizer: [bob.id] }); // relinked

    const due = utcIn(1500);
    const c = await createEvent(t, admin, {
      title: 'C',
      date_utc: due,
      start_date: '2031-05-03 10:00',
      end_date: '2031-05-03 11:00',
      categories: [jazz.id],
      organizer: [bob.id],
    });
    expect(c.status).toBe('future');
    while (Date.now() <= Date.parse(`${due.replace(' ', 'T')}Z`) + 50) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await t.app.get(ScheduledPublisher).tick()).toBe(1); // scheduled → published

    const batch = ['2031-07-01', '2031-07-08', '2031-07-15'].map((day, i) => ({
      title: 'Batch',
      start_date: `${day} 19:00:00`,
      end_date: `${day} 20:00:00`,
      status: i === 1 ? 'draft' : 'publish',
      categories: [jazz.id],
      organizer: [ann.id],
    }));
    await t.app.get(UnitOfWork).run((tx, changes) => t.app.get(EventWrites).createMany(tx, changes, actor, batch));

    if (EXTENSIONS_ON) {
      const res = await http(t, admin)
        .post(`${API}/events`)
        .send({
          title: uid('series'),
          start_date: '2031-08-04 19:00:00',
          end_date: '2031-08-04 20:00:00',
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
          categories: [music.id],
          organizer: [bob.id],
        });
      expectStatus(res, 201);
      expectStatus(
        await http(t, admin)
          .post(`${API}/events/${Number(res.body.id)}`)
          .send({ start_date: '2031-08-05 18:00:00', end_date: '2031-08-05 19:00:00' }),
        200,
      );
    }

    const [{ n }] = (await db.query('SELECT COUNT(*) AS n FROM event_terms')) as { n: number | string }[];
    expect(Number(n)).toBeGreaterThanOrEqual(7); // A 1, B 2, C 1, the batch 3 (and the series 3)
    expect(await drift()).toEqual([]);

    // The lists the link tables now drive answer as the events say.
    expect(await listIds(t, `categories=${music.id}&start_date=2031-01-01&end_date=2031-12-31`)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect(await listIds(t, `organizer=${ann.id}&start_date=2031-01-01&end_date=2031-12-31`)).not.toContain(a.id);
  }, 60_000);

  it('the comparison sees a link row that differs from its event', async () => {
    const category = await createCategory(t, admin, { name: uid('drift') });
    const event = await createEvent(t, admin, { title: 'Drift', start_date: '2031-09-01 10:00', end_date: '2031-09-01 11:00', categories: [category.id] });
    await db.query("UPDATE event_terms SET start_date = '2031-09-02 10:00:00' WHERE event_id = ?", [event.id]);
    expect((await drift()).map((r) => [r.link, Number(r.event_id)])).toEqual([['event_terms', event.id]]);
    await update(event.id, { title: 'Drift again' }); // any write of the event copies its columns again
    expect(await drift()).toEqual([]);
  });
});
