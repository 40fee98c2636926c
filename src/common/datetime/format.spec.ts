import { DateTime, Settings } from 'luxon';
import {
  atWallTime,
  dateDetails,
  formatSql,
  isoAtWallTime,
  isoStartOfDay,
  parseSql,
  SQL_FORMAT,
  toIsoWithOffset,
  utcSqlMillis,
  utcToWall,
  wallToUtc,
} from './format';
import { requireZone } from './zones';

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const SYDNEY = 'Australia/Sydney';

describe('formatSql', () => {
  it('uses the spec format', () => {
    expect(SQL_FORMAT).toBe('yyyy-MM-dd HH:mm:ss');
  });

  it.each([
    ['2025-03-14T09:30:00.999', NY, '2025-03-14 09:30:00'],
    ['2025-01-02T03:04:05', 'UTC', '2025-01-02 03:04:05'],
    ['0999-12-31T23:59:59', 'UTC', '0999-12-31 23:59:59'],
    ['2025-03-14T09:30:00', 'UTC+5:45', '2025-03-14 09:30:00'],
  ])('%s in %s → %s (wall time, zero-padded, no milliseconds)', (iso, zone, sql) => {
    expect(formatSql(DateTime.fromISO(iso, { zone }))).toBe(sql);
  });

  it('refuses an invalid date-time', () => {
    expect(() => formatSql(DateTime.invalid('broken'))).toThrow(RangeError);
  });
});

describe('parseSql', () => {
  it.each([
    ['2025-03-14 09:30:00', NY, '2025-03-14T09:30:00-04:00'],
    ['2025-01-14 09:30:00', NY, '2025-01-14T09:30:00-05:00'],
    ['2025-03-14 09:30:00', 'UTC', '2025-03-14T09:30:00+00:00'],
    ['2025-03-14 09:30:00', 'UTC+5:45', '2025-03-14T09:30:00+05:45'],
    ['2025-03-14 09:30:00', 'UTC-3:30', '2025-03-14T09:30:00-03:30'],
    ['2024-02-29 23:59:59', BERLIN, '2024-02-29T23:59:59+01:00'],
  ])('%s read in %s → %s', (sql, zone, iso) => {
    const dt = parseSql(sql, zone);
    expect(toIsoWithOffset(dt)).toBe(iso);
    expect(formatSql(dt)).toBe(sql);
  });

  it('accepts a luxon Zone as well as a name', () => {
    const zone = DateTime.now().setZone(BERLIN).zone;
    expect(toIsoWithOffset(parseSql('2025-07-01 12:00:00', zone))).toBe('2025-07-01T12:00:00+02:00');
  });

  it.each([
    ['2025-03-14'],
    ['2025-03-14 09:30'],
    ['2025-03-14T09:30:00'],
    [' 2025-03-14 09:30:00'],
    ['2025-03-14 09:30:00Z'],
    ['2025-3-14 09:30:00'],
    ['2025-02-30 00:00:00'],
    ['2025-13-01 00:00:00'],
    ['2025-03-14 24:00:00'],
    ['2025-03-14 09:60:00'],
    [''],
  ])('throws on %j', (sql) => {
    expect(() => parseSql(sql, 'UTC')).toThrow(RangeError);
  });

  it('throws on an invalid zone', () => {
    expect(() => parseSql('2025-03-14 09:30:00', 'Nowhere/Special')).toThrow('Invalid time zone: Nowhere/Special');
  });
});

describe('dateDetails', () => {
  it.each([
    ['2025-03-14 09:30:00', { year: '2025', month: '03', day: '14', hour: '09', minutes: '30', seconds: '00' }],
    ['0999-01-02 03:04:05', { year: '0999', month: '01', day: '02', hour: '03', minutes: '04', seconds: '05' }],
    ['2025-12-31 23:59:59', { year: '2025', month: '12', day: '31', hour: '23', minutes: '59', seconds: '59' }],
  ])('%s', (sql, details) => {
    expect(dateDetails(sql)).toEqual(details);
  });

  it('throws on a non-canonical string', () => {
    expect(() => dateDetails('2025-03-14T09:30:00')).toThrow(RangeError);
  });
});

describe('toIsoWithOffset', () => {
  it.each([
    ['2025-04-12T19:30:00.456', NY, '2025-04-12T19:30:00-04:00'],
    ['2025-01-12T19:30:00', NY, '2025-01-12T19:30:00-05:00'],
    ['2025-03-14T09:30:00', 'UTC', '2025-03-14T09:30:00+00:00'],
    ['2025-03-14T09:30:00', 'Etc/UTC', '2025-03-14T09:30:00+00:00'],
    ['2025-03-14T09:30:00', 'Asia/Kathmandu', '2025-03-14T09:30:00+05:45'],
    ['2025-03-14T09:30:00', 'UTC-3:30', '2025-03-14T09:30:00-03:30'],
    ['2025-07-01T00:00:00', BERLIN, '2025-07-01T00:00:00+02:00'],
  ])('%s in %s → %s', (iso, zone, out) => {
    expect(toIsoWithOffset(DateTime.fromISO(iso, { zone }))).toBe(out);
  });

  it('refuses an invalid date-time', () => {
    expect(() => toIsoWithOffset(DateTime.invalid('broken'))).toThrow(RangeError);
  });
});

describe('wallToUtc / utcToWall', () => {
  // [zone, wall clock at the event, UTC]
  const roundTrips: [string, string, string][] = [
    // a 09:00 event keeps its wall clock across each switch while its UTC time moves by an hour
    [NY, '2025-03-08 09:00:00', '2025-03-08 14:00:00'],
    [NY, '2025-03-09 09:00:00', '2025-03-09 13:00:00'],
    [NY, '2025-11-01 09:00:00', '2025-11-01 13:00:00'],
    [NY, '2025-11-02 09:00:00', '2025-11-02 14:00:00'],
    [BERLIN, '2025-03-29 09:00:00', '2025-03-29 08:00:00'],
    [BERLIN, '2025-03-30 09:00:00', '2025-03-30 07:00:00'],
    [BERLIN, '2025-10-25 09:00:00', '2025-10-25 07:00:00'],
    [BERLIN, '2025-10-26 09:00:00', '2025-10-26 08:00:00'],
    // the seconds right around a switch
    [NY, '2025-03-09 01:59:59', '2025-03-09 06:59:59'],
    [NY, '2025-03-09 03:00:00', '2025-03-09 07:00:00'],
    [NY, '2025-11-02 00:59:59', '2025-11-02 04:59:59'],
    [NY, '2025-11-02 02:00:00', '2025-11-02 07:00:00'],
    [BERLIN, '2025-03-30 01:59:59', '2025-03-30 00:59:59'],
    [BERLIN, '2025-03-30 03:00:00', '2025-03-30 01:00:00'],
    // all-day spans and days that cross the UTC date line
    [NY, '2025-03-14 00:00:00', '2025-03-14 04:00:00'],
    [NY, '2025-03-14 23:59:59', '2025-03-15 03:59:59'],
    ['Asia/Tokyo', '2025-03-14 00:00:00', '2025-03-13 15:00:00'],
    ['Asia/Kathmandu', '2025-03-14 09:30:00', '2025-03-14 03:45:00'],
    // fixed offsets
    ['UTC', '2025-03-14 09:30:00', '2025-03-14 09:30:00'],
    ['UTC+2', '2025-07-01 09:00:00', '2025-07-01 07:00:00'],
    ['UTC+5:45', '2025-03-14 09:30:00', '2025-03-14 03:45:00'],
    ['UTC-3:30', '2025-03-14 09:30:00', '2025-03-14 13:00:00'],
    ['UTC+14', '2025-01-01 00:00:00', '2024-12-31 10:00:00'],
    ['UTC-12', '2024-12-31 23:00:00', '2025-01-01 11:00:00'],
    // southern hemisphere: summer time in January
    [SYDNEY, '2025-01-15 09:00:00', '2025-01-14 22:00:00'],
    [SYDNEY, '2025-07-15 09:00:00', '2025-07-14 23:00:00'],
  ];

  it.each(roundTrips)('%s: wall %s ↔ UTC %s', (zone, wall, utc) => {
    expect(wallToUtc(wall, zone)).toBe(utc);
    expect(utcToWall(utc, zone)).toBe(wall);
  });

  // A wall time that does not exist is moved forward by the length of the gap (luxon's rule, PHP's too).
  it.each([
    [NY, '2025-03-09 02:00:00', '2025-03-09 07:00:00', '2025-03-09 03:00:00'],
    [NY, '2025-03-09 02:30:00', '2025-03-09 07:30:00', '2025-03-09 03:30:00'],
    [BERLIN, '2025-03-30 02:30:00', '2025-03-30 01:30:00', '2025-03-30 03:30:00'],
    [SYDNEY, '2025-10-05 02:30:00', '2025-10-04 16:30:00', '2025-10-05 03:30:00'],
  ])('%s: %s falls in the spring-forward gap → UTC %s (= %s local)', (zone, wall, utc, shifted) => {
    expect(wallToUtc(wall, zone)).toBe(utc);
    expect(utcToWall(utc, zone)).toBe(shifted);
  });

  // A wall time that happens twice is the first one, with the pre-switch (summer) offset, as PHP does.
  it.each([
    [NY, '2025-11-02 01:00:00', '2025-11-02 05:00:00'],
    [NY, '2025-11-02 01:30:00', '2025-11-02 05:30:00'],
    [NY, '2025-11-02 01:59:59', '2025-11-02 05:59:59'],
    [BERLIN, '2025-10-26 02:00:00', '2025-10-26 00:00:00'],
    [BERLIN, '2025-10-26 02:30:00', '2025-10-26 00:30:00'],
    [SYDNEY, '2025-04-06 02:30:00', '2025-04-05 15:30:00'],
  ])('%s: %s happens twice → the earlier instant, UTC %s', (zone, wall, utc) => {
    expect(wallToUtc(wall, zone)).toBe(utc);
  });

  it.each([
    [NY, '2025-11-02 05:30:00', '2025-11-02 01:30:00'],
    [NY, '2025-11-02 06:30:00', '2025-11-02 01:30:00'],
    [BERLIN, '2025-10-26 00:30:00', '2025-10-26 02:30:00'],
    [BERLIN, '2025-10-26 01:30:00', '2025-10-26 02:30:00'],
  ])('%s: both instants of a repeated hour show the same wall clock (UTC %s → %s)', (zone, utc, wall) => {
    expect(utcToWall(utc, zone)).toBe(wall);
  });

  // Away from a switch wallToUtc does the arithmetic itself; every quarter hour of the days
  // around each switch of a year (and a few hours of every other day), in zones that move
  // forward, back, by half an hour or not at all, must still give atWallTime's instant.
  it.each([[NY], [BERLIN], [SYDNEY], ['Australia/Lord_Howe'], ['Asia/Kathmandu'], ['UTC+5:45']])(
    '%s: the same instant as atWallTime around every switch of 2025',
    (zone) => {
      const DAY = 86_400_000;
      const zoneObject = requireZone(zone);
      const switches = (day: number) => zoneObject.offset(day) !== zoneObject.offset(day + DAY);
      const differing: string[] = [];
      for (let day = Date.UTC(2025, 0, 1); day < Date.UTC(2026, 0, 1); day += DAY) {
        const near = switches(day - 2 * DAY) || switches(day - DAY) || switches(day) || switches(day + DAY);
        for (let t = day; t < day + DAY; t += near ? 15 * 60_000 : 5 * 3_600_000) {
          const wall = formatSql(DateTime.fromMillis(t, { zone: 'utc' }));
          if (wallToUtc(wall, zone) !== formatSql(parseSql(wall, zone).toUTC())) differing.push(wall);
        }
      }
      expect(differing).toEqual([]);
    },
  );

  // luxon on its own guesses an overlap's offset from the date the process started; we must not.
  it.each([['2025-01-15T12:00:00Z'], ['2025-07-15T12:00:00Z']])('resolves an overlap the same way when the process started at %s', (startedAt) => {
    const realNow = Settings.now;
    try {
      Settings.now = () => Date.parse(startedAt);
      Settings.resetCaches();
      expect(wallToUtc('2025-11-02 01:30:00', NY)).toBe('2025-11-02 05:30:00');
      expect(wallToUtc('2025-10-26 02:30:00', BERLIN)).toBe('2025-10-26 00:30:00');
      expect(wallToUtc('2025-03-09 02:30:00', NY)).toBe('2025-03-09 07:30:00');
    } finally {
      Settings.now = realNow;
      Settings.resetCaches();
    }
  });

  it.each([
    ['2025-03-14', NY],
    ['2025-02-30 09:00:00', NY],
    ['2025-03-14 09:00:00', 'Nowhere/Special'],
    ['2025-03-14 09:00:00', 'UTC+15'],
  ])('wallToUtc(%j, %j) throws', (wall, zone) => {
    expect(() => wallToUtc(wall, zone)).toThrow(RangeError);
  });

  it.each([
    ['2025-03-14T09:00:00Z', NY],
    ['2025-03-14 09:00:00', 'Nowhere/Special'],
  ])('utcToWall(%j, %j) throws', (utc, zone) => {
    expect(() => utcToWall(utc, zone)).toThrow(RangeError);
  });
});

describe('atWallTime', () => {
  it('places a wall time in a zone and returns a DateTime in that zone', () => {
    const dt = atWallTime({ year: 2025, month: 11, day: 2, hour: 1, minute: 30, second: 0 }, NY);
    expect(toIsoWithOffset(dt)).toBe('2025-11-02T01:30:00-04:00');
    expect(dt.zoneName).toBe(NY);
  });

  it('returns an invalid DateTime for an impossible date', () => {
    expect(atWallTime({ year: 2025, month: 2, day: 30, hour: 0, minute: 0, second: 0 }, 'UTC').isValid).toBe(false);
  });

  it('answers a wall time asked again (remembered) as the first time, per zone', () => {
    const wall = { year: 2025, month: 11, day: 2, hour: 1, minute: 30, second: 0 };
    const first = toIsoWithOffset(atWallTime(wall, NY));
    expect(toIsoWithOffset(atWallTime({ ...wall }, NY))).toBe(first);
    expect(toIsoWithOffset(atWallTime(wall, BERLIN))).toBe('2025-11-02T01:30:00+01:00');
    expect(atWallTime(wall, BERLIN).zoneName).toBe(BERLIN);
  });
});

describe('the arithmetic paths agree with luxon', () => {
  // A fixed pseudo-random walk over five centuries and zones with odd histories.
  const zones = [NY, BERLIN, SYDNEY, 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Chatham', 'Africa/Casablanca', 'UTC', 'UTC+5:45', 'UTC-3:30'];
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const instants = Array.from({ length: 3000 }, () =>
    DateTime.fromMillis(Date.UTC(1800, 0, 1) + (next() / 2 ** 31) * 400 * 365.25 * 86_400_000, { zone: 'utc' }).startOf('second'),
  );

  it('utcToWall matches parse, setZone and format for every zone', () => {
    for (const [i, instant] of instants.entries()) {
      const zone = zones[i % zones.length];
      const utc = instant.toFormat(SQL_FORMAT);
      expect([zone, utc, utcToWall(utc, zone)]).toEqual([zone, utc, instant.setZone(requireZone(zone)).toFormat(SQL_FORMAT)]);
    }
  });

  it('formatSql matches toFormat, and utcSqlMillis the instant', () => {
    for (const instant of instants) {
      expect(formatSql(instant)).toBe(instant.toFormat(SQL_FORMAT));
      expect(utcSqlMillis(instant.toFormat(SQL_FORMAT))).toBe(instant.toMillis());
    }
    expect(utcSqlMillis('0050-03-01 12:00:00')).toBe(DateTime.fromISO('0050-03-01T12:00:00Z', { zone: 'utc' }).toMillis());
  });

  it.each([
    '2025-02-29 00:00:00',
    '1900-02-29 00:00:00',
    '2025-04-31 00:00:00',
    '2025-13-01 00:00:00',
    '2025-00-10 00:00:00',
    '2025-01-01 24:00:00',
    '2025-01-01 23:60:00',
    '2025-01-01 23:59:60',
  ])('refuses %s', (bad) => {
    expect(() => utcSqlMillis(bad)).toThrow(RangeError);
  });

  it('isoAtWallTime and isoStartOfDay match luxon for every zone', () => {
    for (const [i, instant] of instants.entries()) {
      const zone = zones[i % zones.length];
      const utc = instant.toFormat(SQL_FORMAT);
      const wall = utcToWall(utc, zone);
      expect([zone, wall, isoAtWallTime(wall, zone)]).toEqual([zone, wall, toIsoWithOffset(parseSql(wall, zone))]);
      const luxonDay = toIsoWithOffset(DateTime.fromSQL(utc, { zone: 'UTC' }).setZone(requireZone(zone)).startOf('day'));
      expect([zone, utc, isoStartOfDay(utc, zone)]).toEqual([zone, utc, luxonDay]);
    }
  });

  // Zones that change at midnight (Santiago, Havana, Asunción, Beirut, Cairo), by half an hour
  // (Lord Howe), twice a year at odd hours (Chatham, St John's), or that left DST (Casablanca).
  const changing = [
    NY,
    BERLIN,
    SYDNEY,
    'America/Santiago',
    'America/Havana',
    'America/Asuncion',
    'Asia/Beirut',
    'Africa/Cairo',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/St_Johns',
    'Africa/Casablanca',
  ];
  /**
   * The instants (ms) at which `zone`'s offset changes between 2022 and 2026, to the minute.
   * Kept per zone, and each hour's offset read once: luxon reads an offset through
   * Intl.DateTimeFormat, and the hourly scan (35,000 hours) is most of these tests' time.
   */
  const changesByZone = new Map<string, number[]>();
  const changesOf = (zone: string): number[] => {
    const known = changesByZone.get(zone);
    if (known) return known;
    const z = requireZone(zone);
    const out: number[] = [];
    let offset = z.offset(Date.UTC(2022, 0, 1));
    for (let t = Date.UTC(2022, 0, 1); t < Date.UTC(2026, 0, 1); t += 3_600_000) {
      const next = z.offset(t + 3_600_000);
      const same = next === offset;
      offset = next;
      if (same) continue;
      let lo = t;
      let hi = t + 3_600_000;
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (z.offset(mid) === z.offset(lo)) lo = mid;
        else hi = mid;
      }
      out.push(hi);
    }
    changesByZone.set(zone, out);
    return out;
  };

  it.each(changing)('isoAtWallTime matches luxon around every offset change of %s (gaps, overlaps), every 15 minutes', (zone) => {
    const changes = changesOf(zone);
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) {
      for (let t = change - 5 * 3_600_000; t <= change + 5 * 3_600_000; t += 900_000) {
        // Wall times read from both sides of the change, so that the gap's and the overlap's are among them.
        for (const wall of new Set([utcToWall(formatSql(DateTime.fromMillis(t, { zone: 'utc' })), zone), formatSql(DateTime.fromMillis(t, { zone: 'utc' }))])) {
          expect([zone, wall, isoAtWallTime(wall, zone)]).toEqual([zone, wall, toIsoWithOffset(parseSql(wall, zone))]);
        }
      }
    }
  });

  it.each(changing)('isoStartOfDay matches luxon on the days of every offset change of %s, every 40 minutes', (zone) => {
    for (const change of changesOf(zone)) {
      for (let t = change - 30 * 3_600_000; t <= change + 30 * 3_600_000; t += 2_400_000) {
        const utc = formatSql(DateTime.fromMillis(t, { zone: 'utc' }));
        const luxonDay = toIsoWithOffset(DateTime.fromSQL(utc, { zone: 'UTC' }).setZone(requireZone(zone)).startOf('day'));
        expect([zone, utc, isoStartOfDay(utc, zone)]).toEqual([zone, utc, luxonDay]);
      }
    }
  });

  it('accepts leap days where the calendar has them', () => {
    expect(utcToWall('2000-02-29 12:00:00', 'UTC')).toBe('2000-02-29 12:00:00');
    expect(utcToWall('2024-02-29 23:30:00', 'UTC+1')).toBe('2024-03-01 00:30:00');
  });
});
