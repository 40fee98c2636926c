import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';
import { formatUtcOffset, isAmbiguousLocalTime, isRepeatedLocalTime, offsetChanges, vtimezone, zoneChanges } from './vtimezone';

const utc = (iso: string) => DateTime.fromISO(iso, { zone: 'utc' }).toMillis();
const iso = (ms: number) => DateTime.fromMillis(ms, { zone: 'utc' }).toISO({ suppressMilliseconds: true });

/** `local` (a wall time in `tzid`) resolved to UTC by ical.js with the VTIMEZONE we wrote. */
function resolveWithIcalJs(vtz: string, tzid: string, local: string): string {
  const component = new ICAL.Component(ICAL.parse(`BEGIN:VCALENDAR\r\n${vtz}\r\nEND:VCALENDAR`)).getFirstSubcomponent('vtimezone')!;
  const zone = new ICAL.Timezone(component);
  const time = ICAL.Time.fromDateTimeString(local);
  time.zone = zone;
  return DateTime.fromSeconds(time.toUnixTime(), { zone: 'utc' }).toISO({ suppressMilliseconds: true })!;
}

describe('offsetChanges', () => {
  it.each([
    [
      'America/New_York',
      2026,
      [
        ['2026-03-08T07:00:00Z', -300, -240],
        ['2026-11-01T06:00:00Z', -240, -300],
      ],
    ],
    [
      'Europe/London',
      2026,
      [
        ['2026-03-29T01:00:00Z', 0, 60],
        ['2026-10-25T01:00:00Z', 60, 0],
      ],
    ],
    [
      'Australia/Sydney',
      2026,
      [
        ['2026-04-04T16:00:00Z', 660, 600],
        ['2026-10-03T16:00:00Z', 600, 660],
      ],
    ],
    ['Asia/Kolkata', 2026, []],
  ])('finds the changes of %s in %i to the minute', (name, year, expected) => {
    const changes = offsetChanges(IANAZone.create(name), Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1));
    expect(changes.map((c) => [iso(c.atMs), c.from, c.to])).toEqual(expected);
  });

  it('finds nothing outside the range it is given', () => {
    expect(offsetChanges(IANAZone.create('America/New_York'), utc('2026-03-09T00:00:00Z'), utc('2026-10-31T00:00:00Z'))).toEqual([]);
  });
});

describe('formatUtcOffset', () => {
  it.each([
    [0, '+0000'],
    [330, '+0530'],
    [-180, '-0300'],
    [-210, '-0330'],
    [345, '+0545'],
    [840, '+1400'],
  ])('%i minutes → %s', (minutes, text) => expect(formatUtcOffset(minutes)).toBe(text));
});

describe('vtimezone', () => {
  it('writes the offset at the start of the span, then one observance per change', () => {
    const text = vtimezone('America/New_York', { from: 2026, to: 2026 })!;
    expect(text.split('\r\n')).toEqual([
      'BEGIN:VTIMEZONE',
      'TZID:America/New_York',
      'X-LIC-LOCATION:America/New_York',
      'BEGIN:STANDARD',
      'DTSTART:20251230T190000',
      'TZOFFSETFROM:-0500',
      'TZOFFSETTO:-0500',
      'TZNAME:EST',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:20260308T020000',
      'TZOFFSETFROM:-0500',
      'TZOFFSETTO:-0400',
      'TZNAME:EDT',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20261101T020000',
      'TZOFFSETFROM:-0400',
      'TZOFFSETTO:-0500',
      'TZNAME:EST',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });

  it('covers every year of the span', () => {
    const text = vtimezone('Europe/London', { from: 2026, to: 2028 })!;
    expect(text.match(/^BEGIN:DAYLIGHT$/gm)).toHaveLength(3);
    expect(text).toContain('DTSTART:20280326T010000');
  });

  it('gives a zone without changes its one offset', () => {
    const text = vtimezone('Asia/Kolkata', { from: 2026, to: 2027 })!;
    expect(text).toContain('TZOFFSETTO:+0530');
    expect(text.match(/^BEGIN:(STANDARD|DAYLIGHT)$/gm)).toEqual(['BEGIN:STANDARD']);
  });

  it.each(['UTC', 'UTC+5:30', 'UTC-3', 'Mars/Olympus'])('has nothing for %s (not an IANA zone)', (name) => {
    expect(vtimezone(name, { from: 2026, to: 2026 })).toBeNull();
  });

  it.each([
    ['America/New_York', '2026-03-07T12:00:00', '2026-03-07T17:00:00Z'],
    ['America/New_York', '2026-03-08T03:30:00', '2026-03-08T07:30:00Z'],
    ['America/New_York', '2026-07-04T21:00:00', '2026-07-05T01:00:00Z'],
    ['America/New_York', '2026-11-01T03:00:00', '2026-11-01T08:00:00Z'],
    ['Australia/Sydney', '2026-01-15T19:30:00', '2026-01-15T08:30:00Z'],
    ['Australia/Sydney', '2026-06-15T19:30:00', '2026-06-15T09:30:00Z'],
    ['Europe/London', '2026-10-25T12:00:00', '2026-10-25T12:00:00Z'],
    ['Asia/Kolkata', '2026-02-01T09:00:00', '2026-02-01T03:30:00Z'],
  ])('lets ical.js resolve %s %s to %s', (name, local, expected) => {
    expect(resolveWithIcalJs(vtimezone(name, { from: 2026, to: 2026 })!, name, local)).toBe(expected);
  });
});

describe('isRepeatedLocalTime', () => {
  const ny = zoneChanges('America/New_York', { from: 2026, to: 2026 });

  it.each([
    ['2026-11-01T05:30:00Z', false], // 01:30 EDT, the first pass
    ['2026-11-01T06:30:00Z', true], // 01:30 EST, the second pass
    ['2026-11-01T07:30:00Z', false], // 02:30 EST, after the repeated hour
    ['2026-03-08T07:30:00Z', false], // 03:30 EDT, the day clocks go forward
    ['2026-07-01T12:00:00Z', false],
  ])('%s → %s in New York', (instant, expected) => expect(isRepeatedLocalTime(ny, utc(instant))).toBe(expected));

  it('is never true for a zone without changes', () => {
    expect(isRepeatedLocalTime(zoneChanges('Asia/Kolkata', { from: 2026, to: 2026 }), utc('2026-11-01T06:30:00Z'))).toBe(false);
  });
});

describe('isAmbiguousLocalTime', () => {
  const paris = zoneChanges('Europe/Paris', { from: 2027, to: 2027 });

  it.each([
    ['2027-10-30T23:59:00Z', false], // 01:59 CEST, before the repeated hour
    ['2027-10-31T00:00:00Z', true], // 02:00 CEST, the first pass begins
    ['2027-10-31T00:30:00Z', true], // 02:30 CEST, the first pass
    ['2027-10-31T01:30:00Z', true], // 02:30 CET, the second pass
    ['2027-10-31T02:00:00Z', false], // 03:00 CET, after it
    ['2027-03-28T01:30:00Z', false], // 03:30 CEST, just after the skipped hour
  ])('%s → %s in Paris', (instant, expected) => expect(isAmbiguousLocalTime(paris, utc(instant))).toBe(expected));
});
