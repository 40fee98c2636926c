// The site time zone (spec README §6.1, §6.2, §7): CALENDAR_TIMEZONE=Europe/Berlin.
import { DateTime } from 'luxon';
import { createTestApp, TestApp } from '../../support/test-app';
import { queryOf } from '../../support/http';
import { Caller, createEvent, makeUsers, uid } from '../../support/api';
import { listEvents, parseIn, sql } from '../../support/events';
import { expectStatus } from '../../support/expect';

const at = (d: DateTime, hour: number, minute = 0) => d.set({ hour, minute, second: 0, millisecond: 0 });

describe('events: site time zone Europe/Berlin (README §6.1, §7)', () => {
  let t: TestApp;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_TIMEZONE: 'Europe/Berlin' });
    admin = (await makeUsers(t)).admin;
  });
  afterAll(async () => t?.close());

  it('gives a new event the site zone and reads its dates there', async () => {
    const ev = await createEvent(t, admin.authorization, { start_date: '2030-01-15 10:00:00', end_date: '2030-07-15 10:00:00' });

    expect(ev).toMatchObject({
      timezone: 'Europe/Berlin',
      timezone_abbr: 'CET',
      start_date: '2030-01-15 10:00:00',
      utc_start_date: '2030-01-15 09:00:00',
      utc_end_date: '2030-07-15 08:00:00',
    });
  });

  it('date is in the site zone and date_utc in UTC', async () => {
    const winter = await createEvent(t, admin.authorization, { date: '2024-01-10 12:00:00' });
    const summer = await createEvent(t, admin.authorization, { date: '2024-07-10 12:00:00' });
    const fromUtc = await createEvent(t, admin.authorization, { date_utc: '2024-07-10 12:00:00' });

    expect(winter).toMatchObject({ date: '2024-01-10 12:00:00', date_utc: '2024-01-10 11:00:00' });
    expect(summer).toMatchObject({ date: '2024-07-10 12:00:00', date_utc: '2024-07-10 10:00:00' });
    expect(fromUtc).toMatchObject({ date: '2024-07-10 14:00:00', date_utc: '2024-07-10 12:00:00' });
  });

  it('modified is in the site zone too', async () => {
    const ev = await createEvent(t, admin.authorization);

    expect(ev.modified).toBe(sql(parseIn(ev.modified_utc, 'UTC').setZone('Europe/Berlin')));
    expect(ev.date).toBe(sql(parseIn(ev.date_utc, 'UTC').setZone('Europe/Berlin')));
    expect(ev.date).not.toBe(ev.date_utc);
  });

  it('reads relative words in the site zone when no timezone is given', async () => {
    const before = DateTime.now().setZone('Europe/Berlin');
    const ev = await createEvent(t, admin.authorization, { start_date: 'tomorrow 9am', end_date: 'tomorrow 10am' });
    const after = DateTime.now().setZone('Europe/Berlin');

    const candidates = [before, after].map((n) => sql(at(n.plus({ days: 1 }), 9)));
    expect(candidates).toContain(ev.start_date);
    expect(ev.utc_start_date).toBe(sql(parseIn(ev.start_date, 'Europe/Berlin').toUTC()));
  });

  it('converts an ISO instant into the site zone', async () => {
    const ev = await createEvent(t, admin.authorization, { start_date: '2030-01-15T10:00:00Z', end_date: '2030-01-15T11:00:00Z' });

    expect(ev).toMatchObject({ start_date: '2030-01-15 11:00:00', utc_start_date: '2030-01-15 10:00:00' });
  });

  it('starts the default list window at yesterday 00:00 in the site zone', async () => {
    const tok = uid();
    const zoneNow = DateTime.now().setZone('Europe/Berlin');
    const tomorrow = at(zoneNow.plus({ days: 1 }), 10);
    const ev = await createEvent(t, admin.authorization, { title: `Berlin ${tok}`, start_date: sql(tomorrow), end_date: sql(tomorrow.plus({ hours: 1 })) });

    const before = DateTime.now().setZone('Europe/Berlin');
    const res = await listEvents(t, `search=${tok}`);
    const after = DateTime.now().setZone('Europe/Berlin');

    expectStatus(res, 200);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([ev.id]);
    expect([before, after].map((n) => sql(n.minus({ days: 1 }).startOf('day')))).toContain(queryOf(res.body.rest_url).start_date);
  });

  it('reads list dates in the site zone', async () => {
    const res = await listEvents(t, `start_date=${encodeURIComponent('2030-01-15T23:30:00Z')}&end_date=2030-01-20`);

    expectStatus(res, 200);
    expect(queryOf(res.body.rest_url)).toMatchObject({ start_date: '2030-01-16 00:00:00', end_date: '2030-01-20 23:59:59' });
  });
});
