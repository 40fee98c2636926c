// A wall time a zone repeats (clocks going back) or skips (clocks going
// forward) is written in UTC form in the iCalendar export, so that a client reads the instant
// the API's utc_* dates say; ical.js (like node-ical, ts-ics and Python's icalendar) reads
// `DTSTART;TZID=Europe/Paris:20271031T023000` at the second pass, one hour after the first.
// Times that name one instant keep the TZID form (ical.md, Export).
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { createEvent, EventBody, uid } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { sql } from '../../support/events';

describe('iCalendar export: ambiguous and skipped local times', () => {
  let t: TestApp;
  let admin: string;
  const tok = uid('amb');
  const ev: Record<string, EventBody> = {};

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('amb-admin', 'administrator')).authorization;
    const make = async (name: string, timezone: string, start_date: string, end_date: string) => {
      ev[name] = await createEvent(t, admin, { title: `${name} ${tok}`, timezone, start_date, end_date });
    };
    // Paris goes back from 03:00 CEST to 02:00 CET on 31 October 2027: 02:00–02:59 happen twice.
    await make('parisRepeatedStart', 'Europe/Paris', '2027-10-31 02:30:00', '2027-10-31 04:00:00');
    await make('parisRepeatedEnd', 'Europe/Paris', '2027-10-31 00:30:00', '2027-10-31 02:15:00');
    // New York goes back from 02:00 EDT to 01:00 EST on 7 November 2027.
    await make('newYorkRepeated', 'America/New_York', '2027-11-07 01:30:00', '2027-11-07 05:00:00');
    // Paris goes forward from 02:00 CET to 03:00 CEST on 28 March 2027: 02:00–02:59 do not happen.
    await make('parisSkipped', 'Europe/Paris', '2027-03-28 02:30:00', '2027-03-28 05:00:00');
    // The same evening and night, away from the change: one instant each, TZID form.
    await make('parisPlain', 'Europe/Paris', '2027-10-30 20:00:00', '2027-10-30 23:00:00');
  });
  afterAll(async () => t?.close());

  /** The feed of the events above, parsed by ical.js with its VTIMEZONEs registered; VEVENTs by UID. */
  async function feed(): Promise<Map<string, ICAL.Component>> {
    const res = await http(t).get(`${API}/events.ics?search=${tok}&start_date=2027-01-01&end_date=2028-01-31`);
    expectStatus(res, 200);
    const root = new ICAL.Component(ICAL.parse(res.text));
    ICAL.TimezoneService.reset();
    for (const tz of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    return new Map(root.getAllSubcomponents('vevent').map((v) => [String(v.getFirstPropertyValue('uid')), v]));
  }

  const utcOf = (v: ICAL.Component, name: string) => sql(DateTime.fromSeconds((v.getFirstPropertyValue(name) as ICAL.Time).toUnixTime(), { zone: 'utc' }));
  const tzidOf = (v: ICAL.Component, name: string) => v.getFirstProperty(name)!.getParameter('tzid');

  it('every time, parsed back with ical.js, is the instant of the API’s utc_start_date and utc_end_date', async () => {
    const events = await feed();
    expect(events.size).toBe(Object.keys(ev).length);
    for (const [name, e] of Object.entries(ev)) {
      const v = events.get(e.global_id as string)!;
      expect({ name, start: utcOf(v, 'dtstart'), end: utcOf(v, 'dtend') }).toEqual({ name, start: e.utc_start_date, end: e.utc_end_date });
    }
  });

  it('writes an event with a time in a repeated hour in UTC form, every other timed event as local time with TZID', async () => {
    const events = await feed();
    const forms = Object.fromEntries(
      Object.entries(ev).map(([name, e]) => {
        const v = events.get(e.global_id as string)!;
        return [name, [tzidOf(v, 'dtstart') ?? 'UTC form', tzidOf(v, 'dtend') ?? 'UTC form']];
      }),
    );
    expect(forms).toEqual({
      // ical-generator writes one zone per event: a start or end that needs UTC form takes both.
      parisRepeatedStart: ['UTC form', 'UTC form'],
      parisRepeatedEnd: ['UTC form', 'UTC form'],
      newYorkRepeated: ['UTC form', 'UTC form'],
      // The API stores a skipped wall time at the instant after the gap (03:30 CEST), which names one instant.
      parisSkipped: ['Europe/Paris', 'Europe/Paris'],
      parisPlain: ['Europe/Paris', 'Europe/Paris'],
    });
    expect(ev.parisSkipped).toMatchObject({ start_date: '2027-03-28 03:30:00', utc_start_date: '2027-03-28 01:30:00' });
    // The UTC form is `…Z`, the instant itself.
    const repeated = events.get(ev.parisRepeatedStart.global_id as string)!;
    expect((repeated.getFirstPropertyValue('dtstart') as ICAL.Time).zone?.tzid).toBe('UTC');
  });
});
