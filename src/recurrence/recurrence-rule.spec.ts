import fc from 'fast-check';
import { formatRecurrence, parseRecurrence, RecurrenceError, RULE_PARTS, SeriesTiming } from './recurrence-rule';
import { validateRecurrence } from './validate-recurrence';

const paris: SeriesTiming = { startDate: '2027-01-05 19:00:00', endDate: '2027-01-05 21:00:00', timezone: 'Europe/Paris', allDay: false };
const limits = { max: 1000, horizon: '2029-01-01 00:00:00' };

/** The message validateRecurrence gives for `input`, or null when it is valid. */
function problem(input: unknown, timing = paris, scope?: string, max = limits.max): string | null {
  try {
    validateRecurrence(input, timing, { ...limits, max }, scope);
    return null;
  } catch (e) {
    if (!(e instanceof RecurrenceError)) throw e;
    return e.message;
  }
}

describe('validateRecurrence: what recurrence.md §2 refuses', () => {
  it.each<[string, unknown, RegExp]>([
    ['not an array', 'RRULE:FREQ=DAILY', /array of RRULE, RDATE and EXDATE lines/],
    ['an array of non-strings', [1], /array of RRULE/],
    ['a line that does not parse', ['FREQ=WEEKLY'], /not an RRULE, RDATE or EXDATE line/],
    ['DTSTART is the event’s own', ['DTSTART:20270105T190000'], /not an RRULE, RDATE or EXDATE line/],
    ['an RRULE value that does not parse', ['RRULE:FREQ=WEEKLY;BYDAY=ZZ'], /does not parse/],
    ['an unknown rule part', ['RRULE:FREQ=WEEKLY;FOO=1'], /"FOO=1" is not a rule part/],
    ['a part given twice', ['RRULE:FREQ=WEEKLY;BYDAY=TU;BYDAY=TH'], /BYDAY is given twice/],
    ['an out-of-range value', ['RRULE:FREQ=MONTHLY;BYMONTHDAY=40'], /does not parse/],
    ['a second RRULE', ['RRULE:FREQ=WEEKLY', 'RRULE:FREQ=DAILY'], /Only one RRULE/],
    ['FREQ=SECONDLY', ['RRULE:FREQ=SECONDLY;COUNT=3'], /FREQ=SECONDLY is not allowed/],
    ['FREQ=MINUTELY', ['RRULE:FREQ=MINUTELY;COUNT=3'], /FREQ=MINUTELY is not allowed/],
    ['FREQ=HOURLY', ['RRULE:FREQ=HOURLY;COUNT=3'], /FREQ=HOURLY is not allowed/],
    ['FREQ missing', ['RRULE:BYDAY=MO;COUNT=3'], /needs a FREQ/],
    ['an unknown FREQ', ['RRULE:FREQ=FORTNIGHTLY'], /does not parse/],
    ['COUNT and UNTIL', ['RRULE:FREQ=DAILY;COUNT=3;UNTIL=20271231T000000Z'], /COUNT and UNTIL/],
    ['COUNT=0', ['RRULE:FREQ=DAILY;COUNT=0'], /COUNT must be 1 or more/],
    ['INTERVAL=0', ['RRULE:FREQ=DAILY;INTERVAL=0;COUNT=3'], /INTERVAL must be 1 or more/],
    ['BYWEEKNO', ['RRULE:FREQ=YEARLY;BYWEEKNO=20'], /BYWEEKNO is not supported/],
    ['BYYEARDAY with MONTHLY (RFC 5545 MUST NOT)', ['RRULE:FREQ=MONTHLY;BYYEARDAY=20'], /BYYEARDAY is only allowed with FREQ=YEARLY/],
    ['BYMONTHDAY with WEEKLY (RFC 5545 MUST NOT)', ['RRULE:FREQ=WEEKLY;BYMONTHDAY=20'], /BYMONTHDAY is not allowed/],
    ['a numbered BYDAY with WEEKLY', ['RRULE:FREQ=WEEKLY;BYDAY=2TU'], /numbered BYDAY/],
    ['BYSETPOS with DAILY', ['RRULE:FREQ=DAILY;BYHOUR=9,18;BYSETPOS=1'], /BYSETPOS/],
    ['a parameter on RRULE', ['RRULE;X=1:FREQ=DAILY'], /takes no parameters/],
    ['RDATE;VALUE=PERIOD', ['RDATE;VALUE=PERIOD:20270105T190000/PT1H'], /only VALUE=DATE or VALUE=DATE-TIME/],
    ['RDATE;TZID', ['RDATE;TZID=Europe/Paris:20270105T190000'], /only VALUE=DATE or VALUE=DATE-TIME/],
    ['a malformed EXDATE', ['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:2027-01-05'], /is not a date-time/],
    ['a DATE value given as a date-time', ['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE;VALUE=DATE:20270105T190000'], /is not a date/],
    ['no such day', ['RDATE:20270230T190000'], /no such date/],
    ['no such hour', ['RDATE:20270210T250000'], /no such date/],
    ['a rule giving nothing: UNTIL before the start', ['RRULE:FREQ=DAILY;UNTIL=20270101T000000Z'], /gives no occurrence/],
    ['a rule giving nothing: its only start excluded', ['RRULE:FREQ=DAILY;COUNT=1', 'EXDATE:20270105T190000'], /gives no occurrence/],
    ['a rule giving nothing: every start excluded by date', ['RRULE:FREQ=DAILY;COUNT=2', 'EXDATE;VALUE=DATE:20270105,20270106'], /gives no occurrence/],
    ['more than the maximum up to the horizon', ['RRULE:FREQ=DAILY;BYHOUR=9,19'], /more than 1000 occurrences/],
    [
      'more RDATEs than the maximum',
      [
        `RDATE:${Array.from({ length: 1001 }, (_, i) => new Date(Date.UTC(2028, 0, 1 + i)).toISOString().slice(0, 10).replace(/-/g, '') + 'T190000').join(',')}`,
      ],
      /more than 1000/,
    ],
    ['a long line is quoted in part', [`RDATE:${'1'.repeat(500)}`], /^"RDATE:1{73}…": /],
    ['an RDATE before the series’ start', ['RRULE:FREQ=DAILY;COUNT=3', 'RDATE:20270104T190000'], /RDATE 2027-01-04 19:00:00 is before the series' start/],
    ['an RDATE in UTC before the series’ start', ['RDATE:20270105T175959Z'], /before the series' start/],
  ])('%s', (_name, input, message) => {
    expect(problem(input)).toMatch(message);
  });

  it('refuses recurrence with scope=this, and nothing else about scope', () => {
    expect(problem(['RRULE:FREQ=WEEKLY'], paris, 'this')).toMatch(/scope=this/);
    expect(problem(['RRULE:FREQ=WEEKLY'], paris, 'all')).toBeNull();
    expect(problem(['RRULE:FREQ=WEEKLY'], paris, 'following')).toBeNull();
  });

  it('counts occurrences up to the horizon only, against the configured maximum', () => {
    // Weekly for ever: 104 up to the horizon (2027-01-05 + 103 weeks is 2028-12-26).
    expect(problem(['RRULE:FREQ=WEEKLY'])).toBeNull();
    expect(problem(['RRULE:FREQ=WEEKLY'], paris, undefined, 103)).toMatch(/more than 103 occurrences/);
    expect(problem(['RRULE:FREQ=WEEKLY'], paris, undefined, 104)).toBeNull();
    // Daily: 725 days up to the horizon is within the default 1,000.
    expect(problem(['RRULE:FREQ=DAILY'])).toBeNull();
  });

  it('accepts a series that starts after the horizon, and a rule without RRULE', () => {
    const later = { ...paris, startDate: '2030-06-04 19:00:00', endDate: '2030-06-04 20:00:00' };
    expect(problem(['RRULE:FREQ=WEEKLY;COUNT=3'], later)).toBeNull();
    expect(problem(['RDATE:20270107T190000'])).toBeNull();
  });

  it('[] is valid: no series', () => {
    expect(validateRecurrence([], paris, limits)).toEqual({
      rule: { rrule: null, rdates: [], exdates: [] },
      lines: [],
      expansion: { occurrences: [], truncated: false },
      horizon: limits.horizon,
    });
  });

  it('returns the occurrences up to the horizon with the canonical lines', () => {
    const valid = validateRecurrence(['rrule:freq=weekly;byday=tu,th;until=20270131t235959z'], paris, limits);
    expect(valid.lines).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270131T235959Z']);
    expect(valid.expansion.occurrences.map((o) => o.key)).toEqual([
      '2027-01-05',
      '2027-01-07',
      '2027-01-12',
      '2027-01-14',
      '2027-01-19',
      '2027-01-21',
      '2027-01-26',
      '2027-01-28',
    ]);
  });
});

describe('formatRecurrence: the canonical lines of recurrence.md §3', () => {
  const canonical = (lines: string[], timing = paris) => formatRecurrence(parseRecurrence(lines, timing));

  it('writes upper case, UNTIL in UTC, RRULE first, one sorted line per RDATE and EXDATE', () => {
    expect(
      canonical([
        'exdate:20270112T190000,20270107T190000',
        ' RRULE:freq=weekly;byday=tu,th;until=20271231T235959 ',
        'EXDATE;VALUE=DATE:20270114',
        'RDATE:20270704T170000Z,20270706T190000',
        'EXDATE:20270107T190000',
      ]),
    ).toEqual([
      // A local UNTIL is the series' wall time: 23:59:59 in Paris is 22:59:59 UTC.
      'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231T225959Z',
      'RDATE:20270704T170000Z',
      'RDATE:20270706T190000',
      'EXDATE:20270107T190000',
      'EXDATE:20270112T190000',
      'EXDATE;VALUE=DATE:20270114',
    ]);
  });

  it('reads a date UNTIL on a timed series as the end of that day in its zone; an all-day series keeps a date', () => {
    expect(canonical(['RRULE:FREQ=DAILY;UNTIL=20270301'])).toEqual(['RRULE:FREQ=DAILY;UNTIL=20270301T225959Z']);
    const allDay: SeriesTiming = { startDate: '2027-01-05 00:00:00', endDate: '2027-01-05 23:59:59', timezone: 'America/New_York', allDay: true };
    expect(canonical(['RRULE:FREQ=DAILY;UNTIL=20270301'], allDay)).toEqual(['RRULE:FREQ=DAILY;UNTIL=20270301']);
    expect(canonical(['RRULE:FREQ=DAILY;UNTIL=20270302T030000Z'], allDay)).toEqual(['RRULE:FREQ=DAILY;UNTIL=20270301']);
  });

  it('leaves out INTERVAL=1 and WKST=MO, the defaults, and keeps the others', () => {
    expect(canonical(['RRULE:FREQ=WEEKLY;INTERVAL=1;WKST=MO;BYDAY=MO'])).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=MO']);
    expect(canonical(['RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=MO,SU;COUNT=4'])).toEqual(['RRULE:FREQ=WEEKLY;COUNT=4;INTERVAL=2;BYDAY=MO,SU;WKST=SU']);
  });

  it('is stable: the canonical lines read back to themselves', () => {
    const line = fc.constantFrom(
      'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231T235959',
      'rrule:freq=monthly;bymonthday=-1;count=9',
      'RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=2,3;BYDAY=-1SU',
      'RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20280101',
    );
    const date = fc.constantFrom('20270105T190000', '20270106T180000Z', '20270301', '20270105T190000');
    const dates = (name: string) => fc.array(date, { maxLength: 3 }).map((ds) => ds.map((d) => (d.length === 8 ? `${name};VALUE=DATE:${d}` : `${name}:${d}`)));
    fc.assert(
      fc.property(fc.option(line, { nil: undefined }), dates('RDATE'), dates('EXDATE'), (rrule, rdates, exdates) => {
        const once = canonical([...(rrule ? [rrule] : []), ...rdates, ...exdates]);
        expect(canonical(once)).toEqual(once);
      }),
    );
  });
});

describe('validateRecurrence: bad input is a RecurrenceError, never another error', () => {
  const refusedOrValid = (input: unknown, timing = paris) => {
    try {
      validateRecurrence(input, timing, limits);
    } catch (e) {
      if (!(e instanceof RecurrenceError)) throw e;
    }
  };

  it.each([
    'RRULE:FREQ=WEEKLY;BYDAY=',
    'RRULE:FREQ=WEEKLY;UNTIL=',
    'RRULE:FREQ=WEEKLY;COUNT=',
    'RRULE:FREQ=WEEKLY;COUNT=1.5',
    'RRULE:FREQ=WEEKLY;INTERVAL=-1',
    'RRULE:FREQ=WEEKLY;BYMONTH=0',
    'RRULE:FREQ=WEEKLY;BYHOUR=24',
    'RRULE:FREQ=DAILY;BYMINUTE=60',
    'RRULE:FREQ=DAILY;BYSECOND=61',
    'RRULE:FREQ=MONTHLY;BYSETPOS=0;BYDAY=MO',
    'RRULE:FREQ=WEEKLY;WKST=XX',
    'RRULE:FREQ=WEEKLY;UNTIL=20270230',
    'RRULE:FREQ=YEARLY;BYYEARDAY=0',
    'RRULE:FREQ=YEARLY;BYYEARDAY=367',
    'RRULE:FREQ=MONTHLY;BYDAY=+0MO',
    'RRULE:FREQ=MONTHLY;BYDAY=6MO',
    'RRULE:FREQ=YEARLY;BYDAY=54MO',
    'RRULE:FREQ=MONTHLY;BYMONTHDAY=0',
    'RRULE:FREQ=YEARLY;INTERVAL=100000',
    'RRULE:FREQ=DAILY;COUNT=99999999999',
    'RRULE:',
    'RRULE:;',
    'RRULE:=',
    'RRULE:FREQ',
    'RDATE:',
    'EXDATE;VALUE=DATE:',
    'RDATE:,',
  ])('%s', (line) => {
    refusedOrValid([line]);
  });

  it('holds for random lines made of rule parts and values', () => {
    const part = fc.tuple(
      fc.constantFrom(...RULE_PARTS, 'X'),
      fc.oneof(
        fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'MO', '-1FR', '2TU,TH', '20271231T235959Z', '20271231', '-5', '0', '1,15,-1'),
        fc.integer({ min: -400, max: 400 }).map(String),
        fc.string({ maxLength: 6 }),
      ),
    );
    const rrule = fc.array(part, { minLength: 1, maxLength: 5 }).map((ps) => `RRULE:${ps.map(([k, v]) => `${k}=${v}`).join(';')}`);
    const dateLine = fc
      .tuple(fc.constantFrom('RDATE', 'EXDATE', 'RDATE;VALUE=DATE', 'EXDATE;VALUE=DATE'), fc.string({ maxLength: 20 }))
      .map(([n, v]) => `${n}:${v}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(rrule, dateLine, fc.string({ maxLength: 30 })), { maxLength: 4 }), fc.boolean(), (lines, allDay) => {
        refusedOrValid(lines, allDay ? { ...paris, startDate: '2027-01-05 00:00:00', endDate: '2027-01-05 23:59:59', allDay } : paris);
      }),
      { numRuns: 500 },
    );
  });
});
