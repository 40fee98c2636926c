// Event dates and time zones on writes (spec README §6, §7; endpoints.md §4.3, §4.8).
import { DateTime } from 'luxon';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createEvent, EventBody, eventInput, makeUsers } from '../../support/api';
import { details, parseIn, sql } from '../../support/events';
import { expectInvalidParams, expectStatus } from '../../support/expect';

/** Decides whether a parsed start is right, given "now" just before and just after the request. */
type Accept = (got: DateTime, before: DateTime, after: DateTime) => boolean;

/** The result is f(now) for "now" at either end of the request (day-granular expressions). */
const exact =
  (f: (now: DateTime) => DateTime): Accept =>
  (got, before, after) =>
    [f(before), f(after)].some((want) => want.toMillis() === got.toMillis());

/** The result lies between f(before) and f(after) (second-granular expressions). */
const ranged =
  (...fs: ((now: DateTime) => DateTime)[]): Accept =>
  (got, before, after) =>
    fs.some((f) => f(before.startOf('second')) <= got && got <= f(after.plus({ seconds: 1 }).startOf('second')));

/** A given weekday at a given hour, between `min` and `max` days from today. */
const weekday =
  (day: number, hour: number, min: number, max: number): Accept =>
  (got, before, after) =>
    got.weekday === day &&
    got.hour === hour &&
    got.minute === 0 &&
    got.second === 0 &&
    [before, after].some((now) => {
      const days = got.startOf('day').diff(now.startOf('day'), 'days').days;
      return Math.round(days) >= min && Math.round(days) <= max;
    });

/** PHP adds months by overflowing the day (Jan 31 + 1 month = Mar 3); luxon clamps. Accept either. */
const plusMonthsPhp = (now: DateTime, months: number) =>
  now
    .set({ day: 1 })
    .plus({ months })
    .plus({ days: now.day - 1 });

const at = (d: DateTime, hour: number, minute = 0) => d.set({ hour, minute, second: 0, millisecond: 0 });

/** Relative rows of README §6.2: expression → acceptance rule in the reference zone. */
const RELATIVE: [string, Accept][] = [
  ['now', ranged((n) => n)],
  ['today', exact((n) => n.startOf('day'))],
  ['midnight', exact((n) => n.startOf('day'))],
  ['noon', exact((n) => at(n, 12))],
  ['tomorrow', exact((n) => n.plus({ days: 1 }).startOf('day'))],
  ['yesterday', exact((n) => n.minus({ days: 1 }).startOf('day'))],
  ['monday', weekday(1, 0, 0, 7)],
  ['next wednesday', weekday(3, 0, 1, 7)],
  ['last friday', weekday(5, 0, -7, -1)],
  ['tomorrow 9am', exact((n) => at(n.plus({ days: 1 }), 9))],
  ['tomorrow 9:30pm', exact((n) => at(n.plus({ days: 1 }), 21, 30))],
  ['next wednesday 4pm', weekday(3, 16, 1, 7)],
  ['today 14:00', exact((n) => at(n, 14))],
  ['today 14:00:00', exact((n) => at(n, 14))],
  ['+5 days 11am', exact((n) => at(n.plus({ days: 5 }), 11))],
  ['+1 day', ranged((n) => n.plus({ days: 1 }))],
  ['-2 weeks', ranged((n) => n.minus({ weeks: 2 }))],
  ['+3 hours', ranged((n) => n.plus({ hours: 3 }))],
  ['+90 minutes', ranged((n) => n.plus({ minutes: 90 }))],
  ['+1 fortnight', ranged((n) => n.plus({ days: 14 }))],
  ['+5 weeks +7200 seconds', ranged((n) => n.plus({ weeks: 5, seconds: 7200 }))],
  [
    '+1 month',
    ranged(
      (n) => n.plus({ months: 1 }),
      (n) => plusMonthsPhp(n, 1),
    ),
  ],
  [
    '+24 months',
    ranged(
      (n) => n.plus({ months: 24 }),
      (n) => plusMonthsPhp(n, 24),
    ),
  ],
  ['+1 year', ranged((n) => n.plus({ years: 1 }))],
];

describe('events: dates and time zones on writes', () => {
  let t: TestApp;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await makeUsers(t)).admin;
  });
  afterAll(async () => t?.close());

  const post = (body: Record<string, unknown>) => http(t, admin.authorization).post(`${API}/events`).send(body);
  const update = (id: number, body: Record<string, unknown>) => http(t, admin.authorization).put(`${API}/events/${id}`).send(body);
  const startOf = async (start: string, extra: Record<string, unknown> = {}): Promise<EventBody> => {
    const res = await post(eventInput({ start_date: start, end_date: start, ...extra }));
    expectStatus(res, 201);
    return res.body;
  };

  describe('absolute forms (README §6.2)', () => {
    it.each([
      ['2030-03-14 09:30:00', '2030-03-14 09:30:00'],
      ['2030-03-14 09:30', '2030-03-14 09:30:00'],
      ['2030-03-14', '2030-03-14 00:00:00'],
      ['2030-03-14T09:30:00', '2030-03-14 09:30:00'],
      ['2018-01-01 4pm', '2018-01-01 16:00:00'],
    ])('%s is the wall-clock time %s in the event zone', async (input, wall) => {
      const utc = await startOf(input);
      expect(utc.start_date).toBe(wall);
      expect(utc.utc_start_date).toBe(wall);

      const ny = await startOf(input, { timezone: 'America/New_York' });
      expect(ny.start_date).toBe(wall);
      expect(ny.utc_start_date).toBe(sql(parseIn(wall, 'America/New_York').toUTC()));
    });

    it.each([
      ['2030-03-14T09:30:00Z', 'America/New_York', '2030-03-14 05:30:00', '2030-03-14 09:30:00'],
      ['2030-03-14T09:30:00+02:00', 'America/New_York', '2030-03-14 03:30:00', '2030-03-14 07:30:00'],
      ['2030-03-14T09:30:00+02:00', undefined, '2030-03-14 07:30:00', '2030-03-14 07:30:00'],
      ['2030-03-14T09:30:00-05:00', 'Europe/Berlin', '2030-03-14 15:30:00', '2030-03-14 14:30:00'],
      ['1741944600', 'America/New_York', '2025-03-14 05:30:00', '2025-03-14 09:30:00'],
      ['1741944600', undefined, '2025-03-14 09:30:00', '2025-03-14 09:30:00'],
    ])('%s (an instant) in zone %s is %s local, %s UTC', async (input, timezone, wall, utc) => {
      const ev = await startOf(input, timezone ? { timezone } : {});

      expect(ev.start_date).toBe(wall);
      expect(ev.utc_start_date).toBe(utc);
      expect(ev.end_date).toBe(wall);
      expect(ev.start_date_details).toStrictEqual(details(wall));
    });
  });

  describe('relative forms, read in the reference zone (README §6.2)', () => {
    for (const zone of ['UTC', 'America/New_York']) {
      it.each(RELATIVE)(`%s in ${zone}`, async (input, accept) => {
        const before = DateTime.now().setZone(zone);
        const ev = await startOf(input, zone === 'UTC' ? {} : { timezone: zone });
        const after = DateTime.now().setZone(zone);

        const got = parseIn(ev.start_date, zone);
        expect(got.isValid).toBe(true);
        expect({ input, start: ev.start_date, accepted: accept(got, before, after) }).toEqual({ input, start: ev.start_date, accepted: true });
        expect(ev.utc_start_date).toBe(sql(got.toUTC()));
      });
    }

    it('"today" differs between zones far apart', async () => {
      const tokyo = await startOf('today', { timezone: 'Asia/Tokyo' });
      const honolulu = await startOf('today', { timezone: 'Pacific/Honolulu' });

      expect(tokyo.start_date.endsWith(' 00:00:00')).toBe(true);
      expect(honolulu.start_date.endsWith(' 00:00:00')).toBe(true);
      // Tokyo is 19 hours ahead of Honolulu, so its "today" is the same or the next day
      const days = parseIn(tokyo.start_date, 'UTC').diff(parseIn(honolulu.start_date, 'UTC'), 'days').days;
      expect([0, 1]).toContain(days);
      expect(tokyo.utc_start_date).toBe(sql(parseIn(tokyo.start_date, 'Asia/Tokyo').toUTC()));
    });
  });

  describe('end before start (endpoints.md §4.3)', () => {
    it('sets the end equal to the start', async () => {
      const res = await post(eventInput({ start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 08:00:00', timezone: 'Europe/Berlin' }));

      expectStatus(res, 201);
      expect(res.body.end_date).toBe('2030-05-01 10:00:00');
      expect(res.body.utc_end_date).toBe('2030-05-01 08:00:00');
      expect(res.body.end_date_details).toStrictEqual(details('2030-05-01 10:00:00'));
    });
  });

  describe('time zones (README §7)', () => {
    it('09:00 in New York is 14:00 UTC before the DST change and 13:00 UTC after', async () => {
      const before = await createEvent(t, admin.authorization, {
        start_date: '2025-03-08 09:00:00',
        end_date: '2025-03-08 10:00:00',
        timezone: 'America/New_York',
      });
      const after = await createEvent(t, admin.authorization, {
        start_date: '2025-03-10 09:00:00',
        end_date: '2025-03-10 10:00:00',
        timezone: 'America/New_York',
      });

      expect(before).toMatchObject({
        start_date: '2025-03-08 09:00:00',
        utc_start_date: '2025-03-08 14:00:00',
        utc_end_date: '2025-03-08 15:00:00',
        timezone_abbr: 'EST',
      });
      expect(after).toMatchObject({
        start_date: '2025-03-10 09:00:00',
        utc_start_date: '2025-03-10 13:00:00',
        utc_end_date: '2025-03-10 14:00:00',
        timezone_abbr: 'EDT',
      });
      expect(after.utc_start_date_details).toStrictEqual(details('2025-03-10 13:00:00'));
    });

    it.each([
      ['UTC', '2030-06-01 10:00:00'],
      ['UTC+2', '2030-06-01 08:00:00'],
      ['UTC-3:30', '2030-06-01 13:30:00'],
      ['UTC+5:45', '2030-06-01 04:15:00'],
      ['Europe/Berlin', '2030-06-01 08:00:00'],
      ['Asia/Kolkata', '2030-06-01 04:30:00'],
    ])('a 10:00 event in %s starts at %s UTC', async (timezone, utc) => {
      const ev = await createEvent(t, admin.authorization, { start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 10:00:00', timezone });

      expect(ev.timezone).toBe(timezone);
      expect(ev.start_date).toBe('2030-06-01 10:00:00');
      expect(ev.utc_start_date).toBe(utc);
    });

    it('an empty timezone means the site time zone', async () => {
      const ev = await createEvent(t, admin.authorization, { timezone: '' });
      expect(ev.timezone).toBe('UTC');
    });

    it('rejects an unknown time zone', async () => {
      for (const timezone of ['Mars/Olympus', 'not a zone', 'UTC+x']) {
        expectInvalidParams(await post(eventInput({ timezone })), 'timezone');
      }
    });
  });

  describe('all-day events (README §7)', () => {
    it('widens the dates to 00:00:00 of the first day and 23:59:59 of the last, in the event zone', async () => {
      const ev = await createEvent(t, admin.authorization, {
        all_day: true,
        start_date: '2030-06-01 10:00:00',
        end_date: '2030-06-02 11:00:00',
        timezone: 'America/New_York',
      });

      expect(ev).toMatchObject({
        all_day: true,
        start_date: '2030-06-01 00:00:00',
        end_date: '2030-06-02 23:59:59',
        utc_start_date: '2030-06-01 04:00:00',
        utc_end_date: '2030-06-03 03:59:59',
      });
      expect(ev.end_date_details).toStrictEqual(details('2030-06-02 23:59:59'));
    });

    it('widening applies when all_day is set by an update', async () => {
      const ev = await createEvent(t, admin.authorization, { start_date: '2030-06-05 10:00:00', end_date: '2030-06-05 11:00:00' });

      const res = await update(ev.id, { all_day: 'true' });

      expectStatus(res, 200);
      expect(res.body).toMatchObject({ all_day: true, start_date: '2030-06-05 00:00:00', end_date: '2030-06-05 23:59:59' });
    });
  });

  describe('dates on update (endpoints.md §4.8)', () => {
    it('only start_date: the end stays unless it would precede the start', async () => {
      const ev = await createEvent(t, admin.authorization, { start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 12:00:00' });

      const earlier = await update(ev.id, { start_date: '2030-05-01 09:00:00' });
      expectStatus(earlier, 200);
      expect(earlier.body).toMatchObject({ start_date: '2030-05-01 09:00:00', end_date: '2030-05-01 12:00:00' });

      const later = await update(ev.id, { start_date: '2030-05-01 13:00:00' });
      expectStatus(later, 200);
      expect(later.body).toMatchObject({ start_date: '2030-05-01 13:00:00', end_date: '2030-05-01 13:00:00', utc_end_date: '2030-05-01 13:00:00' });
    });

    it('only end_date: the start stays', async () => {
      const ev = await createEvent(t, admin.authorization, { start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 12:00:00' });

      const res = await update(ev.id, { end_date: '2030-05-03 18:00:00' });

      expectStatus(res, 200);
      expect(res.body).toMatchObject({ start_date: '2030-05-01 10:00:00', end_date: '2030-05-03 18:00:00' });
    });

    it('a timezone change without dates keeps the wall clock and recomputes UTC', async () => {
      const ev = await createEvent(t, admin.authorization, { start_date: '2030-01-15 10:00:00', end_date: '2030-07-15 12:00:00' });

      const res = await update(ev.id, { timezone: 'America/New_York' });

      expectStatus(res, 200);
      expect(res.body).toMatchObject({
        timezone: 'America/New_York',
        timezone_abbr: 'EST',
        start_date: '2030-01-15 10:00:00',
        end_date: '2030-07-15 12:00:00',
        utc_start_date: '2030-01-15 15:00:00',
        utc_end_date: '2030-07-15 16:00:00',
      });
    });

    it('a timezone change with dates reads the dates in the new zone', async () => {
      const ev = await createEvent(t, admin.authorization);

      const res = await update(ev.id, { timezone: 'UTC+2', start_date: '2030-08-01 10:00:00', end_date: '2030-08-01 11:00:00' });

      expectStatus(res, 200);
      expect(res.body).toMatchObject({ timezone: 'UTC+2', timezone_abbr: 'UTC+2', start_date: '2030-08-01 10:00:00', utc_start_date: '2030-08-01 08:00:00' });
    });

    it('rejects empty and unparsable dates', async () => {
      const ev = await createEvent(t, admin.authorization);
      expectInvalidParams(await update(ev.id, { start_date: '', end_date: 'foo' }), 'start_date', 'end_date');
    });
  });
});
