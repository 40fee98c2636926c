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
import { EventBody } from '../support/api';
import { expectStatus } from '../support/expect';
import { API, http } from '../support/http';
import { icalJsInstances, nodeIcalInstances, SeenInstance } from '../support/ical-oracles';
import { calendarText, OUTLOOK_EASTERN } from '../support/ics-calendars';
import { createTestApp, TestApp } from '../support/test-app';

const run = promisify(execFile);
// Spawns real processes, and the first one may compile the project first.
jest.setTimeout(240_000);

const ROOT = join(__dirname, '..', '..');
const MODULE = { on: { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' }, off: { CALENDAR_RECURRENCE: 'off' } } as const;
type Mode = keyof typeof MODULE;
const vevent = (...props: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20300101T000000Z', ...props, 'END:VEVENT'];
const instants = (list: EventBody[]): SeenInstance[] =>
  list.map((e) => ({ start: e.utc_start_date, end: e.utc_end_date })).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));

const EASTERN_DISPLAY = '(UTC-05:00) Eastern Time (US & Canada)';
/** Outlook's Eastern VTIMEZONE under the display name some Outlook versions write as its TZID. */
const EASTERN_DISPLAY_ZONE = OUTLOOK_EASTERN.map((l) => (l.startsWith('TZID:') ? `TZID:${EASTERN_DISPLAY}` : l));

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
        if (page >= Number(res.headers['x-wp-totalpages'] ?? 1)) break;
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
    expect(instants(got)).toEqual(icalJsInstances(text, new Date('2031-01-01')).get('display-1@example.com'));
    expect(instants(got)).toEqual(nodeIcalInstances(text, new Date('2030-01-01'), new Date('2031-01-01')).get('display-1@example.com'));
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
    expect(instants(got)).toEqual(nodeIcalInstances(text, new Date('2030-01-01'), new Date('2031-01-01')).get('bare-exdate@example.com'));
    expect(instants(got).map((i) => i.start)).toEqual(['2030-01-09 09:00:00', '2030-01-23 09:00:00', '2030-01-30 09:00:00']);
    expect(await target.events(mode, 'Bare neighbour', '2030-01-01', '2031-01-01')).toHaveLength(1);
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
