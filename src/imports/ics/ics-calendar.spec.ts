import { calendarText, INVENTED_ZONE, OUTLOOK_W_EUROPE } from '../../../test/support/ics-calendars';
import { wallToUtc } from '../../common/datetime/format';
import { calendarEntries, Entry, EventInput, IcsInputError, isOlderVersion, parseCalendar, sourceKey, SKIP, versionOf } from './ics-calendar';

const WINDOW = { fromMs: Date.parse('2025-01-01T00:00:00Z'), toMs: Date.parse('2026-01-01T00:00:00Z') };
const OPTS = { window: WINDOW, siteZone: 'UTC', categories: [] };

function entries(lines: string[], head: string[] = [], opts = {}): Entry[] {
  return calendarEntries(parseCalendar(calendarText(lines, head)), { ...OPTS, ...opts });
}
const events = (list: Entry[]) => list.filter((e): e is Extract<Entry, { kind: 'event' }> => e.kind === 'event');
const vevent = (...props: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20250101T000000Z', ...props, 'END:VEVENT'];
/** The instants an event's input means, in UTC, as the API would store them. */
const utc = (e: EventInput) => [wallToUtc(e.start_date, e.timezone), wallToUtc(e.end_date, e.timezone)];

describe('parseCalendar', () => {
  it.each([
    ['', /does not start with BEGIN:VCALENDAR/],
    ['hello world', /does not start with BEGIN:VCALENDAR/],
    ['BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBROKEN LINE\r\nEND:VCALENDAR', /not a valid iCalendar file/],
  ])('refuses %j with one clear line', (text, message) => {
    expect(() => parseCalendar(text)).toThrow(IcsInputError);
    expect(() => parseCalendar(text)).toThrow(message);
  });
});

describe('parseCalendar: lenient reading', () => {
  it('reads RRULE values with whitespace inside (Exchange: BYDAY=MO, TU)', () => {
    const list = events(entries(vevent('UID:r', 'DTSTART:20250303T090000Z', 'RRULE:FREQ=WEEKLY; COUNT=4; BYDAY=MO, TU')));
    expect(list.map((e) => utc(e.input)[0])).toEqual(['2025-03-03 09:00:00', '2025-03-04 09:00:00', '2025-03-10 09:00:00', '2025-03-11 09:00:00']);
  });

  it('refuses only the VEVENT it cannot read, with its UID, SUMMARY and line; a folded line counts as the lines it is written on', () => {
    const text = calendarText([
      ...vevent('UID:good-1', 'DTSTART:20250301T120000Z', 'SUMMARY:Good one'),
      ...vevent('UID:bad', 'SUMMARY:Bad', 'DESCRIPTION:a long', '  folded line', 'DTSTART:20250302T120000Z', 'RRULE:FREQ=WEEKLY;BYDAY=ZZ'),
      ...vevent('DTSTART:20250303T120000Z', 'RRULE:FREQ=NEVER'),
      ...vevent('UID:good-2', 'DTSTART:20250304T120000Z', 'SUMMARY:Good two'),
    ]);
    const cal = parseCalendar(text);
    expect(cal.vevents.map((v) => v.getFirstPropertyValue('uid'))).toEqual(['good-1', 'good-2']);
    const line = (prefix: string) => text.split('\r\n').findIndex((l) => l.startsWith(prefix)) + 1;
    expect(cal.unreadable).toEqual([
      { uid: 'bad', summary: 'Bad', line: line('RRULE:FREQ=WEEKLY;BYDAY=ZZ'), text: 'RRULE:FREQ=WEEKLY;BYDAY=ZZ', message: expect.stringContaining('ZZ') },
      { uid: '(no UID)', summary: '', line: line('RRULE:FREQ=NEVER'), text: 'RRULE:FREQ=NEVER', message: expect.any(String) },
    ]);
    expect(calendarEntries(cal, OPTS).filter((e) => e.kind === 'failed')).toEqual([
      { kind: 'failed', uid: 'bad ("Bad")', message: expect.stringMatching(/^line \d+ \(RRULE:FREQ=WEEKLY;BYDAY=ZZ\): .*ZZ/) },
      { kind: 'failed', uid: '(no UID)', message: expect.stringMatching(/^line \d+ \(RRULE:FREQ=NEVER\): /) },
    ]);
  });
  it('refuses only the series whose rule ical.js cannot expand (FREQ=WEEKLY with BYMONTHDAY), naming it; the others are read', () => {
    const list = entries([
      ...vevent('UID:good', 'SUMMARY:Good', 'DTSTART:20250301T120000Z'),
      ...vevent('UID:odd', 'SUMMARY:Weekly on the 31st', 'DTSTART:20250303T120000Z', 'RRULE:FREQ=WEEKLY;BYMONTHDAY=31'),
    ]);
    expect(events(list).map((e) => e.input.title)).toEqual(['Good']);
    expect(list.filter((e) => e.kind === 'failed')).toEqual([
      { kind: 'failed', uid: 'odd ("Weekly on the 31st")', message: expect.stringMatching(/^RRULE:FREQ=WEEKLY;BYMONTHDAY=31: .*BYMONTHDAY/) },
    ]);
  });
});

describe('calendarEntries: times', () => {
  it('reads a Windows TZID and an IANA TZID to the instants the file means', () => {
    const list = events(
      entries([
        ...OUTLOOK_W_EUROPE,
        ...vevent('UID:w', 'SUMMARY:Winter', 'DTSTART;TZID=W. Europe Standard Time:20250115T100000', 'DTEND;TZID=W. Europe Standard Time:20250115T113000'),
        ...vevent('UID:s', 'SUMMARY:Summer', 'DTSTART;TZID=America/New_York:20250715T090000', 'DURATION:PT2H'),
      ]),
    );
    expect(list.map((e) => ({ uid: e.uid, tz: e.input.timezone, utc: utc(e.input) }))).toEqual([
      { uid: 'w', tz: 'Europe/Berlin', utc: ['2025-01-15 09:00:00', '2025-01-15 10:30:00'] },
      { uid: 's', tz: 'America/New_York', utc: ['2025-07-15 13:00:00', '2025-07-15 15:00:00'] },
    ]);
  });

  it('reads UTC as the zone UTC, floating times in X-WR-TIMEZONE (or the site zone)', () => {
    const lines = [
      ...vevent('UID:u', 'DTSTART:20250301T120000Z', 'DTEND:20250301T130000Z'),
      ...vevent('UID:f', 'DTSTART:20250301T120000', 'DTEND:20250301T130000'),
    ];
    const google = events(entries(lines, ['X-WR-TIMEZONE:Asia/Tokyo']));
    expect(google.map((e) => [e.input.timezone, utc(e.input)[0]])).toEqual([
      ['UTC', '2025-03-01 12:00:00'],
      ['Asia/Tokyo', '2025-03-01 03:00:00'],
    ]);
    const plain = events(entries(lines, [], { siteZone: 'Europe/Paris' }));
    expect(plain[1].input).toMatchObject({ timezone: 'Europe/Paris', start_date: '2025-03-01 12:00:00' });
  });

  it('keeps the instants of a VTIMEZONE no IANA zone matches, in its fixed offset at the start', () => {
    const [e] = events(
      entries([...INVENTED_ZONE, ...vevent('UID:i', 'DTSTART;TZID=Invented Time:20250701T100000', 'DTEND;TZID=Invented Time:20250701T110000')]),
    );
    expect(e.input.timezone).toBe('UTC+2:30');
    expect(utc(e.input)).toEqual(['2025-07-01 07:30:00', '2025-07-01 08:30:00']);
  });

  it('fails an event whose TZID nothing describes, naming the zone', () => {
    expect(entries(vevent('UID:x', 'DTSTART;TZID=Nowhere Time:20250701T100000'))).toEqual([
      { kind: 'failed', uid: 'x', message: 'unknown time zone "Nowhere Time" (no VTIMEZONE describes it)' },
    ]);
  });

  it.each([
    ['DTEND the day after: one day', ['DTSTART;VALUE=DATE:20250310', 'DTEND;VALUE=DATE:20250311'], '2025-03-10 00:00:00', '2025-03-10 23:59:59'],
    ['DTEND exclusive over three days', ['DTSTART;VALUE=DATE:20250310', 'DTEND;VALUE=DATE:20250313'], '2025-03-10 00:00:00', '2025-03-12 23:59:59'],
    ['no DTEND: one day', ['DTSTART;VALUE=DATE:20250310'], '2025-03-10 00:00:00', '2025-03-10 23:59:59'],
    ['DURATION of two days', ['DTSTART;VALUE=DATE:20250310', 'DURATION:P2D'], '2025-03-10 00:00:00', '2025-03-11 23:59:59'],
  ])('all-day: %s', (_, props, start, end) => {
    const [e] = events(entries(vevent('UID:d', ...props), ['X-WR-TIMEZONE:Europe/Rome']));
    expect(e.input).toMatchObject({ all_day: true, start_date: start, end_date: end, timezone: 'Europe/Rome' });
  });

  it('skips an event without DTSTART, and a cancelled one, with reasons; one without UID is read', () => {
    const list = entries([
      ...vevent('UID:a', 'SUMMARY:No start'),
      ...vevent('SUMMARY:No uid', 'DTSTART:20250301T120000Z'),
      ...vevent('UID:c', 'STATUS:CANCELLED', 'DTSTART:20250301T120000Z'),
    ]);
    expect(list.map((e) => (e.kind === 'skipped' ? e.reason : e.kind))).toEqual([SKIP.noStart, 'event', SKIP.cancelled]);
  });

  it('gives an event without UID one derived from DTSTART, SUMMARY and LOCATION: the same on every read, another when one of them differs', () => {
    const uidOf = (...props: string[]) => events(entries(vevent(...props)))[0].uid;
    const base = ['DTSTART;TZID=Europe/Paris:20250301T120000', 'SUMMARY:Lunch', 'LOCATION:Canteen'];
    const uid = uidOf(...base);
    expect(uid).toMatch(/^derived-[0-9a-f]{40}$/);
    expect(uidOf(...base, 'DESCRIPTION:changed')).toBe(uid);
    expect(uidOf('DTSTART;TZID=Europe/Paris:20250301T130000', 'SUMMARY:Lunch', 'LOCATION:Canteen')).not.toBe(uid);
    expect(uidOf('DTSTART:20250301T120000', 'SUMMARY:Lunch', 'LOCATION:Canteen')).not.toBe(uid);
    expect(uidOf(base[0], 'SUMMARY:Dinner', base[2])).not.toBe(uid);
    expect(uidOf(base[0], base[1], 'LOCATION:Garden')).not.toBe(uid);
  });
});

describe('calendarEntries: recurrence', () => {
  const series = [
    ...vevent(
      'UID:weekly',
      'SUMMARY:Stand-up',
      'DTSTART;TZID=Europe/Berlin:20250317T090000',
      'DTEND;TZID=Europe/Berlin:20250317T093000',
      'RRULE:FREQ=WEEKLY;UNTIL=20250414T070000Z',
      'EXDATE;TZID=Europe/Berlin:20250324T090000',
    ),
    ...vevent(
      'UID:weekly',
      'RECURRENCE-ID;TZID=Europe/Berlin:20250331T090000',
      'SUMMARY:Stand-up (moved)',
      'DTSTART;TZID=Europe/Berlin:20250331T140000',
      'DTEND;TZID=Europe/Berlin:20250331T143000',
    ),
    ...vevent('UID:weekly', 'RECURRENCE-ID:20250407T070000Z', 'STATUS:CANCELLED', 'DTSTART;TZID=Europe/Berlin:20250407T090000'),
  ];

  it('expands in local time across DST, honours UNTIL, EXDATE and overrides', () => {
    const list = entries(series);
    const written = events(list).map((e) => ({ key: e.key, title: e.input.title, utc: utc(e.input)[0] }));
    expect(written).toEqual([
      // 09:00 Berlin: CET (+1) before 30 March, CEST (+2) after.
      { key: 'weekly|20250317T080000Z', title: 'Stand-up', utc: '2025-03-17 08:00:00' },
      // 24 March is an EXDATE; 31 March is overridden (moved to 14:00), 7 April cancelled; UNTIL is 14 April 07:00Z, inclusive.
      { key: 'weekly|20250414T070000Z', title: 'Stand-up', utc: '2025-04-14 07:00:00' },
      { key: 'weekly|20250331T070000Z', title: 'Stand-up (moved)', utc: '2025-03-31 12:00:00' },
    ]);
    expect(list.filter((e) => e.kind === 'skipped').map((e) => (e as { reason: string }).reason)).toEqual([SKIP.cancelled]);
  });

  it('keeps to the import window and caps the occurrences of a series', () => {
    const daily = vevent('UID:daily', 'DTSTART:20240101T120000Z', 'DTEND:20240101T130000Z', 'RRULE:FREQ=DAILY');
    const list = entries(daily, [], { window: { fromMs: Date.parse('2025-06-01T00:00:00Z'), toMs: Date.parse('2025-06-11T00:00:00Z') } });
    expect(events(list).map((e) => e.key)).toEqual(Array.from({ length: 10 }, (_, i) => `daily|202506${String(i + 1).padStart(2, '0')}T120000Z`));
    const capped = entries(daily, [], { cap: 4 });
    expect(events(capped)).toHaveLength(4);
    expect(capped.find((e) => e.kind === 'skipped')).toMatchObject({ reason: SKIP.overCap, count: 365 - 4 });
  });

  it('says a series with no occurrence in the window is skipped as outside it, once per series', () => {
    const birthday = (n: number, date: string) => vevent(`UID:b${n}`, `DTSTART;VALUE=DATE:${date}`, 'RRULE:FREQ=YEARLY');
    const june = { window: { fromMs: Date.parse('2025-06-01T00:00:00Z'), toMs: Date.parse('2025-07-01T00:00:00Z') } };
    const list = entries([...birthday(1, '19850315'), ...birthday(2, '19900612'), ...birthday(3, '20011224')], [], june);
    expect(list.map((e) => (e.kind === 'skipped' ? [e.uid, e.reason, e.count] : [e.uid, e.kind]))).toEqual([
      ['b1', SKIP.outside, 1],
      ['b2', 'event'],
      ['b3', SKIP.outside, 1],
    ]);
  });

  it("reads a bare date EXDATE (no VALUE=DATE) on a timed series as removing that day's occurrence, and imports the rest", () => {
    const list = entries([
      ...vevent('UID:bare', 'DTSTART;TZID=Europe/Berlin:20250109T100000', 'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20250116,20250123', 'SUMMARY:Bare'),
      ...vevent('UID:other', 'DTSTART:20250301T120000Z', 'SUMMARY:Other'),
    ]);
    expect(list.filter((e) => e.kind !== 'event')).toEqual([]);
    expect(events(list).map((e) => [e.uid, utc(e.input)[0]])).toEqual([
      ['bare', '2025-01-09 09:00:00'],
      ['bare', '2025-01-30 09:00:00'],
      ['other', '2025-03-01 12:00:00'],
    ]);
  });

  it('takes the copy with the highest SEQUENCE of a VEVENT given twice, then the latest LAST-MODIFIED, then DTSTAMP, wherever it is in the file', () => {
    const copy = (uid: string, title: string, ...props: string[]) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTART:20250301T120000Z',
      `SUMMARY:${title}`,
      ...props,
      'END:VEVENT',
    ];
    const list = entries([
      ...copy('seq', 'new', 'SEQUENCE:3', 'DTSTAMP:20250101T000000Z'),
      ...copy('seq', 'old', 'SEQUENCE:1', 'DTSTAMP:20250201T000000Z'),
      ...copy('mod', 'old', 'LAST-MODIFIED:20250101T000000Z', 'DTSTAMP:20250301T000000Z'),
      ...copy('mod', 'new', 'LAST-MODIFIED:20250102T000000Z', 'DTSTAMP:20250101T000000Z'),
      ...copy('stamp', 'new', 'DTSTAMP:20250105T000000Z'),
      ...copy('stamp', 'old', 'DTSTAMP:20250104T000000Z'),
      ...copy('rid', 'series', 'RRULE:FREQ=DAILY;COUNT=2'),
      ...copy('rid', 'new', 'RECURRENCE-ID:20250302T120000Z', 'SEQUENCE:2'),
      ...copy('rid', 'old', 'RECURRENCE-ID:20250302T120000Z', 'SEQUENCE:1'),
    ]);
    expect(events(list).map((e) => [e.key, e.input.title])).toEqual([
      ['seq', 'new'],
      ['mod', 'new'],
      ['stamp', 'new'],
      ['rid|20250301T120000Z', 'series'],
      ['rid|20250302T120000Z', 'new'],
    ]);
  });

  it('expands all-day series by days, with COUNT', () => {
    const list = events(entries(vevent('UID:yearly', 'DTSTART;VALUE=DATE:20250501', 'DTEND;VALUE=DATE:20250503', 'RRULE:FREQ=MONTHLY;COUNT=3')));
    expect(list.map((e) => [e.key, e.input.start_date, e.input.end_date])).toEqual([
      ['yearly|20250501', '2025-05-01 00:00:00', '2025-05-02 23:59:59'],
      ['yearly|20250601', '2025-06-01 00:00:00', '2025-06-02 23:59:59'],
      ['yearly|20250701', '2025-07-01 00:00:00', '2025-07-02 23:59:59'],
    ]);
  });
});

describe('calendarEntries: fields', () => {
  it('maps SUMMARY, DESCRIPTION, URL, LOCATION, GEO, ORGANIZER and CATEGORIES (plus --category)', () => {
    const [e] = events(
      entries(
        vevent(
          'UID:m',
          'DTSTART:20250301T120000Z',
          'SUMMARY:Tea & <b>talk</b>',
          'DESCRIPTION:First line\\nsecond <line>\\n\\nNew paragraph',
          'URL:https://example.org/tea',
          'LOCATION:Town Hall\\, 1 Main Street\\, Springfield',
          'GEO:40.5;-74.25',
          'ORGANIZER;CN="Ann Smith":mailto:ann@example.org',
          'CATEGORIES:Talks,Food',
          'CATEGORIES:talks',
        ),
        [],
        { categories: ['Imported', 'Food'] },
      ),
    );
    expect(e.input).toMatchObject({
      title: 'Tea & &lt;b>talk&lt;/b>',
      description: '<p>First line<br />\nsecond &lt;line&gt;</p>\n<p>New paragraph</p>',
      website: 'https://example.org/tea',
      venue: { venue: 'Town Hall', address: '1 Main Street, Springfield', geo_lat: 40.5, geo_lng: -74.25 },
      organizer: { organizer: 'Ann Smith', email: 'ann@example.org' },
      categories: ['Talks', 'Food', 'Imported'],
    });
  });

  it('prefers X-ALT-DESC HTML, and reads an Apple LOCATION line by line', () => {
    const [e] = events(
      entries(
        vevent(
          'UID:h',
          'DTSTART:20250301T120000Z',
          'DESCRIPTION:plain',
          'X-ALT-DESC;FMTTYPE=text/html:<html><body><p>Rich</p></body></html>',
          'LOCATION:Apple Park\\n1 Apple Park Way\\nCupertino CA 95014',
        ),
      ),
    );
    expect(e.input.description).toBe('<p>Rich</p>');
    expect(e.input.venue).toEqual({ venue: 'Apple Park', address: '1 Apple Park Way, Cupertino CA 95014' });
    expect(e.input.title).toBe('(no title)');
  });
});

describe('keys and versions', () => {
  it('keys an occurrence by UID and RECURRENCE-ID; a key too long for the column by its digest', () => {
    expect(sourceKey('abc', null)).toBe('abc');
    expect(sourceKey('abc', '20250301T120000Z')).toBe('abc|20250301T120000Z');
    expect(sourceKey('x'.repeat(190), '20250301')).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('changes the version with the fields, and tells an older copy by SEQUENCE and LAST-MODIFIED', () => {
    const v1 = versionOf(1, '20250101T000000Z', { title: 'a' });
    expect(versionOf(1, '20250101T000000Z', { title: 'a' })).toBe(v1);
    expect(versionOf(1, '20250101T000000Z', { title: 'b' })).not.toBe(v1);
    expect(v1.length).toBeLessThanOrEqual(64);
    expect(isOlderVersion(versionOf(0, null, {}), v1)).toBe(true);
    expect(isOlderVersion(versionOf(1, '20241231T000000Z', {}), v1)).toBe(true);
    expect(isOlderVersion(versionOf(1, '20250102T000000Z', {}), v1)).toBe(false);
    expect(isOlderVersion(versionOf(2, null, {}), v1)).toBe(false);
    expect(isOlderVersion(v1, null)).toBe(false);
  });

  it('gives the same entries for the same file (a re-import finds nothing changed)', () => {
    const lines = vevent('UID:same', 'DTSTART:20250301T120000Z', 'SUMMARY:Same');
    expect(entries(lines)).toEqual(entries(lines));
  });
});

// ical.js's iterator searches without end for a rule that never gives a day (the import
// would hang), and turns a day a month lacks into the next month's. Jest cannot stop a synchronous
// loop, so a regression shows as a run that never ends; the timeout catches a slow one.
describe('calendarEntries: rules that never (or rarely) recur', () => {
  const keys = (list: Entry[]) => list.map((e) => (e.kind === 'skipped' ? `${e.reason}` : e.kind === 'event' ? e.key : e.kind));

  it.each([
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31',
    'FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2,4',
    'FREQ=DAILY;INTERVAL=7;BYDAY=TU',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;BYDAY=MO',
    'FREQ=HOURLY;BYMONTH=11;BYMONTHDAY=31',
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;UNTIL=20300101T000000Z',
  ])(
    'reports %s as a series with no occurrence in the window, promptly',
    (rule) => {
      const list = entries(vevent('UID:never', 'DTSTART:20240101T100000Z', 'DTEND:20240101T110000Z', `RRULE:${rule}`));
      expect(keys(list)).toEqual([SKIP.outside]);
    },
    5_000,
  );

  it('gives up on a sub-daily rule that gives nothing after a bounded search, saying the series is too dense', () => {
    const list = entries(vevent('UID:never', 'DTSTART:20250101T100000Z', 'DTEND:20250101T100001Z', 'RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30'));
    expect(keys(list)).toEqual([SKIP.tooDense, 'never|20250101T100000Z']);
  }, 30_000);

  it('imports only the series start of an impossible rule when the start is in the window', () => {
    const list = entries(vevent('UID:never', 'DTSTART:20250301T100000Z', 'DTEND:20250301T110000Z', 'RRULE:FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31'));
    expect(keys(list)).toEqual(['never|20250301T100000Z']);
  }, 5_000);

  it('gives a daily rule for 29 February only in leap years', () => {
    const window = { fromMs: Date.parse('2025-01-01T00:00:00Z'), toMs: Date.parse('2033-01-01T00:00:00Z') };
    const list = entries(vevent('UID:leap', 'DTSTART:20250101T100000Z', 'DTEND:20250101T110000Z', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29'), [], { window });
    expect(keys(list)).toEqual(['leap|20250101T100000Z', 'leap|20280229T100000Z', 'leap|20320229T100000Z']);
  }, 5_000);

  it.each([
    ['FREQ=YEARLY', ['leap|20240229', 'leap|20280229', 'leap|20320229', 'leap|20360229']],
    ['FREQ=YEARLY;COUNT=3', ['leap|20240229', 'leap|20280229', 'leap|20320229']],
    ['FREQ=YEARLY;INTERVAL=2', ['leap|20240229', 'leap|20280229', 'leap|20320229', 'leap|20360229']],
    ['FREQ=YEARLY;UNTIL=20320301', ['leap|20240229', 'leap|20280229', 'leap|20320229']],
  ])(
    'repeats a %s series from 29 February in leap years only (RFC 5545: a day a year lacks is skipped)',
    (rule, expected) => {
      const window = { fromMs: Date.parse('2024-01-01T00:00:00Z'), toMs: Date.parse('2037-01-01T00:00:00Z') };
      const list = entries(vevent('UID:leap', 'DTSTART;VALUE=DATE:20240229', `RRULE:${rule}`), [], { window });
      expect(keys(list)).toEqual(expected);
    },
    5_000,
  );

  it('repeats a monthly series from the 31st only in months that have one, COUNT counting those', () => {
    const list = entries(vevent('UID:m31', 'DTSTART:20250131T100000Z', 'DTEND:20250131T110000Z', 'RRULE:FREQ=MONTHLY;COUNT=4'));
    expect(keys(list)).toEqual(['m31|20250131T100000Z', 'm31|20250331T100000Z', 'm31|20250531T100000Z', 'm31|20250731T100000Z']);
  }, 5_000);

  it('repeats a yearly series on 30 and 31 April only on the 30th', () => {
    const list = entries(vevent('UID:apr', 'DTSTART:20250430T100000Z', 'DTEND:20250430T110000Z', 'RRULE:FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=30,31;COUNT=2'), [], {
      window: { fromMs: Date.parse('2025-01-01T00:00:00Z'), toMs: Date.parse('2030-01-01T00:00:00Z') },
    });
    expect(keys(list)).toEqual(['apr|20250430T100000Z', 'apr|20260430T100000Z']);
  }, 5_000);
});

describe('calendarEntries: series kept from files that started long ago', () => {
  const KEEP = { keepSeries: true };
  const series = (list: Entry[]) => events(list).find((e) => e.input.recurrence !== undefined)!;

  it('starts a series whose start is before the window at its first occurrence in the window, COUNT less the occurrences before', () => {
    const list = entries(
      [
        ...vevent(
          'UID:daily',
          'DTSTART;TZID=America/New_York:20120105T083000',
          'DTEND;TZID=America/New_York:20120105T090000',
          'RRULE:FREQ=DAILY',
          'SUMMARY:Daily',
        ),
        ...vevent('UID:counted', 'DTSTART:20240101T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=60', 'EXDATE:20240108T100000Z', 'SUMMARY:Counted'),
      ],
      [],
      KEEP,
    );
    const daily = events(list).find((e) => e.uid === 'daily')!;
    expect([daily.input.start_date, daily.input.end_date, daily.input.timezone, daily.input.recurrence]).toEqual([
      '2025-01-01 08:30:00',
      '2025-01-01 09:00:00',
      'America/New_York',
      ['RRULE:FREQ=DAILY'],
    ]);
    const counted = events(list).find((e) => e.uid === 'counted')!;
    // 2024-01-01 … 2024-12-30 are the first 53 occurrences: 7 are left, from 2025-01-06; the 2024 EXDATE goes.
    expect([counted.input.start_date, counted.input.recurrence]).toEqual(['2025-01-06 10:00:00', ['RRULE:FREQ=WEEKLY;COUNT=7']]);
  });

  it('starts a series whose own start is excluded (EXDATE, or a cancelled override) at its next occurrence', () => {
    const list = entries(
      [
        ...vevent('UID:exdated', 'DTSTART:20250303T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20250303T090000Z', 'SUMMARY:Exdated'),
        ...vevent('UID:cancelled', 'DTSTART:20250304T090000Z', 'RRULE:FREQ=WEEKLY;COUNT=4', 'SUMMARY:Cancelled first'),
        ...vevent('UID:cancelled', 'RECURRENCE-ID:20250304T090000Z', 'DTSTART:20250304T090000Z', 'STATUS:CANCELLED'),
      ],
      [],
      KEEP,
    );
    expect(events(list).map((e) => [e.uid, e.input.start_date, e.input.recurrence])).toEqual([
      ['exdated', '2025-03-10 09:00:00', ['RRULE:FREQ=WEEKLY;COUNT=3']],
      ['cancelled', '2025-03-11 09:00:00', ['RRULE:FREQ=WEEKLY;COUNT=3']],
    ]);
  });

  it('keeps the start an earlier import gave the series while the rule still gives it', () => {
    const list = entries(vevent('UID:daily', 'DTSTART:20120105T083000Z', 'RRULE:FREQ=DAILY', 'SUMMARY:Daily'), [], {
      ...KEEP,
      keptStarts: new Map([['daily', { utc: '2024-12-01 08:30:00', wall: '2024-12-01 08:30:00' }]]),
    });
    expect(series(list).input.start_date).toBe('2024-12-01 08:30:00');
  });

  it('keeps a birthday series whose RDATEs are before its start, from its first birthday in the window', () => {
    const list = entries(
      vevent(
        'UID:birthday',
        'DTSTART;VALUE=DATE:20190415',
        'DTEND;VALUE=DATE:20190416',
        'RRULE:FREQ=YEARLY',
        'RDATE;VALUE=DATE:19850415,19860415',
        "SUMMARY:Ann's birthday",
      ),
      [],
      KEEP,
    );
    expect(list.filter((e) => e.kind !== 'event')).toEqual([]);
    expect([series(list).input.start_date, series(list).input.recurrence]).toEqual(['2025-04-15 00:00:00', ['RRULE:FREQ=YEARLY']]);
  });

  it("expands a series instead when an RDATE in the window comes before its start (the service's first occurrence is its start)", () => {
    const list = entries(vevent('UID:early', 'DTSTART:20250601T100000Z', 'RRULE:FREQ=MONTHLY;COUNT=3', 'RDATE:20250501T100000Z', 'SUMMARY:Early'), [], KEEP);
    expect(events(list).map((e) => [e.key, e.input.recurrence])).toEqual([
      ['early|20250501T100000Z', undefined],
      ['early|20250601T100000Z', undefined],
      ['early|20250701T100000Z', undefined],
      ['early|20250801T100000Z', undefined],
    ]);
  });
});

describe("calendarEntries: Exchange's all-day overrides", () => {
  const file = [
    ...OUTLOOK_W_EUROPE,
    ...vevent('UID:allday-ex', 'DTSTART;VALUE=DATE:20250219', 'DTEND;VALUE=DATE:20250220', 'RRULE:FREQ=WEEKLY;COUNT=3', 'SUMMARY:Team day'),
    ...vevent(
      'UID:allday-ex',
      'RECURRENCE-ID;TZID=W. Europe Standard Time:20250226T000000',
      'DTSTART;VALUE=DATE:20250227',
      'DTEND;VALUE=DATE:20250228',
      'SUMMARY:Team day (moved)',
    ),
  ];

  it('matches a RECURRENCE-ID with a TZID and midnight to the day of an all-day series: the occurrence moves, it is not imported twice', () => {
    expect(events(entries(file)).map((e) => [e.key, e.input.start_date, e.input.title])).toEqual([
      ['allday-ex|20250219', '2025-02-19 00:00:00', 'Team day'],
      ['allday-ex|20250305', '2025-03-05 00:00:00', 'Team day'],
      ['allday-ex|20250226', '2025-02-27 00:00:00', 'Team day (moved)'],
    ]);
  });

  it('with series kept, updates the occurrence of that day', () => {
    const list = events(entries(file, ['X-WR-TIMEZONE:Europe/Berlin'], { keepSeries: true }));
    expect(list.map((e) => [e.key, e.occurrenceAt])).toEqual([
      ['allday-ex', undefined],
      ['allday-ex|20250226', '2025-02-25 23:00:00'],
    ]);
  });
});
