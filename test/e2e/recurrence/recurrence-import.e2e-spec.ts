// import:ics with the recurrence extension on (recurrence.md §6): an RRULE event becomes a series
// (EXDATEs excluded, a cancelled occurrence excluded too), an overridden occurrence (RECURRENCE-ID)
// updates the occurrence it replaces, which is then detached, and a second run is idempotent by
// UID (+ RECURRENCE-ID). The CLI runs as a child process on the test app's database.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EventBody } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { calendarText } from '../../support/ics-calendars';
import { createTestApp, TestApp } from '../../support/test-app';

const run = promisify(execFile);
// Spawns real processes, and the first one may compile the project first.
jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..', '..');
const ON = { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' };
const vevent = (...props: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20270101T000000Z', ...props, 'END:VEVENT'];

type Occurrence = EventBody & { recurrence: string[]; series: { id: number; original_start: string; detached: boolean } | null };

const CALENDAR = calendarText(
  [
    ...vevent(
      'UID:weekly-1@example.org',
      'DTSTART;TZID=Europe/Berlin:20270301T090000',
      'DTEND;TZID=Europe/Berlin:20270301T093000',
      'RRULE:FREQ=WEEKLY;UNTIL=20270329T235959',
      'EXDATE;TZID=Europe/Berlin:20270308T090000',
      'SUMMARY:Stand-up',
    ),
    ...vevent(
      'UID:weekly-1@example.org',
      'RECURRENCE-ID;TZID=Europe/Berlin:20270322T090000',
      'DTSTART;TZID=Europe/Berlin:20270322T110000',
      'DTEND;TZID=Europe/Berlin:20270322T113000',
      'SUMMARY:Stand-up (late)',
      'SEQUENCE:1',
    ),
    ...vevent('UID:weekly-1@example.org', 'RECURRENCE-ID;TZID=Europe/Berlin:20270329T090000', 'DTSTART;TZID=Europe/Berlin:20270329T090000', 'STATUS:CANCELLED'),
  ],
  ['X-WR-TIMEZONE:Europe/Berlin'],
);

describe('import:ics keeps series (recurrence.md §6)', () => {
  let dir: string;
  let t: TestApp;
  let admin: string;
  let path: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-rec-ics-'));
    const mysql = /^(mysql|mariadb):/.test(process.env.TEST_DATABASE_URL ?? '');
    t = await createTestApp({ ...ON, ...(mysql ? {} : { DATABASE_URL: `sqlite:${join(dir, 'target.sqlite')}` }) });
    admin = (await t.userHeader('importer', 'administrator')).authorization;
    path = join(dir, 'team.ics');
    writeFileSync(path, CALENDAR);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const importIcs = async () => {
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'scripts', 'start.js'), '--cli', 'import:ics', path, '--from', '2027-01-01', '--to', '2028-01-01'],
      {
        cwd: ROOT,
        env: { ...process.env, ...ON, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' },
      },
    );
    return stdout.trim().split('\n').pop()!;
  };
  /** The series as a fresh instance reads it (the CLI wrote it). */
  const series = async (): Promise<Occurrence[]> => {
    const reader = await createTestApp(ON, { sharing: t });
    try {
      const res = await http(reader, admin).get(`${API}/events?search=Stand-up&start_date=2027-01-01&end_date=2028-01-01`);
      expectStatus(res, 200);
      const first = (res.body.events as Occurrence[])[0];
      const all = await http(reader, admin).get(`${API}/events/${first.id}/occurrences`);
      return all.body.events as Occurrence[];
    } finally {
      await reader.close();
    }
  };

  it('writes the RRULE event as a series, with its exclusions, and the override as its detached occurrence', async () => {
    // The override updates the occurrence the series made for it.
    expect(await importIcs()).toMatch(/created 1, updated 1, unchanged 0, skipped 0, failed 0/);
    const all = await series();
    expect(all.map((o) => [o.start_date, o.title, o.series?.detached])).toEqual([
      ['2027-03-01 09:00:00', 'Stand-up', false],
      ['2027-03-15 09:00:00', 'Stand-up', false],
      ['2027-03-22 11:00:00', 'Stand-up (late)', true],
    ]);
    expect(all[2].series?.original_start).toBe('2027-03-22 09:00:00');
    expect(all[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;UNTIL=20270329T215959Z', 'EXDATE:20270308T080000Z', 'EXDATE:20270329T070000Z']);
  });

  it('a second run changes nothing (by UID and RECURRENCE-ID)', async () => {
    const before = await series();
    expect(await importIcs()).toMatch(/created 0, updated 0, unchanged 2/);
    expect((await series()).map((o) => [o.id, o.title])).toEqual(before.map((o) => [o.id, o.title]));
  });
});
