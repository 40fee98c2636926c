// Series moved or restored as a whole (recurrence.md §3 ids kept by date, §4 scopes): a scope=all
// (or following) move of one occurrence by whole days or across midnight moves every occurrence
// by as much, keeps every id and leaves the addressed event in its series; a move the rule
// cannot follow is a 400 with nothing written; a restore with scope=all brings back what the
// series delete trashed. Each case checks the list (GET /events?series=ID) and what two
// calendar apps make of the feed (events.ics?series=ID).
import { EventBody, uid } from '../../support/api';
import { expectInvalidParams, expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { icalJsOccurrences, nodeIcalOccurrences } from '../../support/ical-oracles';
import { createTestApp, TestApp } from '../../support/test-app';

interface Series {
  id: number;
  original_start: string;
  utc_original_start: string;
  detached: boolean;
}
type Occurrence = EventBody & { recurrence: string[]; series: Series | null };

const WINDOW = 'start_date=2026-01-01&end_date=2028-12-31';
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const weekday = (wall: string) => WEEKDAYS[new Date(`${wall.slice(0, 10)}T00:00:00Z`).getUTCDay()];
const sql = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
/** A wall time moved by `hours` on the clock. */
const plus = (wall: string, hours: number) => sql(Date.parse(`${wall.replace(' ', 'T')}Z`) + hours * 3_600_000);

describe('series moved or restored as a whole (recurrence.md §3, §4)', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' });
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  const create = async (body: Record<string, unknown>): Promise<Occurrence> => {
    const res = await http(t, admin)
      .post(`${API}/events`)
      .send({ title: uid('moves'), timezone: 'Europe/Paris', ...body });
    expectStatus(res, 201);
    return res.body as Occurrence;
  };
  const update = (id: number, body: Record<string, unknown>) => http(t, admin).post(`${API}/events/${id}`).send(body);
  /** The series' events as GET /events?series=ID lists them, in start order. */
  const listed = async (seriesId: number, status = 'publish'): Promise<Occurrence[]> => {
    const res = await http(t, admin).get(`${API}/events?series=${seriesId}&status=${status}&per_page=50&${WINDOW}`);
    expectStatus(res, 200);
    return res.body.events as Occurrence[];
  };

  /** Every listed occurrence is in the series, at its original start (none detached). */
  const expectWhole = (events: Occurrence[], seriesId: number) => {
    expect(events.map((e) => [e.id, e.series?.id, e.series?.original_start, e.series?.utc_original_start, e.series?.detached])).toEqual(
      events.map((e) => [e.id, seriesId, e.start_date, e.utc_start_date, false]),
    );
  };

  /**
   * Both readers of the series' feed see exactly the API's instants (UTC start and end). node-ical
   * (0.26) expands RRULEs but ignores RDATE lines: for a series with RDATEs, ical.js alone judges.
   */
  const expectFeedAgrees = async (seriesId: number, events: Occurrence[], readers: 'both' | 'ical.js' = 'both') => {
    const res = await http(t).get(`${API}/events.ics?series=${seriesId}&${WINDOW}`);
    expectStatus(res, 200);
    const api = events.map((e) => ({ start: e.utc_start_date, end: e.utc_end_date }));
    const to = new Date('2029-01-01T00:00:00Z');
    const seenBy = [icalJsOccurrences(res.text, to), ...(readers === 'both' ? [nodeIcalOccurrences(res.text, new Date('2026-01-01T00:00:00Z'), to)] : [])];
    for (const seen of seenBy) {
      expect([...seen.values()]).toEqual([api]);
    }
  };

  describe('scope=all, moved by whole days', () => {
    it.each([
      ['in January', '2027-01-11'],
      ['across the change to summer time (Europe/Paris, 28 March)', '2027-03-22'],
    ])('weekly MO,WE COUNT=6 %s, a Wednesday moved to Thursday: TU,TH COUNT=6, every id kept, the addressed event in the series', async (_when, monday) => {
      const first = await create({
        start_date: `${monday} 19:00:00`,
        end_date: `${monday} 20:00:00`,
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6'],
      });
      const before = await listed(first.id);
      expect(before.map((e) => weekday(e.start_date))).toEqual(['Mon', 'Wed', 'Mon', 'Wed', 'Mon', 'Wed']);

      const thursday = plus(before[1].start_date, 24);
      const res = await update(before[1].id, { start_date: thursday, end_date: plus(thursday, 1), scope: 'all' });
      expectStatus(res, 200);
      expect(res.body.series).toMatchObject({ id: first.id, original_start: thursday, detached: false });
      expect(res.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TU,TH']);

      const after = await listed(first.id);
      expect(after.map((e) => [e.id, e.start_date, e.end_date, weekday(e.start_date)])).toEqual(
        before.map((e) => [e.id, plus(e.start_date, 24), plus(e.end_date, 24), weekday(plus(e.start_date, 24))]),
      );
      expect(after.map((e) => weekday(e.start_date))).toEqual(['Tue', 'Thu', 'Tue', 'Thu', 'Tue', 'Thu']);
      expectWhole(after, first.id);
      expect(after.every((e) => e.recurrence.join() === 'RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TU,TH')).toBe(true);
      // Nothing else of the series is anywhere (trash included).
      expect((await listed(first.id, 'publish,draft,pending,future,private,trash')).map((e) => e.id)).toEqual(after.map((e) => e.id));
      await expectFeedAgrees(first.id, after);
    });

    it('an occurrence deleted on its own moves with the series (its EXDATE too): restored afterwards, it is at its moved time', async () => {
      const first = await create({
        start_date: '2027-01-11 19:00:00',
        end_date: '2027-01-11 20:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4'],
      });
      const [a, b, c, d] = await listed(first.id);
      expectStatus(await http(t, admin).delete(`${API}/events/${b.id}`), 200);
      const res = await update(c.id, { start_date: '2027-01-19 19:00:00', end_date: '2027-01-19 20:00:00', scope: 'all' });
      expectStatus(res, 200);
      expect(res.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU,TH', 'EXDATE:20270114T190000']);
      const [trashed] = await listed(first.id, 'trash');
      expect([trashed.id, trashed.start_date, trashed.series?.original_start]).toEqual([b.id, '2027-01-14 19:00:00', '2027-01-14 19:00:00']);

      expectStatus(await update(b.id, { status: 'publish' }), 200);
      const after = await listed(first.id);
      expect(after.map((e) => [e.id, e.start_date])).toEqual([a, b, c, d].map((e) => [e.id, plus(e.start_date, 24)]));
      expectWhole(after, first.id);
      expect(after[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU,TH']);
      await expectFeedAgrees(first.id, after);
    });

    it('an all-day weekly series: the days move, ids and count kept', async () => {
      const first = await create({
        start_date: '2027-01-11 00:00:00',
        end_date: '2027-01-11 23:59:59',
        all_day: true,
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4', 'EXDATE;VALUE=DATE:20270118'],
      });
      const before = await listed(first.id);
      expect(before.map((e) => e.start_date.slice(0, 10))).toEqual(['2027-01-11', '2027-01-13', '2027-01-20']);
      const res = await update(before[2].id, { start_date: '2027-01-21 00:00:00', end_date: '2027-01-21 23:59:59', scope: 'all' });
      expectStatus(res, 200);
      expect(res.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU,TH', 'EXDATE;VALUE=DATE:20270119']);
      const after = await listed(first.id);
      expect(after.map((e) => [e.id, e.start_date, e.all_day])).toEqual(before.map((e) => [e.id, plus(e.start_date, 24), true]));
      expectWhole(after, first.id);
    });

    it('monthly on the 10th moved to the 12th: BYMONTHDAY follows; one on the 31st moved a day later is 400 naming start_date, nothing written', async () => {
      const tenth = await create({
        start_date: '2027-01-10 09:00:00',
        end_date: '2027-01-10 10:00:00',
        recurrence: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=10;COUNT=3'],
      });
      const before = await listed(tenth.id);
      const res = await update(before[2].id, { start_date: '2027-03-12 09:00:00', end_date: '2027-03-12 10:00:00', scope: 'all' });
      expectStatus(res, 200);
      expect(res.body.recurrence).toEqual(['RRULE:FREQ=MONTHLY;COUNT=3;BYMONTHDAY=12']);
      const after = await listed(tenth.id);
      expect(after.map((e) => [e.id, e.start_date])).toEqual(before.map((e) => [e.id, plus(e.start_date, 48)]));
      expectWhole(after, tenth.id);
      await expectFeedAgrees(tenth.id, after);

      const last = await create({
        start_date: '2027-01-31 09:00:00',
        end_date: '2027-01-31 10:00:00',
        recurrence: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3'],
      });
      const kept = await listed(last.id);
      const refused = await update(kept[1].id, { start_date: '2027-03-01 09:00:00', end_date: '2027-03-01 10:00:00', title: 'moved', scope: 'all' });
      expectInvalidParams(refused, 'start_date');
      expect(refused.body.data.params.start_date).toMatch(/BYMONTHDAY/);
      const unchanged = await listed(last.id);
      expect(unchanged.map((e) => [e.id, e.start_date, e.title, e.recurrence])).toEqual(kept.map((e) => [e.id, e.start_date, e.title, e.recurrence]));
    });
  });

  describe('scope=all, a new zone or all-day flag', () => {
    it('a new timezone keeps the wall times, UNTIL included: every id and occurrence kept', async () => {
      const first = await create({
        start_date: '2027-01-12 19:00:00',
        end_date: '2027-01-12 20:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20270126T185959Z'],
      });
      const before = await listed(first.id);
      expect(before.length).toBe(3);
      const res = await update(before[1].id, { timezone: 'America/New_York', scope: 'all' });
      expectStatus(res, 200);
      expect(res.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20270127T005959Z']);
      const after = await listed(first.id);
      expect(after.map((e) => [e.id, e.start_date, e.timezone])).toEqual(before.map((e) => [e.id, e.start_date, 'America/New_York']));
      expectWhole(after, first.id);
      await expectFeedAgrees(first.id, after);
    });

    it('all_day on one occurrence makes every occurrence all-day on its own date, ids kept', async () => {
      const first = await create({
        start_date: '2027-01-11 19:00:00',
        end_date: '2027-01-11 20:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4'],
      });
      const before = await listed(first.id);
      const res = await update(before[1].id, { all_day: true, scope: 'all' });
      expectStatus(res, 200);
      const after = await listed(first.id);
      expect(after.map((e) => [e.id, e.start_date.slice(0, 10), e.all_day])).toEqual(before.map((e) => [e.id, e.start_date.slice(0, 10), true]));
      expectWhole(after, first.id);
    });
  });

  describe('scope=all, two starts a day, moved across midnight', () => {
    it.each([
      ['RDATEs', '2027-02-01 09:00:00', ['RRULE:FREQ=DAILY;COUNT=2', 'RDATE:20270201T180000,20270202T180000']],
      ['BYHOUR', '2027-02-01 09:00:00', ['RRULE:FREQ=DAILY;BYHOUR=9,18;COUNT=4']],
    ])(
      '%s: the 18:00 moved to 08:00 moves every occurrence 10 hours earlier, ids kept, the addressed event in the series',
      async (_what, start, recurrence) => {
        const first = await create({ start_date: start, end_date: plus(start, 1), recurrence });
        const before = await listed(first.id);
        expect(before.map((e) => e.start_date)).toEqual(['2027-02-01 09:00:00', '2027-02-01 18:00:00', '2027-02-02 09:00:00', '2027-02-02 18:00:00']);

        const res = await update(before[1].id, { start_date: '2027-02-01 08:00:00', end_date: '2027-02-01 09:00:00', scope: 'all' });
        expectStatus(res, 200);
        expect(res.body.series).toMatchObject({ id: first.id, original_start: '2027-02-01 08:00:00', detached: false });

        const after = await listed(first.id);
        expect(after.map((e) => [e.id, e.start_date, e.end_date])).toEqual(before.map((e) => [e.id, plus(e.start_date, -10), plus(e.end_date, -10)]));
        expectWhole(after, first.id);
        expect((await listed(first.id, 'publish,draft,pending,future,private,trash')).map((e) => e.id)).toEqual(after.map((e) => e.id));
        await expectFeedAgrees(first.id, after, recurrence.some((line) => line.startsWith('RDATE')) ? 'ical.js' : 'both');
      },
    );
  });

  describe('a move the rule cannot follow', () => {
    it('weekly on Mondays at 9:00 and 18:00, the 18:00 moved to 08:00: 400 naming start_date, nothing written', async () => {
      const first = await create({
        start_date: '2027-02-01 09:00:00',
        end_date: '2027-02-01 10:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=9,18;COUNT=4'],
      });
      const before = await listed(first.id);
      expect(before.map((e) => e.start_date)).toEqual(['2027-02-01 09:00:00', '2027-02-01 18:00:00', '2027-02-08 09:00:00', '2027-02-08 18:00:00']);
      // The 09:00s would move to Sunday 23:00, the 18:00s to Monday 08:00: no weekly rule gives both.
      const res = await update(before[1].id, { start_date: '2027-02-01 08:00:00', end_date: '2027-02-01 09:00:00', title: 'moved', scope: 'all' });
      expectInvalidParams(res, 'start_date');
      const after = await listed(first.id, 'publish,draft,pending,future,private,trash');
      expect(after.map((e) => [e.id, e.start_date, e.title, e.status, e.recurrence, e.series])).toEqual(
        before.map((e) => [e.id, e.start_date, e.title, e.status, e.recurrence, e.series]),
      );
    });

    it('a new rule that leaves out the addressed occurrence: 400 naming recurrence, nothing written', async () => {
      const first = await create({ start_date: '2027-01-11 19:00:00', end_date: '2027-01-11 20:00:00', recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4'] });
      const before = await listed(first.id);
      const res = await update(before[1].id, { recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=2'], scope: 'all' });
      expectInvalidParams(res, 'recurrence');
      const after = await listed(first.id, 'publish,draft,pending,future,private,trash');
      expect(after.map((e) => [e.id, e.start_date, e.status, e.recurrence, e.series])).toEqual(
        before.map((e) => [e.id, e.start_date, e.status, e.recurrence, e.series]),
      );
    });
  });

  describe('scope=following, moved by a day', () => {
    it('the later part moves with its weekdays, keeps its ids and COUNT; the earlier part is untouched', async () => {
      const first = await create({
        start_date: '2027-01-11 19:00:00',
        end_date: '2027-01-11 20:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6'],
      });
      const before = await listed(first.id);
      const res = await update(before[3].id, { start_date: '2027-01-21 19:00:00', end_date: '2027-01-21 20:00:00', scope: 'following' });
      expectStatus(res, 200);
      expect(res.body.series).toMatchObject({ id: before[3].id, original_start: '2027-01-21 19:00:00' });
      expect(res.body.recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=TU,TH']);

      const earlier = await listed(first.id);
      expect(earlier.map((e) => [e.id, e.start_date])).toEqual(before.slice(0, 3).map((e) => [e.id, e.start_date]));
      const later = await listed(before[3].id);
      expect(later.map((e) => [e.id, e.start_date, weekday(e.start_date)])).toEqual(
        before.slice(3).map((e) => [e.id, plus(e.start_date, 24), weekday(plus(e.start_date, 24))]),
      );
      expectWhole(later, before[3].id);
      await expectFeedAgrees(before[3].id, later);
    });
  });

  describe('restore of a series deleted with scope=all', () => {
    it('with scope=all, brings back every occurrence the series delete trashed; one deleted on its own before stays in the trash, EXDATE kept', async () => {
      const first = await create({
        start_date: '2027-01-12 19:00:00',
        end_date: '2027-01-12 20:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      });
      const [a, b, c, d] = await listed(first.id);
      expectStatus(await http(t, admin).delete(`${API}/events/${b.id}`), 200);
      expectStatus(await http(t, admin).delete(`${API}/events/${c.id}?scope=all`), 200);
      expect(await listed(first.id)).toEqual([]);

      const res = await update(c.id, { status: 'publish', scope: 'all' });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ status: 'publish', series: { id: first.id } });
      const back = await listed(first.id);
      expect(back.map((e) => [e.id, e.status, e.start_date])).toEqual([a, c, d].map((e) => [e.id, 'publish', e.start_date]));
      expectWhole(back, first.id);
      expect(back.every((e) => e.recurrence.join() === 'RRULE:FREQ=WEEKLY;COUNT=4,EXDATE:20270119T190000')).toBe(true);
      const trashed = await listed(first.id, 'trash');
      expect(trashed.map((e) => [e.id, e.series?.id])).toEqual([[b.id, first.id]]);
      await expectFeedAgrees(first.id, back);
    });

    it('with scope=following, brings back the addressed occurrence and the later ones only', async () => {
      const first = await create({
        start_date: '2027-01-12 19:00:00',
        end_date: '2027-01-12 20:00:00',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      });
      const [a, b, c, d] = await listed(first.id);
      expectStatus(await http(t, admin).delete(`${API}/events/${a.id}?scope=all`), 200);
      expectStatus(await update(c.id, { status: 'publish', scope: 'following' }), 200);
      const later = await listed(c.id);
      expect(later.map((e) => [e.id, e.status])).toEqual([c, d].map((e) => [e.id, 'publish']));
      expectWhole(later, c.id);
      expect((await listed(first.id, 'trash')).map((e) => e.id)).toEqual([a.id, b.id]);
      await expectFeedAgrees(c.id, later);
    });
  });
});
