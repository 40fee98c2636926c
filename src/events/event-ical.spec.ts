import ical, { escape, ICalCalendarMethod } from 'ical-generator';
import ICAL from 'ical.js';
import { vtimezone } from '../common/ical/vtimezone';
import { IcalEventJson, icalEvent, eventIcal, eventFileName, eventTimes, locationOf, organizerOf, sequenceOf, zoneSpans } from './event-ical';

function event(overrides: Partial<IcalEventJson> = {}): IcalEventJson {
  return {
    id: 12,
    global_id: 'example.org?id=12',
    slug: 'jazz-night',
    url: 'https://example.org/event/jazz-night/',
    title: 'Jazz night',
    description: '<p>Bring a friend</p>',
    all_day: false,
    start_date: '2030-06-01 19:00:00',
    end_date: '2030-06-01 22:00:00',
    utc_start_date: '2030-06-01 23:00:00',
    utc_end_date: '2030-06-02 02:00:00',
    timezone: 'America/New_York',
    date_utc: '2029-01-01 10:00:00',
    modified_utc: '2029-02-01 10:00:00',
    categories: [],
    venue: [],
    organizer: [],
    ...overrides,
  };
}

const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');
const vevents = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');

describe('eventTimes', () => {
  it('writes a timed event in its zone, from the UTC dates', () => {
    const t = eventTimes(event());
    expect({ allDay: t.allDay, start: t.start.toISO(), end: t.end.toISO(), timezone: t.timezone }).toEqual({
      allDay: false,
      start: '2030-06-01T19:00:00.000-04:00',
      end: '2030-06-01T22:00:00.000-04:00',
      timezone: 'America/New_York',
    });
  });

  it.each(['UTC', 'UTC+5:30', 'UTC-3'])('writes a %s event in UTC form (no TZID)', (timezone) => {
    expect(eventTimes(event({ timezone })).timezone).toBeNull();
  });

  it('writes a time at either pass of a repeated hour in UTC form', () => {
    // 01:30 EST on 2030-11-03, after New York's clocks went back from 02:00 EDT
    expect(eventTimes(event({ utc_start_date: '2030-11-03 06:30:00', utc_end_date: '2030-11-03 08:00:00' })).timezone).toBeNull();
    // 01:30 EDT, the first pass: ical.js and others read that local time at the second
    expect(eventTimes(event({ utc_start_date: '2030-11-03 05:30:00', utc_end_date: '2030-11-03 08:00:00' })).timezone).toBeNull();
    // an end in the repeated hour takes the event to UTC form too
    expect(eventTimes(event({ utc_start_date: '2030-11-03 03:00:00', utc_end_date: '2030-11-03 05:15:00' })).timezone).toBeNull();
    // 00:30 EDT, before the repeated hour; 02:00 EST, after it
    expect(eventTimes(event({ utc_start_date: '2030-11-03 04:30:00', utc_end_date: '2030-11-03 07:00:00' })).timezone).toBe('America/New_York');
  });

  it('writes the times of an event on a day clocks go forward as local time, never a skipped one', () => {
    // 03:30 EDT on 2030-03-10, just after New York skipped 02:00-02:59
    const t = eventTimes(event({ utc_start_date: '2030-03-10 07:30:00', utc_end_date: '2030-03-10 09:00:00' }));
    expect({ timezone: t.timezone, start: t.start.toISO() }).toEqual({ timezone: 'America/New_York', start: '2030-03-10T03:30:00.000-04:00' });
  });

  it('gives an all-day event dates, ending the day after its last day', () => {
    const t = eventTimes(event({ all_day: true, start_date: '2030-12-30 00:00:00', end_date: '2031-01-02 23:59:59' }));
    expect({ allDay: t.allDay, start: t.start.toISODate(), end: t.end.toISODate(), timezone: t.timezone }).toEqual({
      allDay: true,
      start: '2030-12-30',
      end: '2031-01-03',
      timezone: null,
    });
  });
});

describe('locationOf', () => {
  it('joins the name and the address parts that are there with ", "', () => {
    const venue = { id: 3, venue: 'Blue Note', address: '131 W 3rd St', city: 'New York', stateprovince: 'NY', zip: '10012', country: 'United States' };
    expect(locationOf(venue)).toEqual({ title: 'Blue Note, 131 W 3rd St, New York, NY, 10012, United States' });
    expect(locationOf({ id: 3, venue: 'Park', city: 'Rome', zip: '' })).toEqual({ title: 'Park, Rome' });
  });

  it('gives plain text, and GEO when the venue has coordinates', () => {
    expect(locationOf({ venue: 'Caf&eacute; <b>Bleu</b> &amp; Co', geo_lat: 48.85, geo_lng: 2.35 })).toEqual({
      title: 'Caf&eacute; Bleu & Co',
      geo: { lat: 48.85, lon: 2.35 },
    });
  });

  it('has none without a venue', () => {
    expect(locationOf([])).toBeUndefined();
    expect(locationOf({ id: 3, venue: '' })).toBeUndefined();
  });
});

describe('organizerOf', () => {
  it('names the organizer with its e-mail', () => {
    expect(organizerOf({ organizer: 'Ann "Jazz" Lee', email: 'ann@example.org' })).toEqual({ name: "Ann 'Jazz' Lee", email: 'ann@example.org' });
  });

  it.each([[{ organizer: 'No mail' }], [{ organizer: 'Bad', email: 'not an address' }], [undefined]])('has none without an e-mail: %j', (organizer) => {
    expect(organizerOf(organizer)).toBeUndefined();
  });
});

describe('sequenceOf', () => {
  it('grows with the modification date', () => {
    expect(sequenceOf('2020-01-01 00:00:00')).toBe(0);
    expect(sequenceOf('2020-01-01 00:01:40')).toBe(100);
    expect(sequenceOf('2030-01-01 00:00:01')).toBeGreaterThan(sequenceOf('2030-01-01 00:00:00'));
    expect(sequenceOf('2019-05-01 00:00:00')).toBe(0);
  });
});

describe('zoneSpans', () => {
  it('gives each IANA zone the years its timed events touch', () => {
    const spans = zoneSpans([
      event({ utc_start_date: '2030-12-31 23:00:00', utc_end_date: '2031-01-01 02:00:00' }),
      event({ utc_start_date: '2029-03-01 10:00:00', utc_end_date: '2029-03-01 12:00:00' }),
      event({ timezone: 'Asia/Kolkata' }),
      event({ timezone: 'UTC+5:30' }),
      event({ timezone: 'Europe/London', all_day: true }),
    ]);
    expect(Object.fromEntries(spans)).toEqual({ 'America/New_York': { from: 2029, to: 2031 }, 'Asia/Kolkata': { from: 2030, to: 2030 } });
  });
});

describe('zoneSpans of a recurring VEVENT', () => {
  it('reach the year of the last occurrence it stands for (lastUtc), not only its DTSTART', () => {
    const series = event({ id: 5, timezone: 'Australia/Lord_Howe', utc_start_date: '2027-01-05 08:00:00', utc_end_date: '2027-01-05 09:30:00' });
    const other = event({ id: 6, timezone: 'Australia/Lord_Howe', utc_start_date: '2026-12-01 08:00:00', utc_end_date: '2026-12-01 09:00:00' });
    expect(Object.fromEntries(zoneSpans([series, other], new Map([[5, '2029-12-25 09:30:00']])))).toEqual({ 'Australia/Lord_Howe': { from: 2026, to: 2029 } });
  });

  it('give the calendar a VTIMEZONE with every change up to there (Lord Howe: 30 minutes)', () => {
    const series = event({
      id: 5,
      timezone: 'Australia/Lord_Howe',
      start_date: '2027-01-05 19:00:00',
      end_date: '2027-01-05 20:30:00',
      utc_start_date: '2027-01-05 08:00:00',
      utc_end_date: '2027-01-05 09:30:00',
    });
    const text = eventIcal([series], { name: 'Site', lastUtc: new Map([[5, '2029-12-25 09:30:00']]) });
    const zone = text.slice(text.indexOf('BEGIN:VTIMEZONE'), text.indexOf('END:VTIMEZONE'));
    // Summer time starts on the first Sunday of October (+1030 → +1100) and ends on the first Sunday of April.
    for (const year of [2027, 2028, 2029]) expect(zone).toMatch(new RegExp(`DTSTART:${year}10\\d\\dT020000\r\nTZOFFSETFROM:\\+1030\r\nTZOFFSETTO:\\+1100`));
    expect(zone).toContain('DTSTART:20290401T020000');
  });
});

describe('eventFileName', () => {
  it.each([
    ['jazz-night', 'jazz-night.ics'],
    ['%e2%82%ac-night', 'event-12.ics'],
    ['a"b', 'event-12.ics'],
  ])('%s → %s', (slug, name) => expect(eventFileName({ id: 12, slug })).toBe(name));
});

describe('icalEvent', () => {
  it('maps every property of the table', () => {
    const data = icalEvent(
      event({
        title: 'Jazz &amp; <em>Blues</em>',
        categories: [{ name: 'Music' }, { name: 'Jazz &amp; Blues' }],
        venue: { venue: 'Hall' },
        organizer: [
          { organizer: 'Ann', email: 'ann@example.org' },
          { organizer: 'Bob', email: 'bob@example.org' },
        ],
      }),
    );
    expect(data).toMatchObject({
      id: 'example.org?id=12',
      summary: 'Jazz & Blues',
      description: { plain: 'Bring a friend', html: '<p>Bring a friend</p>' },
      location: { title: 'Hall' },
      url: 'https://example.org/event/jazz-night/',
      categories: [{ name: 'Music' }, { name: 'Jazz & Blues' }],
      organizer: { name: 'Ann', email: 'ann@example.org' },
      status: 'CONFIRMED',
      class: 'PUBLIC',
    });
  });

  it('has no DESCRIPTION for an empty description', () => {
    expect(icalEvent(event({ description: '' })).description).toBeUndefined();
  });
});

describe('eventIcal', () => {
  const text = eventIcal(
    [
      event({
        title: 'Semi; colon, comma \\ backslash',
        description: `<p>Line one<br />\nLine two, with; marks</p>\n<p>${'A long paragraph to fold. '.repeat(8)}</p>`,
      }),
      event({ id: 13, global_id: 'example.org?id=13', timezone: 'Asia/Kolkata', utc_start_date: '2030-06-01 03:30:00', utc_end_date: '2030-06-01 05:30:00' }),
      event({ id: 14, global_id: 'example.org?id=14', timezone: 'UTC-3', utc_start_date: '2030-06-01 13:00:00', utc_end_date: '2030-06-01 15:00:00' }),
    ],
    { name: 'Jazz, Blues; more' },
  );

  it('is a PUBLISH calendar with its name, CRLF line ends and lines of at most 75 octets', () => {
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//calendar-events//calendar-events//EN\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const lines = unfold(text).split('\r\n');
    expect(lines).toEqual(expect.arrayContaining(['CALSCALE:GREGORIAN', 'METHOD:PUBLISH', 'X-WR-CALNAME:Jazz\\, Blues\\; more']));
  });

  it('is what ical-generator writes when it folds and asks for the zones itself', () => {
    const events = [
      event({ title: `Long title ${'é€🎷'.repeat(30)}` }),
      event({ id: 13, global_id: 'example.org?id=13', timezone: 'Asia/Kolkata', utc_start_date: '2030-06-01 03:30:00', utc_end_date: '2030-06-01 05:30:00' }),
      event({ id: 14, global_id: 'example.org?id=14', all_day: true }),
    ];
    const library = ical({
      prodId: { company: 'calendar-events', product: 'calendar-events', language: 'EN' },
      method: ICalCalendarMethod.PUBLISH,
      scale: 'GREGORIAN',
      name: escape('Jazz, Blues; more', false),
      timezone: { name: '', generator: (zone) => vtimezone(zone, { from: 2030, to: 2030 }) },
    });
    for (const e of events) library.createEvent(icalEvent(e));
    expect(eventIcal(events, { name: 'Jazz, Blues; more' })).toBe(library.toString());
  });

  it('has one VTIMEZONE per IANA zone used, none for UTC±N', () => {
    expect(unfold(text).match(/^TZID:.*$/gm)).toEqual(['TZID:America/New_York', 'TZID:Asia/Kolkata']);
  });

  it('escapes TEXT values and folds long ones', () => {
    const lines = unfold(text).split('\r\n');
    expect(lines).toContain('SUMMARY:Semi\\; colon\\, comma \\\\ backslash');
    expect(lines).toContain(`DESCRIPTION:Line one\\nLine two\\, with\\; marks\\n\\n${'A long paragraph to fold. '.repeat(8).trim()}`);
    expect(text).toMatch(/\r\n /); // a folded line
  });

  it('parses in ical.js to the same values and UTC times', () => {
    const parsed = new ICAL.Component(ICAL.parse(text));
    for (const tz of parsed.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    const [first, kolkata, offset] = vevents(text).map((v) => new ICAL.Event(v));
    expect(first.summary).toBe('Semi; colon, comma \\ backslash');
    expect(first.description.startsWith('Line one\nLine two, with; marks\n\nA long')).toBe(true);
    expect(first.startDate.toJSDate().toISOString()).toBe('2030-06-01T23:00:00.000Z');
    expect(kolkata.startDate.toJSDate().toISOString()).toBe('2030-06-01T03:30:00.000Z');
    expect(kolkata.startDate.zone.tzid).toBe('Asia/Kolkata');
    expect(offset.startDate.toJSDate().toISOString()).toBe('2030-06-01T13:00:00.000Z');
    expect(offset.startDate.zone.tzid).toBe('UTC');
  });
});

describe("eventIcal in TEC's shape", () => {
  const tec = { siteUrl: 'https://events.example.org', timezone: 'Europe/Rome' };

  it("has TEC's header lines, escaped where they are text", () => {
    const text = unfold(eventIcal([event()], { name: 'Jazz, Blues; Co', tec }));
    const lines = text.split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'PRODID:-//Jazz\\, Blues\\; Co - ECPv6.17.2 (calendar-events)//NONSGML v1.0//EN',
        'CALSCALE:GREGORIAN',
        'METHOD:PUBLISH',
        'X-WR-CALNAME:Jazz\\, Blues\\; Co',
        'X-WR-CALDESC:Events for Jazz\\, Blues\\; Co',
        'X-ORIGINAL-URL:https://events.example.org',
        'X-WR-TIMEZONE:Europe/Rome',
      ]),
    );
    // The header comes before the first component, and the events keep their UTC stamps.
    expect(lines.indexOf('X-WR-TIMEZONE:Europe/Rome')).toBeLessThan(lines.indexOf('BEGIN:VTIMEZONE'));
    expect(lines.find((l) => l.startsWith('DTSTAMP:'))).toMatch(/Z$/);
  });

  it("gives every event TEC's UID, over an extension's", () => {
    const text = eventIcal([event(), event({ id: 13, utc_start_date: '2030-06-08 23:00:00', utc_end_date: '2030-06-09 02:00:00' })], {
      name: 'Events',
      tec,
      uids: new Map([[13, 'example.org?id=12']]),
    });
    expect(vevents(text).map((v) => v.getFirstPropertyValue('uid'))).toEqual([
      '12-1906585200-1906596000@events.example.org',
      '13-1907190000-1907200800@events.example.org',
    ]);
  });

  it("the service's own shape names no TEC release", () => {
    expect(eventIcal([event()], { name: 'Events' })).not.toContain('ECPv');
  });
});
