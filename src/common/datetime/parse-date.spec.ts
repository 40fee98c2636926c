import { DateTime } from 'luxon';
import { formatSql, toIsoWithOffset } from './format';
import { endOfDay, parseDateInput, startOfDay } from './parse-date';

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';

/** Wednesday 2025-03-12, 14:25:36.789 in New York (EDT, three days after the spring-forward switch). */
const NOW = DateTime.fromISO('2025-03-12T14:25:36.789', { zone: NY });

/** The parse result as ISO with offset, so every expectation pins both wall time and instant. */
function parse(input: unknown, zone = NY, now: DateTime = NOW): string | null {
  const dt = parseDateInput(input, zone, now);
  return dt ? toIsoWithOffset(dt) : null;
}

function nowAt(iso: string, zone: string): DateTime {
  return DateTime.fromISO(iso, { zone });
}

describe('parseDateInput: the grammar of spec README §6.2 (reference zone New York, now = Wed 2025-03-12 14:25:36)', () => {
  it.each([
    // canonical: wall-clock time in the reference zone
    ['2025-03-14 09:30:00', '2025-03-14T09:30:00-04:00'],
    ['2025-03-14 09:30', '2025-03-14T09:30:00-04:00'],
    ['2025-03-14', '2025-03-14T00:00:00-04:00'],
    ['2025-03-01', '2025-03-01T00:00:00-05:00'],
    ['2025-1-5', '2025-01-05T00:00:00-05:00'],
    ['2025-03-14 9:30', '2025-03-14T09:30:00-04:00'],
    // ISO 8601: without an offset a wall time; with Z or an offset an instant, shown in the reference zone
    ['2025-03-14T09:30:00', '2025-03-14T09:30:00-04:00'],
    ['2025-03-14T09:30:00Z', '2025-03-14T05:30:00-04:00'],
    ['2025-03-14T09:30:00+02:00', '2025-03-14T03:30:00-04:00'],
    ['2025-03-14T09:30:00-0330', '2025-03-14T09:00:00-04:00'],
    ['2025-03-14T09:30:00+05', '2025-03-14T00:30:00-04:00'],
    ['2025-03-14T09:30:00.123Z', '2025-03-14T05:30:00-04:00'],
    ['2025-03-14T09:30Z', '2025-03-14T05:30:00-04:00'],
    ['2025-03-14 09:30:00Z', '2025-03-14T05:30:00-04:00'],
    // Unix timestamp
    ['1741944600', '2025-03-14T05:30:00-04:00'],
    ['0', '1969-12-31T19:00:00-05:00'],
    ['@1741944600', '2025-03-14T05:30:00-04:00'],
    // relative words
    ['now', '2025-03-12T14:25:36-04:00'],
    ['today', '2025-03-12T00:00:00-04:00'],
    ['midnight', '2025-03-12T00:00:00-04:00'],
    ['noon', '2025-03-12T12:00:00-04:00'],
    ['tomorrow', '2025-03-13T00:00:00-04:00'],
    ['yesterday', '2025-03-11T00:00:00-04:00'],
    // weekdays at 00:00 (today is a Wednesday)
    ['monday', '2025-03-17T00:00:00-04:00'],
    ['wednesday', '2025-03-12T00:00:00-04:00'],
    ['friday', '2025-03-14T00:00:00-04:00'],
    ['this friday', '2025-03-14T00:00:00-04:00'],
    ['next wednesday', '2025-03-19T00:00:00-04:00'],
    ['next friday', '2025-03-14T00:00:00-04:00'],
    ['last friday', '2025-03-07T00:00:00-05:00'],
    ['last wednesday', '2025-03-05T00:00:00-05:00'],
    ['previous tuesday', '2025-03-11T00:00:00-04:00'],
    ['wed', '2025-03-12T00:00:00-04:00'],
    ['thurs', '2025-03-13T00:00:00-04:00'],
    ['sat', '2025-03-15T00:00:00-04:00'],
    ['sun', '2025-03-16T00:00:00-04:00'],
    // time suffixes
    ['tomorrow 9am', '2025-03-13T09:00:00-04:00'],
    ['next wednesday 4pm', '2025-03-19T16:00:00-04:00'],
    ['2018-01-01 4pm', '2018-01-01T16:00:00-05:00'],
    ['today 14:00', '2025-03-12T14:00:00-04:00'],
    ['+5 days 11am', '2025-03-17T11:00:00-04:00'],
    ['9:30pm', '2025-03-12T21:30:00-04:00'],
    ['14:00:00', '2025-03-12T14:00:00-04:00'],
    ['14:00', '2025-03-12T14:00:00-04:00'],
    ['7:05', '2025-03-12T07:05:00-04:00'],
    ['00:00', '2025-03-12T00:00:00-04:00'],
    ['23:59:59', '2025-03-12T23:59:59-04:00'],
    ['9am', '2025-03-12T09:00:00-04:00'],
    ['9 am', '2025-03-12T09:00:00-04:00'],
    ['9a.m.', '2025-03-12T09:00:00-04:00'],
    ['12am', '2025-03-12T00:00:00-04:00'],
    ['12pm', '2025-03-12T12:00:00-04:00'],
    ['12:30am', '2025-03-12T00:30:00-04:00'],
    ['11:59:59 pm', '2025-03-12T23:59:59-04:00'],
    // offsets: days, weeks, months, years move the calendar; hours, minutes, seconds are elapsed time
    ['+1 day', '2025-03-13T14:25:36-04:00'],
    ['-2 weeks', '2025-02-26T14:25:36-05:00'],
    ['+24 months', '2027-03-12T14:25:36-05:00'],
    ['+5 weeks +7200 seconds', '2025-04-16T16:25:36-04:00'],
    ['+1 month', '2025-04-12T14:25:36-04:00'],
    ['1 day', '2025-03-13T14:25:36-04:00'],
    ['+1day', '2025-03-13T14:25:36-04:00'],
    ['+1 fortnight', '2025-03-26T14:25:36-04:00'],
    ['+2 fortnights', '2025-04-09T14:25:36-04:00'],
    ['+1 year', '2026-03-12T14:25:36-04:00'],
    ['-1 year', '2024-03-12T14:25:36-04:00'],
    ['+3 hours', '2025-03-12T17:25:36-04:00'],
    ['+90 minutes', '2025-03-12T15:55:36-04:00'],
    ['-30 mins', '2025-03-12T13:55:36-04:00'],
    ['+1 hour +30 min +15 sec', '2025-03-12T15:55:51-04:00'],
    ['+10 secs', '2025-03-12T14:25:46-04:00'],
    ['+1 week 2 days', '2025-03-21T14:25:36-04:00'],
    ['next month', '2025-04-12T14:25:36-04:00'],
    ['last week', '2025-03-05T14:25:36-05:00'],
    ['next year', '2026-03-12T14:25:36-04:00'],
    ['2 days ago', '2025-03-10T14:25:36-04:00'],
    ['+1 week ago', '2025-03-05T14:25:36-05:00'],
    // combinations
    ['tomorrow noon', '2025-03-13T12:00:00-04:00'],
    ['today noon', '2025-03-12T12:00:00-04:00'],
    ['next monday 9:30am', '2025-03-17T09:30:00-04:00'],
    ['2025-03-14 +1 day', '2025-03-15T00:00:00-04:00'],
    ['+1 day 2025-03-14', '2025-03-15T00:00:00-04:00'],
    ['2025-03-14 09:30 +1 hour', '2025-03-14T10:30:00-04:00'],
    ['2025-03-14T09:30:00Z +1 day', '2025-03-15T05:30:00-04:00'],
    ['tomorrow +2 hours', '2025-03-13T02:00:00-04:00'],
    ['yesterday 23:59:59', '2025-03-11T23:59:59-04:00'],
    ['now +1 day', '2025-03-13T14:25:36-04:00'],
    ['2025-03-14 friday', '2025-03-14T00:00:00-04:00'],
    ['2025-03-14 monday', '2025-03-17T00:00:00-04:00'],
    ['next monday +1 day', '2025-03-18T00:00:00-04:00'],
    // case and whitespace do not matter
    ['  TOMORROW   9AM  ', '2025-03-13T09:00:00-04:00'],
    ['Next Wednesday 4PM', '2025-03-19T16:00:00-04:00'],
    ['\t2025-03-14\n', '2025-03-14T00:00:00-04:00'],
    ['2025-03-14t09:30:00z', '2025-03-14T05:30:00-04:00'],
  ])('%j → %s', (input, expected) => {
    expect(parse(input)).toBe(expected);
  });

  // Behaviours a PHP user may not guess but that PHP has (and so TEC).
  it.each([
    // date words reset the clock, so a time before them is lost (PHP manual, "Relative Formats")
    ['9am tomorrow', '2025-03-13T00:00:00-04:00'],
    ['noon tomorrow', '2025-03-13T00:00:00-04:00'],
    ['9am tomorrow 10am', '2025-03-13T10:00:00-04:00'],
    // months and years overflow the day instead of clamping it
    ['2025-01-31 +1 month', '2025-03-03T00:00:00-05:00'],
    ['2025-03-31 -1 month', '2025-03-03T00:00:00-05:00'],
    ['2024-02-29 +1 year', '2025-03-01T00:00:00-05:00'],
    ['2025-01-30 +1 month -1 day', '2025-03-01T00:00:00-05:00'],
    // any run of digits is a timestamp, even one that looks like a year
    ['2025', '1969-12-31T19:33:45-05:00'],
  ])('%j → %s (as PHP does)', (input, expected) => {
    expect(parse(input)).toBe(expected);
  });

  it.each([
    // [today, 'monday', 'next monday', 'last monday']
    ['2025-03-10T10:00:00', '2025-03-10', '2025-03-17', '2025-03-03'], // a Monday
    ['2025-03-12T10:00:00', '2025-03-17', '2025-03-17', '2025-03-10'], // a Wednesday
    ['2025-03-16T10:00:00', '2025-03-17', '2025-03-17', '2025-03-10'], // a Sunday
  ])('on %s: monday = %s, next monday = %s, last monday = %s', (today, plain, next, last) => {
    const now = nowAt(today, 'UTC');
    expect(parse('monday', 'UTC', now)).toBe(`${plain}T00:00:00+00:00`);
    expect(parse('next monday', 'UTC', now)).toBe(`${next}T00:00:00+00:00`);
    expect(parse('last monday', 'UTC', now)).toBe(`${last}T00:00:00+00:00`);
  });

  it.each([
    ['foo'],
    ['before my birthday'],
    ['not a strtotime parsable string'],
    [''],
    ['   '],
    ['2025-02-30'],
    ['2025-02-29'],
    ['2025-13-01'],
    ['2025-00-10'],
    ['2025-03-14 24:00'],
    ['25:00'],
    ['2025-03-14 23:60'],
    ['14:00:61'],
    ['13pm'],
    ['0am'],
    ['noon 9am'],
    ['9am 10am'],
    ['2025-03-14 2025-03-15'],
    ['monday friday'],
    ['next'],
    ['next foo'],
    ['last 5'],
    ['+1'],
    ['+1 dayz'],
    ['1.5 days'],
    ['ago'],
    ['tomorrow foo'],
    ['2025-03-14T'],
    ['2025-03-14Tnoon'],
    ['2025-03-14T09:30:00+25:00'],
    ['14:00:00:00'],
    ['-1741944600'],
    ['12345678901234567890'],
    ['@'],
    ['@1741944600 2025-03-14'],
    ['9999-12-31 +1 day'],
  ])('%j → null', (input) => {
    expect(parseDateInput(input, NY, NOW)).toBeNull();
  });
});

describe('parseDateInput: values that are not strings', () => {
  it.each([
    [1741944600, '2025-03-14T05:30:00-04:00'],
    [0, '1969-12-31T19:00:00-05:00'],
    [-86400, '1969-12-30T19:00:00-05:00'],
  ])('the JSON number %d is a Unix timestamp → %s', (input, expected) => {
    expect(parse(input)).toBe(expected);
  });

  it.each([[1.5], [Number.NaN], [Number.POSITIVE_INFINITY], [2 ** 60], [253402400000], [null], [undefined], [true], [{}], [[]], [['2025-03-14']]])(
    '%p → null',
    (input) => {
      expect(parseDateInput(input, NY, NOW)).toBeNull();
    },
  );
});

describe('parseDateInput: the reference zone', () => {
  /** 23:30 UTC on Wednesday: already Thursday in Tokyo and Kathmandu, still Wednesday in New York. */
  const LATE = nowAt('2025-03-12T23:30:00', 'UTC');

  it.each([
    ['today', 'Asia/Tokyo', '2025-03-13T00:00:00+09:00'],
    ['today', NY, '2025-03-12T00:00:00-04:00'],
    ['today', 'UTC', '2025-03-12T00:00:00+00:00'],
    ['today', 'UTC+5:45', '2025-03-13T00:00:00+05:45'],
    ['today', 'UTC-3:30', '2025-03-12T00:00:00-03:30'],
    ['now', 'UTC-3:30', '2025-03-12T20:00:00-03:30'],
    ['now', 'UTC+5:45', '2025-03-13T05:15:00+05:45'],
    ['tomorrow 9am', 'UTC+5:45', '2025-03-14T09:00:00+05:45'],
    ['tomorrow 9am', 'UTC-3:30', '2025-03-13T09:00:00-03:30'],
    ['thursday', 'Asia/Tokyo', '2025-03-13T00:00:00+09:00'],
    ['thursday', NY, '2025-03-13T00:00:00-04:00'],
    ['2025-03-14 09:30', 'UTC+5:45', '2025-03-14T09:30:00+05:45'],
    ['2025-03-14 09:30', 'UTC-3:30', '2025-03-14T09:30:00-03:30'],
    ['2025-03-14T09:30:00Z', 'UTC-3:30', '2025-03-14T06:00:00-03:30'],
    ['2025-03-14T09:30:00Z', 'UTC+5:45', '2025-03-14T15:15:00+05:45'],
    ['1741944600', 'UTC+5:45', '2025-03-14T15:15:00+05:45'],
    ['1741944600', 'UTC', '2025-03-14T09:30:00+00:00'],
    ['2025-03-14 09:30', BERLIN, '2025-03-14T09:30:00+01:00'],
    ['2025-03-14 09:30', 'Asia/Kathmandu', '2025-03-14T09:30:00+05:45'],
  ])('%j in %s → %s', (input, zone, expected) => {
    expect(parse(input, zone, LATE)).toBe(expected);
  });

  it('returns a DateTime in the reference zone, at seconds precision', () => {
    const dt = parseDateInput('now', 'UTC+5:45', NOW);
    expect(dt?.zoneName).toBe('UTC+5:45');
    expect(dt?.millisecond).toBe(0);
    expect(parseDateInput('2025-03-14T09:30:00Z', BERLIN, NOW)?.zoneName).toBe(BERLIN);
  });

  it('throws on an invalid reference zone or now (programming errors, not bad input)', () => {
    expect(() => parseDateInput('now', 'Nowhere/Special', NOW)).toThrow(RangeError);
    expect(() => parseDateInput('now', NY, DateTime.invalid('broken'))).toThrow(RangeError);
  });
});

describe('parseDateInput: daylight saving time', () => {
  it.each([
    // a wall time in the spring-forward gap moves forward by the gap; a repeated one is the earlier
    ['2025-03-09 02:30', NY, '2025-03-09T03:30:00-04:00'],
    ['2025-11-02 01:30', NY, '2025-11-02T01:30:00-04:00'],
    ['2025-03-30 02:30', BERLIN, '2025-03-30T03:30:00+02:00'],
    ['2025-10-26 02:30', BERLIN, '2025-10-26T02:30:00+02:00'],
    // either side of the switch
    ['2025-03-09 01:59:59', NY, '2025-03-09T01:59:59-05:00'],
    ['2025-03-09 03:00', NY, '2025-03-09T03:00:00-04:00'],
    ['2025-11-02 02:00', NY, '2025-11-02T02:00:00-05:00'],
    ['2025-10-26 03:00', BERLIN, '2025-10-26T03:00:00+01:00'],
  ])('%j in %s → %s', (input, zone, expected) => {
    expect(parse(input, zone)).toBe(expected);
  });

  it.each([
    // [now (wall), zone, input, expected]: days keep the wall clock, hours are elapsed time
    ['2025-03-08T09:00:00', NY, '+1 day', '2025-03-09T09:00:00-04:00'],
    ['2025-03-08T09:00:00', NY, 'tomorrow 9am', '2025-03-09T09:00:00-04:00'],
    ['2025-03-08T09:00:00', NY, '+24 hours', '2025-03-09T10:00:00-04:00'],
    ['2025-03-08T09:00:00', NY, '+1 week', '2025-03-15T09:00:00-04:00'],
    ['2025-11-01T09:00:00', NY, '+1 day', '2025-11-02T09:00:00-05:00'],
    ['2025-11-01T09:00:00', NY, '+24 hours', '2025-11-02T08:00:00-05:00'],
    ['2025-03-29T09:00:00', BERLIN, '+1 day', '2025-03-30T09:00:00+02:00'],
    ['2025-03-29T09:00:00', BERLIN, '+24 hours', '2025-03-30T10:00:00+02:00'],
    ['2025-10-25T09:00:00', BERLIN, '+1 day', '2025-10-26T09:00:00+01:00'],
    ['2025-10-25T09:00:00', BERLIN, '+24 hours', '2025-10-26T08:00:00+01:00'],
    ['2025-03-09T01:30:00', NY, '+1 hour', '2025-03-09T03:30:00-04:00'],
    ['2025-11-02T00:30:00', NY, 'today 1:30am', '2025-11-02T01:30:00-04:00'],
    ['2025-11-01T12:00:00', NY, 'tomorrow 1:30am', '2025-11-02T01:30:00-04:00'],
    ['2025-11-02T12:00:00', NY, 'yesterday 1:30am', '2025-11-01T01:30:00-04:00'],
    ['2025-11-02T01:30:00-04:00', NY, 'now', '2025-11-02T01:30:00-04:00'],
    ['2025-11-02T01:30:00-04:00', NY, '+1 hour', '2025-11-02T01:30:00-05:00'],
  ])('now %s %s: %j → %s', (now, zone, input, expected) => {
    expect(parse(input, zone, nowAt(now, zone))).toBe(expected);
  });
});

describe('parseDateInput: instants in a repeated hour keep their offset', () => {
  /** 06:30 UTC on 2025-11-02 is the second 01:30 in New York (EST), an hour after the first (EDT). */
  const SECOND_ONE_THIRTY = DateTime.fromISO('2025-11-02T06:30:00Z').setZone(NY);

  it.each([
    ['now', '2025-11-02T01:30:00-05:00'],
    ['1762065000', '2025-11-02T01:30:00-05:00'],
    ['@1762065000', '2025-11-02T01:30:00-05:00'],
    ['2025-11-02T06:30:00Z', '2025-11-02T01:30:00-05:00'],
    ['2025-11-02T01:30:00-05:00', '2025-11-02T01:30:00-05:00'],
    ['2025-11-02T01:30:00-04:00', '2025-11-02T01:30:00-04:00'],
    ['+10 minutes', '2025-11-02T01:40:00-05:00'],
    // a wall time that was changed is placed afresh: the first 01:00
    ['1:00am', '2025-11-02T01:00:00-04:00'],
  ])('now = second 01:30: %j → %s', (input, expected) => {
    expect(parse(input, NY, SECOND_ONE_THIRTY)).toBe(expected);
  });
});

describe('startOfDay / endOfDay', () => {
  it.each([
    ['2025-03-14T15:45:12.345', NY, '2025-03-14T00:00:00-04:00', '2025-03-14T23:59:59-04:00'],
    // 23-hour and 25-hour days
    ['2025-03-09T12:00:00', NY, '2025-03-09T00:00:00-05:00', '2025-03-09T23:59:59-04:00'],
    ['2025-11-02T12:00:00', NY, '2025-11-02T00:00:00-04:00', '2025-11-02T23:59:59-05:00'],
    ['2025-03-30T12:00:00', BERLIN, '2025-03-30T00:00:00+01:00', '2025-03-30T23:59:59+02:00'],
    ['2025-10-26T12:00:00', BERLIN, '2025-10-26T00:00:00+02:00', '2025-10-26T23:59:59+01:00'],
    // a day without a midnight: Chile springs forward at 24:00
    ['2025-09-07T12:00:00', 'America/Santiago', '2025-09-07T01:00:00-03:00', '2025-09-07T23:59:59-03:00'],
    ['2025-03-14T00:00:00', 'UTC+5:45', '2025-03-14T00:00:00+05:45', '2025-03-14T23:59:59+05:45'],
    ['2025-03-14T23:59:59', 'UTC-3:30', '2025-03-14T00:00:00-03:30', '2025-03-14T23:59:59-03:30'],
  ])('%s in %s → %s … %s', (iso, zone, start, end) => {
    const dt = DateTime.fromISO(iso, { zone });
    expect(toIsoWithOffset(startOfDay(dt))).toBe(start);
    expect(toIsoWithOffset(endOfDay(dt))).toBe(end);
    expect(startOfDay(dt).millisecond).toBe(0);
    expect(endOfDay(dt).millisecond).toBe(0);
    expect(endOfDay(dt).zoneName).toBe(zone);
  });

  // All-day events (spec README §7): start at 00:00:00 of the first day, end at 23:59:59 of the last.
  it.each([
    // [zone, start input, end input, start wall, end wall, start UTC, end UTC]
    [NY, '2025-03-14', '2025-03-14', '2025-03-14 00:00:00', '2025-03-14 23:59:59', '2025-03-14 04:00:00', '2025-03-15 03:59:59'],
    [NY, '2025-03-14 15:00', '2025-03-16 10:00', '2025-03-14 00:00:00', '2025-03-16 23:59:59', '2025-03-14 04:00:00', '2025-03-17 03:59:59'],
    [NY, '2025-03-08', '2025-03-10', '2025-03-08 00:00:00', '2025-03-10 23:59:59', '2025-03-08 05:00:00', '2025-03-11 03:59:59'],
    [BERLIN, '2025-10-25', '2025-10-27', '2025-10-25 00:00:00', '2025-10-27 23:59:59', '2025-10-24 22:00:00', '2025-10-27 22:59:59'],
    ['UTC+5:45', '2025-03-14', '2025-03-15', '2025-03-14 00:00:00', '2025-03-15 23:59:59', '2025-03-13 18:15:00', '2025-03-15 18:14:59'],
    ['UTC-3:30', 'tomorrow', 'next monday', '2025-03-13 00:00:00', '2025-03-17 23:59:59', '2025-03-13 03:30:00', '2025-03-18 03:29:59'],
  ])('%s: %j … %j → %s … %s (UTC %s … %s)', (zone, startInput, endInput, startWall, endWall, startUtc, endUtc) => {
    const start = startOfDay(parseDateInput(startInput, zone, NOW) as DateTime);
    const end = endOfDay(parseDateInput(endInput, zone, NOW) as DateTime);
    expect([formatSql(start), formatSql(end)]).toEqual([startWall, endWall]);
    expect([formatSql(start.toUTC()), formatSql(end.toUTC())]).toEqual([startUtc, endUtc]);
  });
});

describe('parseDateInput: arithmetic beyond what a date holds is no date (never an exception)', () => {
  const now = DateTime.fromISO('2025-03-01T12:00:00Z', { zone: 'utc' });
  it.each([8640000000001, '8640000000001', '99999999999999', '+9999999 years', '-9999999 years', 'now +99999999999 days', '+1e308 seconds', 9007199254740991])(
    '%p → null',
    (input) => {
      expect(parseDateInput(input, 'UTC', now)).toBeNull();
    },
  );
});
