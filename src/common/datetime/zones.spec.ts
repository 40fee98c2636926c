import { DateTime } from 'luxon';
import { isFixedOffsetName, isValidTimezone, numericAbbr, requireZone, resolveZone, timezoneAbbr } from './zones';

const JAN = DateTime.fromISO('2025-01-15T12:00:00Z', { zone: 'utc' });
const JUL = DateTime.fromISO('2025-07-15T12:00:00Z', { zone: 'utc' });

describe('resolveZone', () => {
  it.each([
    ['America/New_York', 'iana', 'America/New_York', JAN, -300],
    ['America/New_York', 'iana', 'America/New_York', JUL, -240],
    ['Europe/Berlin', 'iana', 'Europe/Berlin', JUL, 120],
    ['Etc/GMT+5', 'iana', 'Etc/GMT+5', JAN, -300],
    ['UTC', 'fixed', 'UTC', JAN, 0],
    ['UTC+0', 'fixed', 'UTC', JAN, 0],
    ['UTC+2', 'fixed', 'UTC+2', JUL, 120],
    ['UTC-3:30', 'fixed', 'UTC-3:30', JAN, -210],
    ['UTC+5:45', 'fixed', 'UTC+5:45', JAN, 345],
    ['UTC+10', 'fixed', 'UTC+10', JAN, 600],
    ['UTC+02:00', 'fixed', 'UTC+2', JAN, 120],
    ['UTC+14', 'fixed', 'UTC+14', JAN, 840],
    ['UTC-14', 'fixed', 'UTC-14', JAN, -840],
    ['UTC-12', 'fixed', 'UTC-12', JAN, -720],
  ])('%s → %s zone %s, offset at %s = %d min', (name, type, zoneName, at, offset) => {
    const zone = resolveZone(name);
    expect(zone).not.toBeNull();
    expect(zone?.type).toBe(type);
    expect(zone?.name).toBe(zoneName);
    expect(zone?.offset(at.toMillis())).toBe(offset);
  });

  it.each([
    ['UTC+15'],
    ['UTC+14:30'],
    ['UTC-14:01'],
    ['UTC+5:60'],
    ['UTC+5:7'],
    ['UTC+'],
    ['UTC+123'],
    ['UTC 2'],
    ['utc+2'],
    ['GMT+2'],
    ['+02:00'],
    ['Mars/Olympus'],
    ['America/New York'],
    ['Factory'],
    ['local'],
    [''],
    [' UTC'],
  ])('%j is not a zone', (name) => {
    expect(resolveZone(name)).toBeNull();
    expect(isValidTimezone(name)).toBe(false);
  });
});

describe('isValidTimezone / isFixedOffsetName', () => {
  it.each([
    ['America/New_York', true, false],
    ['Asia/Kathmandu', true, false],
    ['UTC', true, true],
    ['UTC+5:45', true, true],
    ['UTC-3:30', true, true],
    ['UTC+15', false, false],
    ['Nowhere/Special', false, false],
  ])('%s: valid %s, fixed offset %s', (name, valid, fixed) => {
    expect(isValidTimezone(name)).toBe(valid);
    expect(isFixedOffsetName(name)).toBe(fixed);
  });
});

describe('requireZone', () => {
  it('returns the zone for a valid name and throws for an invalid one', () => {
    expect(requireZone('UTC-3:30').name).toBe('UTC-3:30');
    expect(() => requireZone('Nowhere/Special')).toThrow('Invalid time zone: Nowhere/Special');
  });
});

describe('timezoneAbbr', () => {
  it.each([
    // the spec's own examples (README §7)
    ['America/New_York', '2025-01-15T12:00:00Z', 'EST'],
    ['America/New_York', '2025-07-15T12:00:00Z', 'EDT'],
    ['Europe/Berlin', '2025-01-15T12:00:00Z', 'CET'],
    ['Europe/Berlin', '2025-07-15T12:00:00Z', 'CEST'],
    ['Europe/London', '2025-01-15T12:00:00Z', 'GMT'],
    ['Europe/London', '2025-07-15T12:00:00Z', 'BST'],
    ['Australia/Sydney', '2025-01-15T12:00:00Z', 'AEDT'],
    ['Australia/Sydney', '2025-07-15T12:00:00Z', 'AEST'],
    ['Asia/Tokyo', '2025-07-15T12:00:00Z', 'JST'],
    ['Asia/Kolkata', '2025-07-15T12:00:00Z', 'IST'],
    ['Europe/Dublin', '2025-07-15T12:00:00Z', 'IST'],
    ['Europe/Dublin', '2025-01-15T12:00:00Z', 'GMT'],
    ['America/Los_Angeles', '2025-07-15T12:00:00Z', 'PDT'],
    ['America/Halifax', '2025-01-15T12:00:00Z', 'AST'],
    ['America/St_Johns', '2025-01-15T12:00:00Z', 'NST'],
    ['Pacific/Honolulu', '2025-07-15T12:00:00Z', 'HST'],
    ['Europe/Moscow', '2025-07-15T12:00:00Z', 'MSK'],
    ['Asia/Shanghai', '2025-07-15T12:00:00Z', 'CST'],
    ['Africa/Johannesburg', '2025-07-15T12:00:00Z', 'SAST'],
    ['Pacific/Auckland', '2025-01-15T12:00:00Z', 'NZDT'],
    ['UTC', '2025-07-15T12:00:00Z', 'UTC'],
    ['Etc/UTC', '2025-07-15T12:00:00Z', 'UTC'],
    ['Etc/GMT', '2025-07-15T12:00:00Z', 'GMT'],
    // links resolve like their target
    ['US/Eastern', '2025-07-15T12:00:00Z', 'EDT'],
    ['Europe/Jersey', '2025-07-15T12:00:00Z', 'BST'],
    // no alphabetic abbreviation in IANA: the numeric form, even where some locale invents a name
    ['Asia/Dubai', '2025-07-15T12:00:00Z', '+04'],
    ['Asia/Singapore', '2025-07-15T12:00:00Z', '+08'],
    ['Asia/Kathmandu', '2025-07-15T12:00:00Z', '+0545'],
    ['Asia/Tehran', '2025-07-15T12:00:00Z', '+0330'],
    ['Asia/Colombo', '2025-07-15T12:00:00Z', '+0530'],
    ['Europe/Istanbul', '2025-07-15T12:00:00Z', '+03'],
    ['Europe/Minsk', '2025-07-15T12:00:00Z', '+03'],
    ['America/Sao_Paulo', '2025-07-15T12:00:00Z', '-03'],
    ['Pacific/Marquesas', '2025-07-15T12:00:00Z', '-0930'],
    ['Etc/GMT+5', '2025-07-15T12:00:00Z', '-05'],
    // UTC±N: the zone text itself
    ['UTC+2', '2025-07-15T12:00:00Z', 'UTC+2'],
    ['UTC-3:30', '2025-07-15T12:00:00Z', 'UTC-3:30'],
    ['UTC+5:45', '2025-01-15T12:00:00Z', 'UTC+5:45'],
    ['UTC', '2025-01-15T12:00:00Z', 'UTC'],
  ])('%s at %s → %s', (zone, instant, abbr) => {
    expect(timezoneAbbr(zone, DateTime.fromISO(instant, { zone: 'utc' }))).toBe(abbr);
  });

  it.each([
    // the first and last second on either side of a switch
    ['America/New_York', '2025-03-09T06:59:59Z', 'EST'],
    ['America/New_York', '2025-03-09T07:00:00Z', 'EDT'],
    ['America/New_York', '2025-11-02T05:59:59Z', 'EDT'],
    ['America/New_York', '2025-11-02T06:00:00Z', 'EST'],
    ['Europe/Berlin', '2025-03-30T00:59:59Z', 'CET'],
    ['Europe/Berlin', '2025-03-30T01:00:00Z', 'CEST'],
    ['Europe/Berlin', '2025-10-26T00:59:59Z', 'CEST'],
    ['Europe/Berlin', '2025-10-26T01:00:00Z', 'CET'],
  ])('%s at %s → %s (DST switch)', (zone, instant, abbr) => {
    expect(timezoneAbbr(zone, DateTime.fromISO(instant, { zone: 'utc' }))).toBe(abbr);
  });

  it('does not depend on the zone the instant is expressed in', () => {
    const instant = DateTime.fromISO('2025-07-15T12:00:00', { zone: 'Asia/Tokyo' });
    expect(timezoneAbbr('America/New_York', instant)).toBe('EDT');
  });

  it.each([
    ['Nowhere/Special', JAN],
    ['UTC+15', JAN],
    ['America/New_York', DateTime.invalid('test')],
  ])('is empty for an invalid zone or instant (%s)', (zone, instant) => {
    expect(timezoneAbbr(zone, instant)).toBe('');
  });
});

describe('numericAbbr', () => {
  it.each([
    [0, '+00'],
    [180, '+03'],
    [345, '+0545'],
    [330, '+0530'],
    [-210, '-0330'],
    [-300, '-05'],
    [840, '+14'],
    [-570, '-0930'],
  ])('%d min → %s', (offset, text) => {
    expect(numericAbbr(offset)).toBe(text);
  });
});
