import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import fc from 'fast-check';
import { wallToUtc } from '../common/datetime/format';
import { expandRecurrence, toUtc } from './expand';
import { parseRecurrence, SeriesTiming } from './recurrence-rule';

// A second expansion, written apart from expand.ts, to check it against: ical.js's RecurIterator
// (a different RFC 5545 implementation from the `rrule` package the engine uses) on floating wall
// times, with UNTIL turned into the series' wall time by luxon alone. Only for rules where
// ical.js is right (it turns days a month lacks into the next month's, so the tests keep leap-day
// rules synchronised with a leap-year start).

interface OracleSeries {
  start: string;
  zone: string;
  allDay?: boolean;
  rrule?: string;
  rdates?: string[];
  exdates?: string[];
}

/** Wall times `YYYY-MM-DD HH:MM:SS` of the series' occurrences starting before `toWall`, in order. */
function oracleWalls(series: OracleSeries, toWall: string): string[] {
  const found = new Set<string>([series.start]);
  if (series.rrule) {
    const recur = ICAL.Recur.fromString(series.rrule);
    let untilWall: string | null = null;
    if (recur.until) {
      const u = recur.until;
      const iso = u.toString();
      untilWall = u.isDate
        ? `${iso} 23:59:59`
        : u.zone === ICAL.Timezone.utcTimezone
          ? DateTime.fromISO(iso.replace(/Z$/, ''), { zone: 'utc' }).setZone(series.zone).toFormat('yyyy-MM-dd HH:mm:ss')
          : iso.replace('T', ' ');
      recur.until = null;
    }
    // DTSTART counts as the first of the COUNT (RFC 5545 §3.8.5.3); ical.js's iterator counts it
    // only when the rule gives it for some frequencies, so the rule is asked for one fewer here.
    const count = recur.count;
    if (count) {
      const first = recur.iterator(ICAL.Time.fromDateTimeString(series.start.replace(' ', 'T'))).next();
      if (!first || first.toString().replace('T', ' ') !== series.start) recur.count = count - 1;
    }
    const it = recur.iterator(ICAL.Time.fromDateTimeString(series.start.replace(' ', 'T')));
    for (let next = recur.count === 0 ? null : it.next(); next; next = it.next()) {
      const wall = next.toString().replace('T', ' ');
      if (wall >= toWall || (untilWall !== null && wall > untilWall)) break;
      found.add(wall);
    }
    if (untilWall !== null && series.start > untilWall) found.delete(series.start);
  }
  for (const r of series.rdates ?? []) found.add(r);
  const excluded = new Set(series.exdates ?? []);
  return [...found].filter((w) => !excluded.has(w) && !excluded.has(w.slice(0, 10)) && w < toWall).sort();
}

function timing(start: string, zone: string, minutes = 60, allDay = false): SeriesTiming {
  const end = new Date(Date.parse(`${start.replace(' ', 'T')}Z`) + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  return { startDate: start, endDate: allDay ? `${start.slice(0, 10)} 23:59:59` : end, timezone: zone, allDay };
}

/** The engine's wall starts for lines (the rule's: original starts), up to `to` (UTC). */
function walls(t: SeriesTiming, lines: string[], to: string): string[] {
  return expandRecurrence(t, parseRecurrence(lines, t), { to }).occurrences.map((o) => o.originalStart);
}

/** The oracle's series for the same lines (RDATE/EXDATE as wall times or dates, one value per line). */
function oracleFor(t: SeriesTiming, lines: string[]): OracleSeries {
  const value = (l: string) => {
    const v = l.slice(l.indexOf(':') + 1);
    return v.length === 8
      ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`
      : `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)} ${v.slice(9, 11)}:${v.slice(11, 13)}:${v.slice(13, 15)}`;
  };
  return {
    start: t.startDate,
    zone: t.timezone,
    rrule: lines.find((l) => l.startsWith('RRULE:'))?.slice(6),
    rdates: lines.filter((l) => l.startsWith('RDATE')).map(value),
    exdates: lines.filter((l) => l.startsWith('EXDATE')).map(value),
  };
}

/** Engine and oracle agree on the wall starts before `toWall` (the window given in UTC a day later, then cut). */
function expectSameAsOracle(t: SeriesTiming, lines: string[], toWall: string): string[] {
  const toUtc = new Date(Date.parse(`${toWall.replace(' ', 'T')}Z`) + 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
  const engine = walls(t, lines, toUtc).filter((w) => w < toWall);
  expect(engine).toEqual(oracleFor(t, lines).rrule || lines.length ? oracleWalls(oracleFor(t, lines), toWall) : [t.startDate]);
  return engine;
}

describe('expandRecurrence: wall times across DST', () => {
  it('keeps a weekly 19:00 in Europe/Paris at 19:00 local; its UTC start moves by an hour', () => {
    const t = timing('2027-03-16 19:00:00', 'Europe/Paris', 120);
    const { occurrences } = expandRecurrence(t, parseRecurrence(['RRULE:FREQ=WEEKLY;COUNT=4'], t), { to: '2030-01-01 00:00:00' });
    expect(occurrences.map((o) => [o.start, o.utcStart, o.end, o.utcEnd])).toEqual([
      ['2027-03-16 19:00:00', '2027-03-16 18:00:00', '2027-03-16 21:00:00', '2027-03-16 20:00:00'],
      ['2027-03-23 19:00:00', '2027-03-23 18:00:00', '2027-03-23 21:00:00', '2027-03-23 20:00:00'],
      ['2027-03-30 19:00:00', '2027-03-30 17:00:00', '2027-03-30 21:00:00', '2027-03-30 19:00:00'],
      ['2027-04-06 19:00:00', '2027-04-06 17:00:00', '2027-04-06 21:00:00', '2027-04-06 19:00:00'],
    ]);
    expect(occurrences.map((o) => o.key)).toEqual(['2027-03-16', '2027-03-23', '2027-03-30', '2027-04-06']);
    expect(occurrences.every((o) => o.originalStart === o.start && o.utcOriginalStart === o.utcStart)).toBe(true);
    expectSameAsOracle(t, ['RRULE:FREQ=WEEKLY'], '2030-01-01 00:00:00');
  });

  it('America/New_York: a daily 02:30 moves forward in the spring gap and takes the earlier pass in the autumn overlap', () => {
    const t = timing('2027-03-13 02:30:00', 'America/New_York', 30);
    const at = (day: string) =>
      expandRecurrence(t, parseRecurrence(['RRULE:FREQ=DAILY'], t), { to: '2028-01-01 00:00:00' }).occurrences.find((o) => o.key === day)!;
    // 2027-03-14 02:30 does not exist (clocks go 02:00 → 03:00): read as 03:30 EDT, like any event's wall time.
    expect([at('2027-03-13').utcStart, at('2027-03-14').utcStart, at('2027-03-15').utcStart]).toEqual([
      '2027-03-13 07:30:00',
      '2027-03-14 07:30:00',
      '2027-03-15 06:30:00',
    ]);
    // The occurrence shows the clock's reading (03:30) and keeps its length as an exact 30 minutes;
    // its original start is still the rule's 02:30.
    expect([at('2027-03-14').originalStart, at('2027-03-14').start, at('2027-03-14').end]).toEqual([
      '2027-03-14 02:30:00',
      '2027-03-14 03:30:00',
      '2027-03-14 04:00:00',
    ]);
    expect(at('2027-03-14').utcEnd).toBe('2027-03-14 08:00:00');
    const fall = timing('2027-11-06 01:30:00', 'America/New_York', 30);
    const occ = expandRecurrence(fall, parseRecurrence(['RRULE:FREQ=DAILY;COUNT=3'], fall), { to: '2028-01-01 00:00:00' }).occurrences;
    // 2027-11-07 01:30 happens twice: the first pass (EDT, -04:00).
    expect(occ.map((o) => o.utcStart)).toEqual(['2027-11-06 05:30:00', '2027-11-07 05:30:00', '2027-11-08 06:30:00']);
    // 30 minutes on the clock's own time, also across the change: 01:30 EDT to 01:00 EST.
    expect(occ.map((o) => o.utcEnd)).toEqual(['2027-11-06 06:00:00', '2027-11-07 06:00:00', '2027-11-08 07:00:00']);
    expect(occ[1].end).toBe('2027-11-07 01:00:00');
    expectSameAsOracle(t, ['RRULE:FREQ=DAILY;INTERVAL=3'], '2029-06-01 00:00:00');
  });

  it('Australia/Lord_Howe: the half-hour shift moves the UTC start by 30 minutes, never the wall time', () => {
    const t = timing('2027-03-28 18:00:00', 'Australia/Lord_Howe', 90);
    const { occurrences } = expandRecurrence(t, parseRecurrence(['RRULE:FREQ=WEEKLY;UNTIL=20271020T000000Z'], t), { to: '2028-01-01 00:00:00' });
    // Lord Howe: +11 in summer, +10:30 from the first Sunday of April to the first Sunday of October.
    expect(occurrences[0].utcStart).toBe('2027-03-28 07:00:00');
    expect(occurrences[1].utcStart).toBe('2027-04-04 07:30:00');
    expect(occurrences.find((o) => o.key === '2027-10-03')!.utcStart).toBe('2027-10-03 07:00:00');
    expect(occurrences.every((o) => o.start.endsWith(' 18:00:00') && o.end.endsWith(' 19:30:00'))).toBe(true);
    expect(occurrences[occurrences.length - 1].key).toBe('2027-10-17');
    expectSameAsOracle(t, ['RRULE:FREQ=WEEKLY;BYDAY=SU,WE;UNTIL=20291020T000000Z'], '2030-01-01 00:00:00');
  });
});

describe('expandRecurrence: month ends, leap days, COUNT and UNTIL (against ical.js)', () => {
  it.each([
    ['BYMONTHDAY=31 skips months without a 31st', '2027-01-31 19:00:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=31'],
    ['a monthly series from the 31st skips them too', '2027-01-31 19:00:00', 'RRULE:FREQ=MONTHLY'],
    ['BYMONTHDAY=-1 is every month-end', '2027-01-31 09:00:00', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1'],
    ['last Friday', '2027-01-29 19:00:00', 'RRULE:FREQ=MONTHLY;BYDAY=-1FR'],
    ['second Tuesday, 10 times', '2027-01-12 18:30:00', 'RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=10'],
    ['29 February every leap year', '2028-02-29 12:00:00', 'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'],
    ['every other week on two days until a local UNTIL', '2027-01-05 19:00:00', 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;UNTIL=20280105T190000'],
    ['UTC UNTIL', '2027-01-05 19:00:00', 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231T235959Z'],
    ['date UNTIL', '2027-01-05 19:00:00', 'RRULE:FREQ=DAILY;UNTIL=20270301'],
    ['COUNT', '2027-01-05 19:00:00', 'RRULE:FREQ=DAILY;COUNT=17'],
  ])('%s', (_name, start, rrule) => {
    for (const zone of ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe']) {
      const got = expectSameAsOracle(timing(start, zone), [rrule], '2033-01-01 00:00:00');
      expect(got.length).toBeGreaterThan(1);
    }
  });

  it('BYMONTHDAY=31 and leap days give the dates RFC 5545 says', () => {
    const t = timing('2027-01-31 19:00:00', 'Europe/Paris');
    expect(walls(t, ['RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4'], '2030-01-01 00:00:00')).toEqual([
      '2027-01-31 19:00:00',
      '2027-03-31 19:00:00',
      '2027-05-31 19:00:00',
      '2027-07-31 19:00:00',
    ]);
    // From 29 February, a yearly series skips the years without one (ical.js gives 1 March there).
    const leap = timing('2028-02-29 10:00:00', 'UTC');
    expect(walls(leap, ['RRULE:FREQ=YEARLY;COUNT=3'], '2045-01-01 00:00:00')).toEqual(['2028-02-29 10:00:00', '2032-02-29 10:00:00', '2036-02-29 10:00:00']);
    // A rule that can never happen gives only the series' own start, and returns.
    const never = timing('2027-01-15 10:00:00', 'UTC');
    expect(walls(never, ['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'], '2029-01-01 00:00:00')).toEqual(['2027-01-15 10:00:00']);
    expect(walls(never, ['RRULE:FREQ=DAILY;INTERVAL=7;BYDAY=SA'], '2029-01-01 00:00:00')).toEqual(['2027-01-15 10:00:00']);
    expect(walls(never, ['RRULE:FREQ=MONTHLY;BYMONTH=4;BYMONTHDAY=31'], '2029-01-01 00:00:00')).toEqual(['2027-01-15 10:00:00']);
    expect(walls(never, ['RRULE:FREQ=MONTHLY;INTERVAL=12;BYMONTH=2'], '2029-01-01 00:00:00')).toEqual(['2027-01-15 10:00:00']);
    // Rare is not never: a fifth Monday in February comes in 2044.
    expect(walls(never, ['RRULE:FREQ=MONTHLY;BYMONTH=2;BYDAY=5MO'], '2045-01-01 00:00:00')).toEqual(['2027-01-15 10:00:00', '2044-02-29 10:00:00']);
    expect(walls(never, ['RRULE:FREQ=YEARLY;BYMONTH=2;BYDAY=5MO'], '2045-01-01 00:00:00')).toEqual(['2027-01-15 10:00:00', '2044-02-29 10:00:00']);
    // DTSTART is the first of the COUNT even when the rule would not give it (RFC 5545 §3.8.5.3).
    expect(walls(never, ['RRULE:FREQ=WEEKLY;BYMONTH=4;BYDAY=MO;COUNT=2'], '2029-01-01 00:00:00')).toEqual(['2027-01-15 10:00:00', '2027-04-05 10:00:00']);
    const wednesday = timing('2027-01-06 10:00:00', 'UTC');
    expect(walls(wednesday, ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3'], '2029-01-01 00:00:00')).toEqual([
      '2027-01-06 10:00:00',
      '2027-01-11 10:00:00',
      '2027-01-18 10:00:00',
    ]);
    expect(walls(wednesday, ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=1'], '2029-01-01 00:00:00')).toEqual(['2027-01-06 10:00:00']);
  });

  it('EXDATE removes by original start (a date removes that day), RDATE adds, both against ical.js', () => {
    const t = timing('2027-01-05 19:00:00', 'Europe/Paris');
    const lines = [
      'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=12',
      'EXDATE:20270112T190000',
      'EXDATE;VALUE=DATE:20270114',
      'RDATE:20270704T190000',
      'RDATE:20270110T080000',
    ];
    const got = expectSameAsOracle(t, lines, '2028-01-01 00:00:00');
    expect(got).not.toContain('2027-01-12 19:00:00');
    expect(got).not.toContain('2027-01-14 19:00:00');
    expect(got).toContain('2027-07-04 19:00:00');
    expect(got).toContain('2027-01-10 08:00:00');
    expect(got).toHaveLength(12);
    // UTC forms: an EXDATE instant matches the occurrence at that instant; an RDATE instant is read in the zone.
    const utc = walls(t, ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4', 'EXDATE:20270107T180000Z', 'RDATE:20270301T120000Z'], '2028-01-01 00:00:00');
    expect(utc).toEqual(['2027-01-05 19:00:00', '2027-01-12 19:00:00', '2027-01-14 19:00:00', '2027-03-01 13:00:00']);
    // An EXDATE on the series' start removes the first occurrence; the series goes on.
    expect(walls(t, ['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20270105T190000'], '2028-01-01 00:00:00')).toEqual(['2027-01-06 19:00:00', '2027-01-07 19:00:00']);
  });

  it('all-day series: occurrences keep 00:00:00–23:59:59 over their days; DATE RDATE/EXDATE', () => {
    const t: SeriesTiming = { startDate: '2027-01-04 00:00:00', endDate: '2027-01-05 23:59:59', timezone: 'America/New_York', allDay: true };
    const { occurrences } = expandRecurrence(
      t,
      parseRecurrence(['RRULE:FREQ=WEEKLY;UNTIL=20270201', 'EXDATE;VALUE=DATE:20270111', 'RDATE;VALUE=DATE:20270301'], t),
      { to: '2028-01-01 00:00:00' },
    );
    expect(occurrences.map((o) => [o.start, o.end])).toEqual([
      ['2027-01-04 00:00:00', '2027-01-05 23:59:59'],
      ['2027-01-18 00:00:00', '2027-01-19 23:59:59'],
      ['2027-01-25 00:00:00', '2027-01-26 23:59:59'],
      ['2027-02-01 00:00:00', '2027-02-02 23:59:59'],
      ['2027-03-01 00:00:00', '2027-03-02 23:59:59'],
    ]);
  });

  it('a series without RRULE is its start and its RDATEs', () => {
    const t = timing('2027-01-05 19:00:00', 'Europe/Paris');
    expect(walls(t, ['RDATE:20270106T190000,20270109T100000'], '2028-01-01 00:00:00')).toEqual([
      '2027-01-05 19:00:00',
      '2027-01-06 19:00:00',
      '2027-01-09 10:00:00',
    ]);
  });
});

describe('expandRecurrence: windows, limits and keys', () => {
  const t = timing('2027-01-04 09:00:00', 'Europe/Paris');
  const rule = parseRecurrence(['RRULE:FREQ=WEEKLY'], t);

  it('returns the starts in [from, to), counting the rule from the series start', () => {
    const { occurrences } = expandRecurrence(t, rule, { from: '2027-02-01 08:00:00', to: '2027-02-15 08:00:00' });
    expect(occurrences.map((o) => o.key)).toEqual(['2027-02-01', '2027-02-08']);
    const twoYears = expandRecurrence(t, rule, { to: '2029-01-04 08:00:00' });
    expect(twoYears.occurrences).toHaveLength(105);
    expect(twoYears.truncated).toBe(false);
  });

  it('counts the limit inside the window, not from the series start', () => {
    const { occurrences, truncated } = expandRecurrence(t, rule, { from: '2028-06-01 00:00:00', to: '2029-01-01 00:00:00' }, 3);
    expect(occurrences.map((o) => o.key)).toEqual(['2028-06-05', '2028-06-12', '2028-06-19']);
    expect(truncated).toBe(true);
  });

  it('stops at the limit and says so', () => {
    const { occurrences, truncated } = expandRecurrence(t, rule, { to: '2029-01-01 00:00:00' }, 10);
    expect(occurrences).toHaveLength(10);
    expect(truncated).toBe(true);
  });

  it('numbers several occurrences on one day by order', () => {
    const two = expandRecurrence(t, parseRecurrence(['RRULE:FREQ=DAILY;BYHOUR=9,18;COUNT=4'], t), { to: '2028-01-01 00:00:00' });
    expect(two.occurrences.map((o) => o.key)).toEqual(['2027-01-04', '2027-01-04#2', '2027-01-05', '2027-01-05#2']);
  });
});

describe('expandRecurrence: random simple rules against ical.js', () => {
  const zones = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'UTC', 'Asia/Kolkata'];
  const days = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
  const pad = (n: number) => String(n).padStart(2, '0');

  const ruleArb = fc.record({
    freq: fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'),
    interval: fc.integer({ min: 1, max: 3 }),
    byday: fc.subarray(days, { minLength: 0, maxLength: 3 }),
    bymonthday: fc.option(fc.constantFrom(1, 15, 28, 29, 30, 31, -1), { nil: undefined }),
    end: fc.oneof(
      fc.constant(''),
      fc.integer({ min: 1, max: 40 }).map((n) => `;COUNT=${n}`),
      fc.integer({ min: 1, max: 900 }).map((d) => `;UNTIL=${untilAfter(d)}`),
    ),
    year: fc.integer({ min: 2026, max: 2031 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.constantFrom(0, 15, 30, 45),
    zone: fc.constantFrom(...zones),
  });

  function untilAfter(days: number): string {
    return new Date(Date.UTC(2026, 0, 1) + days * 86_400_000 * 3).toISOString().slice(0, 19).replace(/[-:]/g, '') + 'Z';
  }

  it('gives the same wall starts over three years', () => {
    fc.assert(
      fc.property(ruleArb, (r) => {
        const parts = [`FREQ=${r.freq}`];
        if (r.interval > 1) parts.push(`INTERVAL=${r.interval}`);
        if (r.byday.length > 0 && r.freq !== 'DAILY') parts.push(`BYDAY=${r.byday.join(',')}`);
        if (r.bymonthday !== undefined && r.freq === 'MONTHLY' && r.byday.length === 0) parts.push(`BYMONTHDAY=${r.bymonthday}`);
        const start = `${r.year}-${pad(r.month)}-${pad(r.day)} ${pad(r.hour)}:${pad(r.minute)}:00`;
        const toWall = `${r.year + 3}-${pad(r.month)}-01 00:00:00`;
        expectSameAsOracle(timing(start, r.zone), [`RRULE:${parts.join(';')}${r.end}`], toWall);
      }),
      { numRuns: 300 },
    );
  });
});

describe('toUtc', () => {
  it('places wall times as common/datetime wallToUtc does, gaps and repeated hours included', () => {
    const zones = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'UTC+5:45', 'Asia/Kolkata'];
    // Around the 2027 changes of these zones, every 15 minutes, and at random instants.
    for (const zone of zones) {
      for (const day of ['2027-03-14', '2027-03-28', '2027-04-04', '2027-10-03', '2027-10-31', '2027-11-07']) {
        for (let m = 0; m < 24 * 60; m += 15) {
          const wall = `${day} ${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;
          expect([zone, wall, toUtc(wall, zone)]).toEqual([zone, wall, wallToUtc(wall, zone)]);
        }
      }
    }
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        (d, zone) => {
          const wall = d.toISOString().slice(0, 19).replace('T', ' ');
          expect(toUtc(wall, zone)).toBe(wallToUtc(wall, zone));
        },
      ),
    );
  });
});
