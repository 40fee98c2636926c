// import:ics of files as calendar programs write them, with the recurrence module off and on
// (ical.md, Import; recurrence.md §6): Windows display-name and fixed-offset TZIDs, a bare date
// EXDATE, a VEVENT given twice, long-running series, a birthdays calendar, Exchange's all-day
// override, and the same file imported across a switch of the module. The CLI runs as a child
// process on the test app's database; the events are read back through the API, and their
// instants compared with what ical.js and node-ical read from the same file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EventBody } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { icalJsOccurrences, nodeIcalOccurrences, SeenOccurrence } from '../../support/ical-oracles';
import { calendarText, OUTLOOK_EASTERN, OUTLOOK_W_EUROPE } from '../../support/ics-calendars';
import { createTestApp, TestApp } from '../../support/test-app';

const run = promisify(execFile);
// Spawns real processes, and the first one may compile the project first.
jest.setTimeout(240_000);

const ROOT = join(__dirname, '..', '..', '..');
const MODULE = { on: { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' }, off: { CALENDAR_RECURRENCE: 'off' } } as const;
type Mode = keyof typeof MODULE;
const vevent = (...props: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20300101T000000Z', ...props, 'END:VEVENT'];
const instants = (list: EventBody[]): SeenOccurrence[] =>
  list.map((e) => ({ start: e.utc_start_date, end: e.utc_end_date })).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));

const EASTERN_DISPLAY = '(UTC-05:00) Eastern Time (US & Canada)';
/** Outlook's Eastern VTIMEZONE under the display name some Outlook versions write as its TZID. */
const EASTERN_DISPLAY_ZONE = OUTLOOK_EASTERN.map((l) => (l.startsWith('TZID:') ? `TZID:${EASTERN_DISPLAY}` : l));

/** Google's VTIMEZONE of America/New_York (the US rules in force since 2007). */
const GOOGLE_NEW_YORK = OUTLOOK_EASTERN.map((l) => (l.startsWith('TZID:') ? 'TZID:America/New_York' : l));

/** UTC `YYYY-MM-DD HH:MM:SS` of now + `days`. */
const fromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');

/** One database per test group; the CLI and the readers use it with the module as asked. */
class Target {
  private dir!: string;
  private t!: TestApp;
  private admin!: string;
  private files = 0;

  async open(mode: Mode): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), 'calendar-rec-files-'));
    const mysql = /^(mysql|mariadb):/.test(process.env.TEST_DATABASE_URL ?? '');
    this.t = await createTestApp({ ...MODULE[mode], ...(mysql ? {} : { DATABASE_URL: `sqlite:${join(this.dir, 'target.sqlite')}` }) });
    this.admin = (await this.t.userHeader('importer', 'administrator')).authorization;
  }

  async close(): Promise<void> {
    await this.t.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Runs import:ics on this text with the module as asked; answers the summary line (the CLI's exit code must be 0). */
  async importIcs(text: string, mode: Mode, window: string[] = []): Promise<string> {
    const path = join(this.dir, `calendar-${++this.files}.ics`);
    writeFileSync(path, text);
    const { stdout } = await run(process.execPath, [join(ROOT, 'scripts', 'start.js'), '--cli', 'import:ics', path, ...window], {
      cwd: ROOT,
      env: { ...process.env, ...MODULE[mode], DATABASE_URL: this.t.databaseUrl, LOG_LEVEL: 'silent' },
    });
    return stdout.trim().split('\n').pop()!;
  }

  /** The published events whose title has `search`, in [from, to), read by an instance with the module as asked. */
  async events(mode: Mode, search: string, from: string, to: string): Promise<EventBody[]> {
    const reader = await createTestApp(MODULE[mode], { sharing: this.t });
    try {
      const found: EventBody[] = [];
      for (let page = 1; ; page++) {
        const res = await http(reader, this.admin).get(
          `${API}/events?search=${encodeURIComponent(search)}&start_date=${from}&end_date=${to}&per_page=50&page=${page}`,
        );
        if (res.status === 400 && page > 1) break; // past the last page
        expectStatus(res, 200);
        found.push(...(res.body.events as EventBody[]));
        if (page >= Number(res.headers['x-tec-totalpages'] ?? 1)) break;
      }
      return found;
    } finally {
      await reader.close();
    }
  }
}

describe.each(['off', 'on'] as const)('import:ics of real-world files, module %s', (mode) => {
  const target = new Target();
  beforeAll(() => target.open(mode));
  afterAll(() => target.close());
  const WINDOW_2030 = ['--from', '2030-01-01', '--to', '2031-01-01'];

  it('reads Windows display-name TZIDs (with their VTIMEZONE) to the instants ical.js and node-ical read', async () => {
    const text = calendarText([
      ...EASTERN_DISPLAY_ZONE,
      ...vevent(
        'UID:display-1@example.com',
        `DTSTART;TZID="${EASTERN_DISPLAY}":20300304T090000`,
        `DTEND;TZID="${EASTERN_DISPLAY}":20300304T100000`,
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'SUMMARY:Display zone call',
      ),
    ]);
    expect(await target.importIcs(text, mode, WINDOW_2030)).toMatch(/failed 0$/);
    const got = await target.events(mode, 'Display zone call', '2030-01-01', '2031-01-01');
    expect(got.map((e) => e.timezone)).toEqual(Array(4).fill('America/New_York'));
    expect(instants(got)).toEqual(icalJsOccurrences(text, new Date('2031-01-01')).get('display-1@example.com'));
    expect(instants(got)).toEqual(nodeIcalOccurrences(text, new Date('2030-01-01'), new Date('2031-01-01')).get('display-1@example.com'));
  });

  it("reads display names and fixed offsets without a VTIMEZONE: the zone Windows means, the service's UTC±N", async () => {
    const text = calendarText([
      ...vevent(
        'UID:display-2@example.com',
        'DTSTART;TZID="(GMT +01:00) Amsterdam, Berlin…":20300710T140000',
        'DTEND;TZID="(GMT +01:00) Amsterdam, Berlin…":20300710T150000',
        'SUMMARY:Berlin display',
      ),
      ...vevent('UID:fixed-1@example.com', 'DTSTART;TZID=UTC+01:20300710T140000', 'DTEND;TZID=UTC+01:20300710T150000', 'SUMMARY:Fixed offset'),
    ]);
    expect(await target.importIcs(text, mode, WINDOW_2030)).toMatch(/created 2, .*failed 0$/);
    const [berlin] = await target.events(mode, 'Berlin display', '2030-01-01', '2031-01-01');
    expect([berlin.timezone, berlin.utc_start_date, berlin.utc_end_date]).toEqual(['Europe/Berlin', '2030-07-10 12:00:00', '2030-07-10 13:00:00']);
    const [fixed] = await target.events(mode, 'Fixed offset', '2030-01-01', '2031-01-01');
    expect([fixed.timezone, fixed.utc_start_date, fixed.utc_end_date]).toEqual(['UTC+1', '2030-07-10 13:00:00', '2030-07-10 14:00:00']);
  });

  it('reads a bare date EXDATE on a timed series as removing that day, as node-ical does, and imports the rest of the file', async () => {
    const text = calendarText([
      ...vevent(
        'UID:bare-exdate@example.com',
        'DTSTART;TZID=Europe/Berlin:20300109T100000',
        'DTEND;TZID=Europe/Berlin:20300109T110000',
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'EXDATE:20300116',
        'SUMMARY:Bare exdate',
      ),
      ...vevent('UID:bare-other@example.com', 'DTSTART:20300301T120000Z', 'SUMMARY:Bare neighbour'),
    ]);
    expect(await target.importIcs(text, mode, WINDOW_2030)).toMatch(/failed 0$/);
    const got = await target.events(mode, 'Bare exdate', '2030-01-01', '2031-01-01');
    expect(instants(got)).toEqual(nodeIcalOccurrences(text, new Date('2030-01-01'), new Date('2031-01-01')).get('bare-exdate@example.com'));
    expect(instants(got).map((i) => i.start)).toEqual(['2030-01-09 09:00:00', '2030-01-23 09:00:00', '2030-01-30 09:00:00']);
    expect(await target.events(mode, 'Bare neighbour', '2030-01-01', '2031-01-01')).toHaveLength(1);
  });

  it("imports Google's daily series since 2012 and a yearly all-day series since 1998 in the default window, as ical.js reads them", async () => {
    const text = calendarText(
      [
        ...GOOGLE_NEW_YORK,
        ...vevent(
          'UID:3q9d8ak0bq1pb0s0h5vq2b8m7l@google.com',
          'DTSTART;TZID=America/New_York:20120105T083000',
          'DTEND;TZID=America/New_York:20120105T090000',
          'RRULE:FREQ=DAILY',
          'CREATED:20120104T170000Z',
          'LAST-MODIFIED:20120104T170000Z',
          'SEQUENCE:0',
          'STATUS:CONFIRMED',
          'SUMMARY:Morning check-in',
          'TRANSP:OPAQUE',
        ),
        ...vevent('UID:anniversary-1998@example.com', 'DTSTART;VALUE=DATE:19980811', 'DTEND;VALUE=DATE:19980812', 'RRULE:FREQ=YEARLY', 'SUMMARY:Founding day'),
      ],
      ['X-WR-CALNAME:Team', 'X-WR-TIMEZONE:America/New_York', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'],
    );
    expect(await target.importIcs(text, mode)).toMatch(/skipped 0, failed 0$/);
    // Inside the default window (30 days ago to a year ahead), with a day's margin for the CLI's own clock.
    const [from, to] = [fromNow(-29), fromNow(364)];
    const within = (list: SeenOccurrence[]) => list.filter((i) => i.start >= from && i.start < to);
    const daily = await target.events(mode, 'Morning check-in', from.slice(0, 10), to.slice(0, 10));
    const seen = icalJsOccurrences(text, new Date(`${to.replace(' ', 'T')}Z`), 10_000);
    expect(within(instants(daily))).toEqual(within(seen.get('3q9d8ak0bq1pb0s0h5vq2b8m7l@google.com')!));
    expect(within(instants(daily)).length).toBeGreaterThan(390);
    const yearly = await target.events(mode, 'Founding day', from.slice(0, 10), to.slice(0, 10));
    const dates = (list: { start: string }[]) => within(list as SeenOccurrence[]).map((i) => i.start.slice(0, 10));
    expect(yearly.filter((e) => e.start_date >= from && e.start_date < to).map((e) => e.start_date.slice(0, 10))).toEqual(
      dates(seen.get('anniversary-1998@example.com')!),
    );
  });

  it('imports a birthdays calendar: yearly all-day series with RDATEs before their start', async () => {
    const birthday = (uid: string, start: string, rdates: string, name: string) =>
      vevent(
        `UID:${uid}`,
        `DTSTART;VALUE=DATE:${start}`,
        `DTEND;VALUE=DATE:${String(Number(start) + 1)}`,
        'RRULE:FREQ=YEARLY',
        `RDATE;VALUE=DATE:${rdates}`,
        `SUMMARY:${name}'s birthday`,
        'TRANSP:TRANSPARENT',
        'X-GOOGLE-CALENDAR-CONTENT-DISPLAY:CHIP',
      );
    const text = calendarText(
      [
        ...birthday('2019_BIRTHDAY_c1a2b3@google.com', '20190415', '19850415,19860415', 'Ann Example'),
        ...birthday('2021_BIRTHDAY_d4e5f6@google.com', '20210903', '19790903', 'Bo Sample'),
      ],
      ['X-WR-CALNAME:Birthdays', 'X-WR-TIMEZONE:Europe/Berlin'],
    );
    expect(await target.importIcs(text, mode, WINDOW_2030)).toMatch(/skipped 0, failed 0$/);
    const got = await target.events(mode, 'birthday', '2030-01-01', '2031-01-01');
    expect(got.filter((e) => e.start_date < '2031-01-01').map((e) => [e.title, e.start_date, e.all_day])).toEqual([
      ["Ann Example's birthday", '2030-04-15 00:00:00', true],
      ["Bo Sample's birthday", '2030-09-03 00:00:00', true],
    ]);
  });

  it('moves the occurrence Exchange overrides with a zoned midnight RECURRENCE-ID on an all-day series, and imports it once', async () => {
    const text = calendarText([
      ...OUTLOOK_W_EUROPE,
      ...vevent(
        'UID:040000008200E00074C5B7101A82E0080000000010A3C2B1A0F9DB01000000000000000010000000AABBCCDDEEFF00112233445566778899',
        'DTSTART;VALUE=DATE:20300219',
        'DTEND;VALUE=DATE:20300220',
        'RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=TU',
        'SUMMARY:Offsite day',
        'X-MICROSOFT-CDO-ALLDAYEVENT:TRUE',
      ),
      ...vevent(
        'UID:040000008200E00074C5B7101A82E0080000000010A3C2B1A0F9DB01000000000000000010000000AABBCCDDEEFF00112233445566778899',
        'RECURRENCE-ID;TZID=W. Europe Standard Time:20300226T000000',
        'DTSTART;VALUE=DATE:20300227',
        'DTEND;VALUE=DATE:20300228',
        'SUMMARY:Offsite day (moved)',
        'SEQUENCE:1',
        'X-MICROSOFT-CDO-ALLDAYEVENT:TRUE',
      ),
    ]);
    expect(await target.importIcs(text, mode, WINDOW_2030)).toMatch(/failed 0$/);
    const got = await target.events(mode, 'Offsite day', '2030-01-01', '2031-01-01');
    expect(got.map((e) => [e.start_date, e.title]).sort()).toEqual([
      ['2030-02-19 00:00:00', 'Offsite day'],
      ['2030-02-27 00:00:00', 'Offsite day (moved)'],
      ['2030-03-05 00:00:00', 'Offsite day'],
    ]);
  });

  it('imports a series whose first occurrence was deleted in Outlook (an EXDATE of its DTSTART), as ical.js reads it', async () => {
    const text = calendarText([
      ...OUTLOOK_W_EUROPE,
      ...vevent(
        'UID:first-deleted@example.com',
        'DTSTART;TZID=W. Europe Standard Time:20300304T170000',
        'DTEND;TZID=W. Europe Standard Time:20300304T180000',
        'RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=MO',
        'EXDATE;TZID=W. Europe Standard Time:20300304T170000',
        'SUMMARY:Choir practice',
      ),
    ]);
    expect(await target.importIcs(text, mode, WINDOW_2030)).toMatch(/failed 0$/);
    const got = await target.events(mode, 'Choir practice', '2030-01-01', '2031-01-01');
    expect(instants(got)).toEqual(icalJsOccurrences(text, new Date('2031-01-01')).get('first-deleted@example.com'));
    expect(got).toHaveLength(4);
  });

  it('takes the copy with the highest SEQUENCE of a VEVENT the file gives twice', async () => {
    const copy = (seq: number, hour: string, title: string) =>
      vevent('UID:twice@example.com', `SEQUENCE:${seq}`, `DTSTART:20300405T${hour}0000Z`, `DTEND:20300405T${hour}3000Z`, `SUMMARY:${title}`);
    const text = calendarText([...copy(4, '15', 'Twice (moved)'), ...copy(2, '09', 'Twice (first plan)')]);
    expect(await target.importIcs(text, mode, WINDOW_2030)).toMatch(/created 1, .*failed 0$/);
    const got = await target.events(mode, 'Twice', '2030-01-01', '2031-01-01');
    expect(got.map((e) => [e.title, e.utc_start_date])).toEqual([['Twice (moved)', '2030-04-05 15:00:00']]);
  });
});

/** Outlook: a weekly series in a Windows zone, with EXDATEs and two overridden occurrences (one moved in time, one to another day). */
const OUTLOOK_UID = '040000008200E00074C5B7101A82E00800000000C0FFEE00F00DDB01000000000000000010000000F1E2D3C4B5A69788796A5B4C3D2E1F00';
const OUTLOOK_WEEKLY = calendarText([
  ...OUTLOOK_W_EUROPE,
  ...vevent(
    `UID:${OUTLOOK_UID}`,
    'DTSTART;TZID=W. Europe Standard Time:20300107T100000',
    'DTEND;TZID=W. Europe Standard Time:20300107T110000',
    'RRULE:FREQ=WEEKLY;COUNT=52;BYDAY=MO',
    'EXDATE;TZID=W. Europe Standard Time:20300415T100000,20300527T100000',
    'EXDATE;TZID=W. Europe Standard Time:20301230T100000',
    'SUMMARY:Weekly sync',
    'SEQUENCE:0',
    'X-MICROSOFT-CDO-BUSYSTATUS:BUSY',
  ),
  ...vevent(
    `UID:${OUTLOOK_UID}`,
    'RECURRENCE-ID;TZID=W. Europe Standard Time:20300311T100000',
    'DTSTART;TZID=W. Europe Standard Time:20300311T140000',
    'DTEND;TZID=W. Europe Standard Time:20300311T150000',
    'SUMMARY:Weekly sync (afternoon)',
    'SEQUENCE:1',
  ),
  ...vevent(
    `UID:${OUTLOOK_UID}`,
    'RECURRENCE-ID;TZID=W. Europe Standard Time:20300902T100000',
    'DTSTART;TZID=W. Europe Standard Time:20300903T100000',
    'DTEND;TZID=W. Europe Standard Time:20300903T110000',
    'SUMMARY:Weekly sync (Tuesday)',
    'SEQUENCE:1',
  ),
]);

describe('import:ics of one file with the module off, then on, then off (and the other way round): the same events', () => {
  const WINDOW_2030 = ['--from', '2030-01-01', '--to', '2031-01-01'];
  const expected = icalJsOccurrences(OUTLOOK_WEEKLY, new Date('2031-01-01')).get(OUTLOOK_UID)!;
  /** The events of the series by instant, with their ids. */
  const read = async (target: Target, mode: Mode) => {
    const list = await target.events(mode, 'Weekly sync', '2030-01-01', '2031-01-01');
    return { instants: instants(list), ids: new Map(list.map((e) => [e.utc_start_date, e.id])) };
  };

  it.each([
    ['off', 'on'],
    ['on', 'off'],
  ] as const)('imported with the module %s, then %s, then back: one event per occurrence, as ical.js reads the file', async (first, second) => {
    const target = new Target();
    await target.open(second);
    try {
      expect(expected).toHaveLength(49);
      expect(await target.importIcs(OUTLOOK_WEEKLY, first, WINDOW_2030)).toMatch(/failed 0$/);
      const before = await read(target, first);
      expect(before.instants).toEqual(expected);

      expect(await target.importIcs(OUTLOOK_WEEKLY, second, WINDOW_2030)).toMatch(/failed 0$/);
      const switched = await read(target, second);
      expect(switched.instants).toEqual(expected);
      // A series kept from events made one per occurrence starts at the first of them (same id).
      expect(switched.ids.get(expected[0].start)).toBe(before.ids.get(expected[0].start));
      // Events made by the series are the same events for an import with the module off.
      if (first === 'on') expect(switched.ids).toEqual(before.ids);

      expect(await target.importIcs(OUTLOOK_WEEKLY, first, WINDOW_2030)).toMatch(/created 0, .*failed 0$/);
      const back = await read(target, first);
      expect(back.instants).toEqual(expected);
      expect(back.ids).toEqual(switched.ids);
    } finally {
      await target.close();
    }
  });
});
