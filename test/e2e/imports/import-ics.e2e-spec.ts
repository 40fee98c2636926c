// import:ics (spec ical.md, Import), run as a person would: the CLI as a child process on the
// database of a test app, then the events read back through the HTTP API. Files in the shapes
// Google Calendar, Outlook and Apple Calendar export, and the service's own events.ics.
import { execFile } from 'node:child_process';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { calendarText, customCentralEurope, OUTLOOK_EASTERN, OUTLOOK_W_EUROPE } from '../../support/ics-calendars';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { EventBody } from '../../support/api';

const run = promisify(execFile);
// Spawns real processes, and the first one may compile the project first.
jest.setTimeout(180_000);
const ROOT = join(__dirname, '..', '..', '..');
const START = join(ROOT, 'scripts', 'start.js');
const WINDOW = ['--from', '2030-01-01', '--to', '2031-01-01'];
const YEAR_2030 = 'start_date=2030-01-01&end_date=2031-01-31&per_page=50&status=publish,draft';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- import:ics …` on `databaseUrl`; killed after `timeout` ms when given (a hang then fails the test). */
async function importIcs(databaseUrl: string, args: string[], timeout = 0): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [START, '--cli', 'import:ics', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      timeout,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as CliResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The summary line's counts. */
function counts(result: CliResult): Record<string, number> {
  const line = result.stdout.trim().split('\n').pop() ?? '';
  return Object.fromEntries([...line.matchAll(/(created|updated|unchanged|skipped|failed) (\d+)/g)].map((m) => [m[1], Number(m[2])]));
}

const vevent = (...props: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20300101T000000Z', ...props, 'END:VEVENT'];

/** Google Calendar: X-WR-TIMEZONE, IANA TZIDs with a VTIMEZONE, a weekly series with an EXDATE and a moved occurrence, all-day. */
function googleCalendar(title = 'Planning'): string {
  const berlin = customCentralEurope('Europe/Berlin', ['X-LIC-LOCATION:Europe/Berlin']);
  return calendarText(
    [
      ...berlin,
      ...vevent(
        'UID:single-1@google.com',
        'DTSTART;TZID=Europe/Berlin:20300312T100000',
        'DTEND;TZID=Europe/Berlin:20300312T113000',
        `SUMMARY:${title}`,
        'DESCRIPTION:Agenda:\\n1. Budget & plans\\n\\nBring <notes>',
        'LOCATION:Conference Centre\\, 5 Hall Road\\, Berlin',
        'ORGANIZER;CN=Greta Green:mailto:greta@example.org',
        'CATEGORIES:Meetings',
        'SEQUENCE:0',
        'STATUS:CONFIRMED',
      ),
      ...vevent(
        'UID:weekly-1@google.com',
        'DTSTART;TZID=Europe/Berlin:20300318T090000',
        'DTEND;TZID=Europe/Berlin:20300318T093000',
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'EXDATE;TZID=Europe/Berlin:20300325T090000',
        'SUMMARY:Stand-up',
      ),
      ...vevent(
        'UID:weekly-1@google.com',
        'RECURRENCE-ID;TZID=Europe/Berlin:20300401T090000',
        'DTSTART;TZID=Europe/Berlin:20300401T110000',
        'DTEND;TZID=Europe/Berlin:20300401T113000',
        'SUMMARY:Stand-up (late)',
        'SEQUENCE:1',
      ),
      ...vevent('UID:allday-1@google.com', 'DTSTART;VALUE=DATE:20300501', 'DTEND;VALUE=DATE:20300502', 'SUMMARY:Labour Day'),
      ...vevent('UID:cancelled-1@google.com', 'DTSTART;VALUE=DATE:20300502', 'SUMMARY:Called off', 'STATUS:CANCELLED'),
    ],
    ['X-WR-CALNAME:Team', 'X-WR-TIMEZONE:Europe/Berlin', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'],
  );
}

/** Outlook: Windows zone names with Microsoft's VTIMEZONE blocks, X-MICROSOFT-CDO-*, X-ALT-DESC. */
function outlookCalendar(): string {
  const uid = '040000008200E00074C5B7101A82E00800000000B0D4B1D0E0E1D901000000000000000010000000A1B2C3D4E5F60718293A4B5C6D7E8F90';
  return calendarText(
    [
      ...OUTLOOK_EASTERN,
      ...OUTLOOK_W_EUROPE,
      ...vevent(
        `UID:${uid}`,
        'DTSTART;TZID=W. Europe Standard Time:20300612T140000',
        'DTEND;TZID=W. Europe Standard Time:20300612T150000',
        'SUMMARY;LANGUAGE=en-us:Quarterly review',
        'DESCRIPTION:Plain version',
        'X-ALT-DESC;FMTTYPE=text/html:<!DOCTYPE HTML><html><body><p>Rich <b>review</b></p><script>alert(1)</script></body></html>',
        'LOCATION:Meeting hall',
        'X-MICROSOFT-CDO-BUSYSTATUS:BUSY',
        'X-MICROSOFT-CDO-IMPORTANCE:1',
        'X-MICROSOFT-CDO-ALLDAYEVENT:FALSE',
        'CLASS:PUBLIC',
        'PRIORITY:5',
        'SEQUENCE:0',
      ),
      ...vevent(
        'UID:outlook-ny@example.com',
        'DTSTART;TZID=Eastern Standard Time:20301105T090000',
        'DTEND;TZID=Eastern Standard Time:20301105T100000',
        'SUMMARY:New York call',
        'X-MICROSOFT-CDO-BUSYSTATUS:TENTATIVE',
      ),
    ],
    ['METHOD:PUBLISH', 'X-MS-OLK-FORCEINSPECTOROPEN:TRUE'],
  );
}

/** Apple Calendar: X-APPLE-* properties, VALARM, an Apple VTIMEZONE, a multi-line LOCATION, a floating all-day event. */
function appleCalendar(): string {
  const losAngeles = [
    'BEGIN:VTIMEZONE',
    'TZID:America/Los_Angeles',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:-0800',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
    'DTSTART:20070311T020000',
    'TZNAME:PDT',
    'TZOFFSETTO:-0700',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:-0700',
    'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
    'DTSTART:20071104T020000',
    'TZNAME:PST',
    'TZOFFSETTO:-0800',
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
  return calendarText(
    [
      ...losAngeles,
      'BEGIN:VEVENT',
      'CREATED:20300101T000000Z',
      'UID:8F3C2A1B-1111-2222-3333-444455556666',
      'DTSTART;TZID=America/Los_Angeles:20300715T180000',
      'DTEND;TZID=America/Los_Angeles:20300715T200000',
      'SUMMARY:Dinner',
      'LOCATION:Apple Park\\n1 Apple Park Way\\nCupertino CA 95014',
      'X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE="Apple Park":geo:37.3349,-122.009',
      'X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC',
      'URL;VALUE=URI:https://example.org/dinner',
      'DTSTAMP:20300101T000000Z',
      'SEQUENCE:0',
      'BEGIN:VALARM',
      'X-WR-ALARMUID:AAAA-BBBB',
      'ACTION:DISPLAY',
      'DESCRIPTION:Reminder',
      'TRIGGER:-PT30M',
      'END:VALARM',
      'END:VEVENT',
      ...vevent('UID:AAAA-APPLE-ALLDAY', 'DTSTART;VALUE=DATE:20300720', 'DTEND;VALUE=DATE:20300722', 'SUMMARY:Trip', 'X-APPLE-EWS-BUSYSTATUS:FREE'),
    ],
    ['X-APPLE-CALENDAR-COLOR:#1BADF8', 'X-WR-CALNAME:Home'],
  );
}

/** Every event of 2030 (drafts too). */
async function allEvents(owner: TestApp, admin: string): Promise<EventBody[]> {
  // A fresh occurrence on the same database: what the CLI wrote is read as any new server would.
  const reader = await createTestApp({}, { sharing: owner });
  try {
    const res = await http(reader, admin).get(`${API}/events?${YEAR_2030}`);
    expect(res.status).toBe(200);
    return res.body.events as EventBody[];
  } finally {
    await reader.close();
  }
}

/** Every event of 2030 by title (titles are unique in these tests, except a series' occurrences). */
async function eventsByTitle(_databaseUrl: string, owner: TestApp, admin: string): Promise<Map<string, EventBody>> {
  return new Map((await allEvents(owner, admin)).map((e) => [e.title, e]));
}

/** The names of every venue, organizer or category the API lists (drafts too), read by a fresh occurrence. */
async function listedNames(owner: TestApp, admin: string, kind: 'venues' | 'organizers' | 'categories'): Promise<string[]> {
  const reader = await createTestApp({}, { sharing: owner });
  try {
    const query = kind === 'categories' ? 'per_page=100&hide_empty=false' : 'per_page=100&status=publish,draft';
    const res = await http(reader, admin).get(`${API}/${kind}?${query}`);
    expect(res.status).toBe(200);
    const field = kind === 'venues' ? 'venue' : kind === 'organizers' ? 'organizer' : 'name';
    return (res.body[kind] as Record<string, string>[]).map((item) => item[field]);
  } finally {
    await reader.close();
  }
}

describe('import:ics (spec ical.md, Import)', () => {
  let dir: string;
  let target: TestApp;
  let admin: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-ics-'));
    const mysql = /^(mysql|mariadb):/.test(process.env.TEST_DATABASE_URL ?? '');
    target = await createTestApp(mysql ? {} : { DATABASE_URL: `sqlite:${join(dir, 'target.sqlite')}` });
    admin = (await target.userHeader('importer', 'administrator')).authorization;
  });
  afterAll(async () => {
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a Google Calendar export: zones, series with EXDATE and an override, all-day, linked items', async () => {
    const path = file('google.ics', googleCalendar());
    const first = await importIcs(target.databaseUrl, [path, ...WINDOW, '--category', 'Imported']);
    // stderr: nothing but the build note of scripts/start.js when it compiles first.
    expect({ code: first.code, stderr: first.stderr.replace(/^Building.*\n/m, '') }).toEqual({ code: 0, stderr: '' });
    expect(counts(first)).toEqual({ created: 5, updated: 0, unchanged: 0, skipped: 1, failed: 0 });
    expect(first.stdout).toContain('cancelled 1');

    const events = await eventsByTitle(target.databaseUrl, target, admin);
    const planning = events.get('Planning')!;
    expect(planning).toMatchObject({
      utc_start_date: '2030-03-12 09:00:00',
      utc_end_date: '2030-03-12 10:30:00',
      timezone: 'Europe/Berlin',
      all_day: false,
      status: 'publish',
    });
    expect(planning.description).toBe('<p>Agenda:<br />\n1. Budget &amp; plans</p>\n<p>Bring &lt;notes&gt;</p>');
    expect(planning.venue).toMatchObject({ venue: 'Conference Centre', address: '5 Hall Road, Berlin' });
    expect(planning.organizer).toEqual([expect.objectContaining({ organizer: 'Greta Green', email: 'greta@example.org' })]);
    expect((planning.categories as { name: string }[]).map((c) => c.name).sort()).toEqual(['Imported', 'Meetings']);

    // Mondays 18 March (CET), 25 March (EXDATE), 1 April moved to 11:00 (CEST), 8 April (CEST).
    const standUps = (await allEvents(target, admin)).filter((e) => e.title.startsWith('Stand-up')).map((e) => [e.title, e.utc_start_date, e.utc_end_date]);
    expect(standUps.sort((a, b) => a[1].localeCompare(b[1]))).toEqual([
      ['Stand-up', '2030-03-18 08:00:00', '2030-03-18 08:30:00'],
      ['Stand-up (late)', '2030-04-01 09:00:00', '2030-04-01 09:30:00'],
      ['Stand-up', '2030-04-08 07:00:00', '2030-04-08 07:30:00'],
    ]);
    expect(events.get('Labour Day')).toMatchObject({
      all_day: true,
      start_date: '2030-05-01 00:00:00',
      end_date: '2030-05-01 23:59:59',
      timezone: 'Europe/Berlin',
    });
    expect(events.has('Called off')).toBe(false);

    // The same file again: nothing new, nothing changed.
    const again = await importIcs(target.databaseUrl, [path, ...WINDOW, '--category', 'Imported']);
    expect(counts(again)).toEqual({ created: 0, updated: 0, unchanged: 5, skipped: 1, failed: 0 });
    expect((await allEvents(target, admin)).length).toBe(5);

    // A changed event (no LAST-MODIFIED: the digest of its fields tells) is updated in place.
    const changed = await importIcs(target.databaseUrl, [file('google2.ics', googleCalendar('Planning (place changed)')), ...WINDOW, '--category', 'Imported']);
    expect(counts(changed)).toEqual({ created: 0, updated: 1, unchanged: 4, skipped: 1, failed: 0 });
    const after = await eventsByTitle(target.databaseUrl, target, admin);
    expect(after.get('Planning (place changed)')?.id).toBe(planning.id);
    expect(after.has('Planning')).toBe(false);
  });

  it('imports an Outlook export with Windows zone names', async () => {
    const result = await importIcs(target.databaseUrl, [file('outlook.ics', outlookCalendar()), ...WINDOW, '--status', 'draft']);
    expect({ code: result.code, counts: counts(result) }).toEqual({ code: 0, counts: { created: 2, updated: 0, unchanged: 0, skipped: 0, failed: 0 } });
    const events = await eventsByTitle(target.databaseUrl, target, admin);
    expect(events.get('Quarterly review')).toMatchObject({
      utc_start_date: '2030-06-12 12:00:00',
      utc_end_date: '2030-06-12 13:00:00',
      timezone: 'Europe/Berlin',
      status: 'draft',
      description: '<p>Rich <b>review</b></p>',
    });
    expect(events.get('Quarterly review')!.venue).toMatchObject({ venue: 'Meeting hall' });
    // 5 November 2030 is after the US change back (3 November): EST, UTC-5.
    expect(events.get('New York call')).toMatchObject({ utc_start_date: '2030-11-05 14:00:00', timezone: 'America/New_York' });
  });

  it('imports an Apple Calendar export: VALARM and X-APPLE-* ignored, floating all-day in the site zone', async () => {
    const result = await importIcs(target.databaseUrl, [file('apple.ics', appleCalendar()), ...WINDOW]);
    expect({ code: result.code, counts: counts(result) }).toEqual({ code: 0, counts: { created: 2, updated: 0, unchanged: 0, skipped: 0, failed: 0 } });
    const events = await eventsByTitle(target.databaseUrl, target, admin);
    expect(events.get('Dinner')).toMatchObject({
      utc_start_date: '2030-07-16 01:00:00',
      utc_end_date: '2030-07-16 03:00:00',
      timezone: 'America/Los_Angeles',
      website: 'https://example.org/dinner',
    });
    expect(events.get('Dinner')!.venue).toMatchObject({ venue: 'Apple Park', address: '1 Apple Park Way, Cupertino CA 95014' });
    expect(events.get('Trip')).toMatchObject({ all_day: true, start_date: '2030-07-20 00:00:00', end_date: '2030-07-21 23:59:59', timezone: 'UTC' });
  });

  it('reuses an identical venue and organizer', async () => {
    const twice = calendarText([
      ...vevent('UID:reuse-1', 'DTSTART:20300901T100000Z', 'SUMMARY:Reuse one', 'LOCATION:Shared Hall, 1 Road', 'ORGANIZER;CN=Sam:mailto:sam@example.org'),
      ...vevent('UID:reuse-2', 'DTSTART:20300902T100000Z', 'SUMMARY:Reuse two', 'LOCATION:Shared Hall, 1 Road', 'ORGANIZER;CN=Sam:mailto:sam@example.org'),
    ]);
    expect((await importIcs(target.databaseUrl, [file('reuse.ics', twice), ...WINDOW])).code).toBe(0);
    const events = await eventsByTitle(target.databaseUrl, target, admin);
    const [one, two] = [events.get('Reuse one')!, events.get('Reuse two')!];
    expect((one.venue as { id: number }).id).toBe((two.venue as { id: number }).id);
    expect((one.organizer as { id: number }[])[0].id).toBe((two.organizer as { id: number }[])[0].id);
    expect(one.timezone).toBe('UTC');
  });

  it('exits 2 with one line for unusable input, 1 naming the UID of an event that fails', async () => {
    const missing = await importIcs(target.databaseUrl, [join(dir, 'nope.ics')]);
    expect({ code: missing.code, stderr: missing.stderr.trim() }).toEqual({
      code: 2,
      stderr: `import:ics: cannot read ${join(dir, 'nope.ics')}: no such file`,
    });
    const notIcs = await importIcs(target.databaseUrl, [file('page.html', '<html><body>hi</body></html>')]);
    expect(notIcs.code).toBe(2);
    expect(notIcs.stderr.trim().split('\n')).toHaveLength(1);
    expect((await importIcs(target.databaseUrl, [file('x.ics', 'x'), '--status', 'pending'])).code).toBe(2);

    const bad = calendarText([
      ...vevent('UID:bad-zone', 'DTSTART;TZID=Atlantis Standard Time:20300301T100000', 'SUMMARY:Lost'),
      ...vevent('UID:good-one', 'DTSTART:20300301T100000Z', 'SUMMARY:Fine'),
      ...vevent('UID:no-start', 'SUMMARY:Never'),
    ]);
    const result = await importIcs(target.databaseUrl, [file('bad.ics', bad), ...WINDOW]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bad-zone');
    expect(result.stderr).toContain('Atlantis Standard Time');
    expect(counts(result)).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: 1, failed: 1 });
    expect(result.stdout).toContain('no DTSTART 1');
  });

  it("round-trips the service's own events.ics into an empty occurrence, twice without duplicates", async () => {
    const source = await createTestApp();
    const roundTarget = await createTestApp(
      /^(mysql|mariadb):/.test(process.env.TEST_DATABASE_URL ?? '') ? {} : { DATABASE_URL: `sqlite:${join(dir, 'round.sqlite')}` },
    );
    try {
      const sourceAdmin = (await source.userHeader('src-admin', 'administrator')).authorization;
      const targetAdmin = (await roundTarget.userHeader('dst-admin', 'administrator')).authorization;
      const post = async (body: Record<string, unknown>) => {
        const res = await http(source, sourceAdmin).post(`${API}/events`).send(body);
        expect(res.status).toBe(201);
      };
      await post({
        title: 'Opera night',
        description: '<p>Tosca, <strong>live</strong></p>',
        start_date: '2030-10-26 19:30:00',
        end_date: '2030-10-26 22:45:00',
        timezone: 'Europe/Rome',
        venue: { venue: 'Teatro', address: 'Piazza 1', city: 'Rome', zip: '00100', country: 'Italy' },
        organizer: { organizer: 'Opera Club', email: 'club@example.org' },
        categories: ['Music', 'Evening'],
      });
      await post({ title: 'Harbour day', start_date: '2030-08-15 00:00:00', end_date: '2030-08-16 23:59:59', all_day: true });
      await post({ title: 'Sydney talk', start_date: '2030-04-06 02:30:00', end_date: '2030-04-06 03:30:00', timezone: 'Australia/Sydney' });
      await post({ title: 'Fixed offset', start_date: '2030-02-01 08:00:00', end_date: '2030-02-01 09:00:00', timezone: 'UTC' });

      const feed = await http(source).get(`${API}/events.ics?start_date=2030-01-01&end_date=2031-01-31`);
      expect(feed.status).toBe(200);
      const path = file('own.ics', feed.text);
      const sourceEvents = (await http(source, sourceAdmin).get(`${API}/events?${YEAR_2030}`)).body.events as EventBody[];
      expect(sourceEvents).toHaveLength(4);

      const first = await importIcs(roundTarget.databaseUrl, [path, ...WINDOW]);
      expect({ code: first.code, counts: counts(first) }).toEqual({ code: 0, counts: { created: 4, updated: 0, unchanged: 0, skipped: 0, failed: 0 } });
      const second = await importIcs(roundTarget.databaseUrl, [path, ...WINDOW]);
      expect(counts(second)).toEqual({ created: 0, updated: 0, unchanged: 4, skipped: 0, failed: 0 });

      const imported = await eventsByTitle(roundTarget.databaseUrl, roundTarget, targetAdmin);
      expect(imported.size).toBe(4);
      for (const e of sourceEvents) {
        const got = imported.get(e.title)!;
        // What the iCalendar form carries (docs/compatibility.md, "Importing iCalendar files").
        const carried = (x: EventBody) => ({
          title: x.title,
          all_day: x.all_day,
          ...(x.all_day
            ? { start_date: x.start_date, end_date: x.end_date }
            : { utc_start_date: x.utc_start_date, utc_end_date: x.utc_end_date, timezone: x.timezone }),
          categories: (x.categories as { name: string }[]).map((c) => c.name).sort(),
          organizer: (x.organizer as unknown as { organizer: string; email: string }[]).map((o) => [o.organizer, o.email]),
        });
        expect(carried(got)).toEqual(carried(e));
        expect(got.website).toBe(e.url);
        expect(got.description).toBe(e.description);
      }
      const opera = imported.get('Opera night')!;
      expect(opera.venue).toMatchObject({ venue: 'Teatro', address: 'Piazza 1, Rome, 00100, Italy' });
    } finally {
      await source.close();
      await roundTarget.close();
    }
  });

  // One record = one unit of work. The refused event's new venue, organizer
  // and category are written with it or not at all, as the API's event create does.
  it('leaves nothing of an event the service refuses: its new venue, organizer and category roll back with it', async () => {
    const huge = 'x'.repeat(70_000); // DESCRIPTION over the column's 65,535 bytes
    const text = calendarText([
      ...vevent(
        'UID:atomic-good',
        'DTSTART:20300410T100000Z',
        'SUMMARY:Kept concert',
        'LOCATION:Kept Hall, 1 Kept Road',
        'ORGANIZER;CN=Kept Org:mailto:kept@example.org',
        'CATEGORIES:Kept Category',
      ),
      ...vevent(
        'UID:atomic-refused',
        'DTSTART:20300411T100000Z',
        'SUMMARY:Refused concert',
        `DESCRIPTION:${huge}`,
        'LOCATION:Orphan Hall, 2 Orphan Road',
        'ORGANIZER;CN=Orphan Org:mailto:orphan@example.org',
        'CATEGORIES:Orphan Category',
      ),
    ]);
    const result = await importIcs(target.databaseUrl, [file('atomic.ics', text), ...WINDOW]);
    expect({ code: result.code, counts: counts(result) }).toEqual({ code: 1, counts: { created: 1, updated: 0, unchanged: 0, skipped: 0, failed: 1 } });
    // The report names the refused event and why.
    expect(result.stderr).toMatch(/failed event atomic-refused.*description/);

    const titles = (await allEvents(target, admin)).map((e) => e.title);
    expect(titles).toContain('Kept concert');
    expect(titles).not.toContain('Refused concert');
    const [venues, organizers, categories] = [
      await listedNames(target, admin, 'venues'),
      await listedNames(target, admin, 'organizers'),
      await listedNames(target, admin, 'categories'),
    ];
    expect(venues).toContain('Kept Hall');
    expect(organizers).toContain('Kept Org');
    expect(categories).toContain('Kept Category');
    expect({ venues, organizers, categories }).toEqual({
      venues: expect.not.arrayContaining(['Orphan Hall']),
      organizers: expect.not.arrayContaining(['Orphan Org']),
      categories: expect.not.arrayContaining(['Orphan Category']),
    });
  });

  // An event write reads a category of digits only as an id: such a name is looked up first (read
  // only), and one that names no category is left out, said, rather than created outside the event's write.
  it('links a category whose name is digits only when it exists, and leaves out, saying so, one that does not', async () => {
    const made = await http(target, admin).post(`${API}/categories`).send({ name: '2032' });
    expect(made.status).toBe(201);
    const text = calendarText([...vevent('UID:digits-1', 'DTSTART:20300612T100000Z', 'SUMMARY:Digits event', 'CATEGORIES:2032,1999,Seasonal')]);
    const result = await importIcs(target.databaseUrl, [file('digits.ics', text), ...WINDOW]);
    expect({ code: result.code, counts: counts(result) }).toEqual({ code: 0, counts: { created: 1, updated: 0, unchanged: 0, skipped: 0, failed: 0 } });
    expect(result.stderr).toContain('event digits-1: category "1999" left out: a name of digits only is read as an id');
    const event = (await allEvents(target, admin)).find((e) => e.title === 'Digits event')!;
    expect((event.categories as { name: string }[]).map((c) => c.name).sort()).toEqual(['2032', 'Seasonal']);
    expect(await listedNames(target, admin, 'categories')).not.toContain('1999');
  });

  // Exchange writes `BYDAY=MO, TU`; one event that really cannot be read
  // is refused alone, by its UID, title and line, never the whole file.
  it('reads an RRULE with spaces, and refuses only the event it cannot read, naming it and the line', async () => {
    const text = calendarText([
      ...vevent('UID:exchange-spaces', 'DTSTART:20300304T090000Z', 'DTEND:20300304T093000Z', 'RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO, TU', 'SUMMARY:Exchange sync'),
      ...vevent('UID:exchange-broken', 'DTSTART:20300305T090000Z', 'RRULE:FREQ=WEEKLY;BYDAY=MO,XY', 'SUMMARY:Broken rule'),
      ...vevent('UID:exchange-plain', 'DTSTART:20300306T090000Z', 'SUMMARY:Plain neighbour'),
    ]);
    const result = await importIcs(target.databaseUrl, [file('exchange.ics', text), ...WINDOW]);
    expect({ code: result.code, counts: counts(result) }).toEqual({ code: 1, counts: { created: 5, updated: 0, unchanged: 0, skipped: 0, failed: 1 } });
    // BEGIN:VCALENDAR, VERSION, PRODID, the first VEVENT's 8 lines, then BEGIN, DTSTAMP, UID, DTSTART: the RRULE is line 16.
    expect(result.stderr).toMatch(/failed event exchange-broken \("Broken rule"\): line 16 \(RRULE:FREQ=WEEKLY;BYDAY=MO,XY\): .*XY/);
    const events = await allEvents(target, admin);
    // Monday 4 March is a Monday; COUNT=4 on Mondays and Tuesdays from there: 4, 5, 11, 12 March.
    expect(
      events
        .filter((e) => e.title === 'Exchange sync')
        .map((e) => e.utc_start_date)
        .sort(),
    ).toEqual(['2030-03-04 09:00:00', '2030-03-05 09:00:00', '2030-03-11 09:00:00', '2030-03-12 09:00:00']);
    expect(events.map((e) => e.title)).toContain('Plain neighbour');
    expect(events.map((e) => e.title)).not.toContain('Broken rule');
  });

  // Events without UID get one derived from DTSTART, SUMMARY and LOCATION.
  it('imports events without a UID under a derived one, so a second import updates instead of duplicating', async () => {
    const text = (title: string) =>
      calendarText([
        ...vevent('DTSTART:20300520T180000Z', `SUMMARY:No uid ${title}`, 'LOCATION:Uidless Hall', 'DESCRIPTION:First'),
        ...vevent('DTSTART:20300521T180000Z', 'SUMMARY:No uid two'),
      ]);
    const first = await importIcs(target.databaseUrl, [file('nouid.ics', text('one')), ...WINDOW]);
    expect({ code: first.code, counts: counts(first) }).toEqual({ code: 0, counts: { created: 2, updated: 0, unchanged: 0, skipped: 0, failed: 0 } });
    const second = await importIcs(target.databaseUrl, [file('nouid.ics', text('one')), ...WINDOW]);
    expect(counts(second)).toEqual({ created: 0, updated: 0, unchanged: 2, skipped: 0, failed: 0 });
    const titles = (await allEvents(target, admin)).map((e) => e.title).filter((title) => title.startsWith('No uid'));
    expect(titles.sort()).toEqual(['No uid one', 'No uid two']);
  });

  // A birthdays calendar (yearly all-day series) whose days all lie outside the window.
  it('says how many events were skipped because they lie outside --from/--to', async () => {
    const birthday = (n: number, date: string, name: string) =>
      vevent(`UID:birthday-${n}@google.com`, `DTSTART;VALUE=DATE:${date}`, 'RRULE:FREQ=YEARLY', `SUMMARY:${name}'s birthday`, 'TRANSP:TRANSPARENT');
    const text = calendarText(
      [...birthday(1, '19850315', 'Ada'), ...birthday(2, '19900812', 'Ben'), ...birthday(3, '19721001', 'Cleo'), ...birthday(4, '20011224', 'Dan')],
      ['X-WR-CALNAME:Birthdays'],
    );
    const result = await importIcs(target.databaseUrl, [file('birthdays.ics', text), '--from', '2030-06-01', '--to', '2030-07-01']);
    expect({ code: result.code, counts: counts(result) }).toEqual({ code: 0, counts: { created: 0, updated: 0, unchanged: 0, skipped: 4, failed: 0 } });
    expect(result.stdout).toContain('skipped 4 (outside --from/--to 4)');
  });

  // A rule that never gives a day would hang the importer (ical.js searches for one without
  // end); a yearly series from 29 February would give 1 March in other years. Both are series with
  // no occurrence in the window, next to an ordinary event that is imported as before.
  it('ends on a rule that never recurs, reporting it as outside the window, and imports the rest', async () => {
    const text = calendarText([
      ...vevent('UID:ordinary@example.org', 'DTSTART:20300506T090000Z', 'DTEND:20300506T100000Z', 'SUMMARY:Ordinary meeting'),
      ...vevent('UID:never@example.org', 'DTSTART:20290101T100000Z', 'DTEND:20290101T110000Z', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'SUMMARY:Never'),
      ...vevent('UID:leap@example.org', 'DTSTART;VALUE=DATE:20280229', 'RRULE:FREQ=YEARLY', 'SUMMARY:Leap day'),
    ]);
    const result = await importIcs(target.databaseUrl, [file('never.ics', text), ...WINDOW], 120_000);
    expect({ code: result.code, counts: counts(result) }).toEqual({ code: 0, counts: { created: 1, updated: 0, unchanged: 0, skipped: 2, failed: 0 } });
    expect(result.stdout).toContain('skipped 2 (outside --from/--to 2)');
    const titles = (await allEvents(target, admin)).map((e) => e.title);
    expect(titles).toContain('Ordinary meeting');
    expect(titles).not.toContain('Never');
    expect(titles).not.toContain('Leap day');
  });

  // webcal:// tries https, then http, and says in plain words what failed.
  describe('webcal:// URLs', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((_req, res) => {
        res.setHeader('content-type', 'text/calendar');
        res.end(calendarText(vevent('UID:webcal-1', 'DTSTART:20300801T100000Z', 'SUMMARY:Served over http')));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reads an http-only server over http after https fails, and says that https failed', async () => {
      const result = await importIcs(target.databaseUrl, [`webcal://127.0.0.1:${port}/cal.ics`, ...WINDOW]);
      expect({ code: result.code, counts: counts(result) }).toEqual({ code: 0, counts: { created: 1, updated: 0, unchanged: 0, skipped: 0, failed: 0 } });
      expect(result.stderr).toContain(`https://127.0.0.1:${port}/cal.ics failed (no TLS (https) on that port); read http://127.0.0.1:${port}/cal.ics instead`);
      expect(result.stderr).not.toMatch(/SSL routines|ssl3_|openssl/i);
      expect((await allEvents(target, admin)).map((e) => e.title)).toContain('Served over http');
    });

    it('says which attempts failed and why when neither answers', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const deadPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const result = await importIcs(target.databaseUrl, [`webcal://127.0.0.1:${deadPort}/cal.ics`]);
      expect({ code: result.code, stderr: result.stderr.trim() }).toEqual({
        code: 2,
        stderr:
          `import:ics: cannot fetch webcal://127.0.0.1:${deadPort}/cal.ics: ` +
          `https://127.0.0.1:${deadPort}/cal.ics failed (connection refused); http://127.0.0.1:${deadPort}/cal.ics failed (connection refused)`,
      });
    });
  });
});
