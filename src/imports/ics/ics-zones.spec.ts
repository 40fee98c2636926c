import ICAL from 'ical.js';
import { DateTime, IANAZone } from 'luxon';
import { calendarText, customCentralEurope, INVENTED_ZONE, OUTLOOK_EASTERN, OUTLOOK_W_EUROPE } from '../../../test/support/ics-calendars';
import { displayNameToIana, fixedOffsetMinutes, ianaFromTzid, matchRules, TzidResolver, VtimezoneZone, windowsToIana } from './ics-zones';

const YEARS = { from: 2025, to: 2026 };

/** The VTIMEZONEs of a calendar made of these lines, by TZID. */
function vtimezones(lines: string[]): Map<string, ICAL.Component> {
  const root = new ICAL.Component(ICAL.parse(calendarText(lines)));
  return new Map(root.getAllSubcomponents('vtimezone').map((tz) => [String(tz.getFirstPropertyValue('tzid')), tz]));
}

describe('ianaFromTzid', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['/mozilla.org/20050126_1/Europe/Berlin', 'Europe/Berlin'],
    ['/citadel.org/20190914_1/America/New_York', 'America/New_York'],
    ['W. Europe Standard Time', null],
    ['Not/A_Zone', null],
  ])('%s → %s', (tzid, expected) => {
    expect(ianaFromTzid(tzid)).toBe(expected);
  });
});

describe('windowsToIana (CLDR windowsZones, territory 001)', () => {
  it.each([
    ['W. Europe Standard Time', 'Europe/Berlin'],
    ['Pacific Standard Time', 'America/Los_Angeles'],
    ['GMT Standard Time', 'Europe/London'],
    ['Eastern Standard Time', 'America/New_York'],
    ['Romance Standard Time', 'Europe/Paris'],
    ['Tokyo Standard Time', 'Asia/Tokyo'],
    ['AUS Eastern Standard Time', 'Australia/Sydney'],
    ['Made Up Standard Time', null],
  ])('%s → %s', (name, expected) => {
    expect(windowsToIana(name)).toBe(expected);
  });
});

describe('Windows display names and fixed offsets', () => {
  it.each([
    ['(UTC-05:00) Eastern Time (US & Canada)', 'America/New_York'],
    ['(GMT-05:00) Eastern Time (US & Canada)', 'America/New_York'],
    ['(UTC-08:00) Pacific Time (US & Canada)', 'America/Los_Angeles'],
    ['(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna', 'Europe/Berlin'],
    ['(GMT +01:00) Amsterdam, Berlin…', 'Europe/Berlin'],
    ['(GMT+01.00) Amsterdam / Berlin / Bern / Rome / Stockholm / Vienna', 'Europe/Berlin'],
    ['(UTC+01:00) Brussels, Copenhagen, Madrid, Paris', 'Europe/Paris'],
    ['(UTC) Dublin, Edinburgh, Lisbon, London', 'Europe/London'],
    ['(GMT) Greenwich Mean Time : Dublin, Edinburgh, Lisbon, London', 'Europe/London'],
    ['(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi', 'Asia/Calcutta'],
    ['(UTC+10:00) Canberra, Melbourne, Sydney', 'Australia/Sydney'],
    ['(UTC+09:00) Osaka, Sapporo, Tokyo', 'Asia/Tokyo'],
    ['(UTC-02:00) Coordinated Universal Time-02', 'UTC-2'],
    // A city under another offset than the name says is not taken.
    ['(UTC+03:00) Berlin', null],
    ['(UTC+01:00) Nowhere Town', null],
    ['W. Europe Standard Time', null],
  ])('%s → %s', (name, expected) => {
    expect(displayNameToIana(name)).toBe(expected);
  });

  it.each([
    ['UTC+01', 60],
    ['UTC-05:00', -300],
    ['GMT+5:30', 330],
    ['(UTC+01:00)', 60],
    ['UTC-02', -120],
    ['UTC', null],
    ['Europe/Berlin', null],
  ])('reads the fixed offset %s as %s minutes', (tzid, minutes) => {
    expect(fixedOffsetMinutes(tzid)).toBe(minutes);
  });
});

describe('VtimezoneZone', () => {
  it("gives Outlook's W. Europe rules the offsets of Europe/Berlin around both changes", () => {
    const zone = new VtimezoneZone(vtimezones(OUTLOOK_W_EUROPE).get('W. Europe Standard Time')!, 'W. Europe Standard Time');
    const berlin = IANAZone.create('Europe/Berlin');
    for (const iso of [
      '2025-03-30T00:59:00Z',
      '2025-03-30T01:00:00Z',
      '2025-10-26T00:59:00Z',
      '2025-10-26T01:00:00Z',
      '2025-07-01T12:00:00Z',
      '2026-01-01T00:00:00Z',
    ]) {
      const ms = Date.parse(iso);
      expect({ iso, offset: zone.offset(ms) }).toEqual({ iso, offset: berlin.offset(ms) });
    }
  });
});

describe('matchRules', () => {
  it('finds the IANA zone of a VTIMEZONE under a name no table knows', () => {
    const tz = vtimezones(customCentralEurope('Office time')).get('Office time')!;
    const matched = matchRules(new VtimezoneZone(tz, 'Office time'), YEARS);
    // Several zones share these rules; a zone Windows names (not e.g. Africa/Ceuta) is preferred.
    expect(['Europe/Berlin', 'Europe/Budapest', 'Europe/Paris', 'Europe/Warsaw']).toContain(matched);
  });

  it('prefers the zone the TZID or X-LIC-LOCATION names', () => {
    const tz = vtimezones(customCentralEurope('Office time', ['X-LIC-LOCATION:Europe/Rome'])).get('Office time')!;
    expect(matchRules(new VtimezoneZone(tz, 'Office time'), YEARS, ['Office time', 'Europe/Rome'])).toBe('Europe/Rome');
    const tz2 = vtimezones(customCentralEurope('(UTC+01:00) Amsterdam, Berlin')).get('(UTC+01:00) Amsterdam, Berlin')!;
    expect(matchRules(new VtimezoneZone(tz2, 'x'), YEARS, ['(UTC+01:00) Amsterdam, Berlin'])).toBe('Europe/Amsterdam');
  });

  it('matches US rules to an Eastern zone, not to a zone with other change dates', () => {
    const tz = vtimezones(OUTLOOK_EASTERN).get('Eastern Standard Time')!;
    const matched = matchRules(new VtimezoneZone(tz, 'x'), YEARS)!;
    const zone = IANAZone.create(matched);
    // Same offsets as New York at both of 2025's changes, to the minute.
    for (const iso of ['2025-03-09T06:59:00Z', '2025-03-09T07:00:00Z', '2025-11-02T05:59:00Z', '2025-11-02T06:00:00Z']) {
      expect(zone.offset(Date.parse(iso))).toBe(IANAZone.create('America/New_York').offset(Date.parse(iso)));
    }
  });

  it('finds nothing for rules no IANA zone has', () => {
    const tz = vtimezones(INVENTED_ZONE).get('Invented Time')!;
    expect(matchRules(new VtimezoneZone(tz, 'Invented Time'), YEARS)).toBeNull();
  });
});

describe('TzidResolver', () => {
  const zones = vtimezones([...OUTLOOK_W_EUROPE, ...customCentralEurope('Custom CE'), ...INVENTED_ZONE]);
  const resolver = new TzidResolver(zones, YEARS);

  it('reads IANA names, Windows names and VTIMEZONEs, in that order', () => {
    expect(resolver.resolve('America/Chicago')).toMatchObject({ name: 'America/Chicago', how: 'iana' });
    expect(resolver.resolve('W. Europe Standard Time')).toMatchObject({ name: 'Europe/Berlin', how: 'windows' });
    expect(resolver.resolve('Custom CE')).toMatchObject({ how: 'vtimezone' });
  });

  it("keeps a VTIMEZONE's own rules when no IANA zone matches", () => {
    const found = resolver.resolve('Invented Time')!;
    expect(found).toMatchObject({ name: null, how: 'rules' });
    expect(found.rules.offset(DateTime.fromISO('2025-07-01T00:00:00Z').toMillis())).toBe(150);
    expect(found.rules.offset(DateTime.fromISO('2025-12-01T00:00:00Z').toMillis())).toBe(90);
  });

  it("reads fixed offsets as the service's UTC±N zones (Windows' UTC-02 too), and Windows display names", () => {
    expect(resolver.resolve('UTC+01')).toMatchObject({ name: 'UTC+1', how: 'fixed' });
    expect(resolver.resolve('UTC-02')).toMatchObject({ name: 'UTC-2', how: 'fixed' });
    expect(resolver.resolve('GMT+05:30')).toMatchObject({ name: 'UTC+5:30', how: 'fixed' });
    expect(resolver.resolve('(UTC-05:00) Eastern Time (US & Canada)')).toMatchObject({ name: 'America/New_York', how: 'display' });
    expect(resolver.resolve('(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna')).toMatchObject({ name: 'Europe/Berlin', how: 'display' });
  });

  it('answers null for a TZID nothing describes', () => {
    expect(resolver.resolve('Somewhere Standard Time')).toBeNull();
  });
});
