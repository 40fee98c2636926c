// Series that no request can turn against the server, and whose times every reader agrees on:
// the input limits of recurrence.md §2 (decided before any work that grows with the input), rules
// that once made one SQL term per occurrence, COUNT with a DTSTART the rule does not give, and
// occurrences across DST changes, compared with what ical.js and node-ical read from the feed.
import { expectInvalidParams, expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { icalJsOccurrences, nodeIcalOccurrences, SeenOccurrence } from '../../support/ical-oracles';
import { createTestApp, TestApp } from '../../support/test-app';

interface Listed {
  id: number;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  recurrence: string[];
  series: { id: number } | null;
}

const ON = { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0' };
const WINDOW = 'start_date=2026-01-01&end_date=2030-12-31';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp(ON);
  admin = (await t.userHeader('admin', 'administrator')).authorization;
});
afterAll(async () => t.close());

async function create(body: Record<string, unknown>) {
  return http(t, admin)
    .post(`${API}/events`)
    .send({ title: `series ${Math.random().toString(36).slice(2)}`, ...body });
}

async function occurrences(app: TestApp, seriesId: number): Promise<Listed[]> {
  const all: Listed[] = [];
  for (let page = 1; ; page++) {
    const res = await http(app, admin).get(`${API}/events?series=${seriesId}&per_page=50&page=${page}&${WINDOW}`);
    expectStatus(res, 200);
    all.push(...(res.body.events as Listed[]));
    if (page >= Number(res.headers['x-tec-totalpages'])) return all;
  }
}

const instants = (events: Listed[]): SeenOccurrence[] => events.map((e) => ({ start: e.utc_start_date, end: e.utc_end_date }));

/** The series as the feed gives it, read by ical.js (the file's VTIMEZONEs) and by node-ical, up to the API's last occurrence. */
async function readers(seriesId: number, last: string): Promise<{ icalJs: SeenOccurrence[]; nodeIcal: SeenOccurrence[] }> {
  const res = await http(t).get(`${API}/events.ics?series=${seriesId}&${WINDOW}`);
  expectStatus(res, 200);
  const to = new Date(`${last.replace(' ', 'T')}Z`);
  to.setUTCSeconds(to.getUTCSeconds() + 1);
  const single = (seen: Map<string, SeenOccurrence[]>) => {
    expect(seen.size).toBe(1);
    return [...seen.values()][0].filter((i) => i.start < last || i.start === last);
  };
  return { icalJs: single(icalJsOccurrences(res.text, to)), nodeIcal: single(nodeIcalOccurrences(res.text, new Date('2026-01-01T00:00:00Z'), to)) };
}

describe('recurrence.md §2: input limits, decided before the work', () => {
  it('more EXDATE values than CALENDAR_RECURRENCE_MAX: 400 naming recurrence; as many is taken', async () => {
    // One EXDATE line with a comma list, as calendar apps write them.
    const day = (i: number) => new Date(Date.UTC(2027, 0, 5) + i * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    const exdates = (n: number) => [`EXDATE:${Array.from({ length: n }, (_, i) => `${day(i)}T190000`).join(',')}`];
    const base = { start_date: '2027-01-04 19:00:00', end_date: '2027-01-04 20:00:00', timezone: 'Europe/Paris' };
    const refused = await create({ ...base, recurrence: ['RRULE:FREQ=DAILY;COUNT=600', ...exdates(10_000)] });
    expectInvalidParams(refused, 'recurrence');
    expect(refused.body.data.params.recurrence).toMatch(/EXDATE/);
    const taken = await create({ ...base, recurrence: ['RRULE:FREQ=DAILY;COUNT=600', ...exdates(550)] });
    expectStatus(taken, 201);
    expect((await occurrences(t, taken.body.id)).length).toBe(50);
    // The feed of that series, asked by anyone, answers (its EXDATEs are the series', once).
    const feed = await http(t).get(`${API}/events.ics?series=${taken.body.id}&${WINDOW}`);
    expectStatus(feed, 200);
    expect(feed.text.match(/^BEGIN:VEVENT/gm)).toHaveLength(1);
  });

  it('more starts a day than 24, an RRULE line past 1,000 characters, more lines than RDATEs and EXDATEs allow: 400', async () => {
    const base = { start_date: '2027-01-04 00:00:00', end_date: '2027-01-04 00:10:00', timezone: 'UTC' };
    const perDay = await create({ ...base, recurrence: ['RRULE:FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12;BYMINUTE=0,30;COUNT=10'] });
    expectInvalidParams(perDay, 'recurrence');
    expect(perDay.body.data.params.recurrence).toMatch(/26 starts a day/);
    const long = await create({ ...base, recurrence: [`RRULE:FREQ=DAILY;COUNT=3;BYMONTH=${Array(600).fill('1').join(',')}`] });
    expectInvalidParams(long, 'recurrence');
    const lines = await create({ ...base, recurrence: ['RRULE:FREQ=DAILY;COUNT=3', ...Array(2_001).fill('EXDATE:20270105T000000')] });
    expectInvalidParams(lines, 'recurrence');
  });
});

describe('recurrence.md §3: a thousand occurrences are written and moved as any other series', () => {
  const hourly = Array.from({ length: 24 }, (_, h) => h).join(',');

  it(`BYHOUR=0..23;COUNT=1000 is made whole, and a scope=all move of it keeps every id`, async () => {
    const res = await create({
      start_date: '2027-02-01 00:00:00',
      end_date: '2027-02-01 00:30:00',
      timezone: 'UTC',
      recurrence: [`RRULE:FREQ=DAILY;BYHOUR=${hourly};COUNT=1000`],
    });
    expectStatus(res, 201);
    const before = await occurrences(t, res.body.id);
    expect(before).toHaveLength(1000);
    const addressed = before[500];
    const moved = await http(t, admin)
      .post(`${API}/events/${addressed.id}`)
      .send({ start_date: addressed.start_date.replace(/:00:00$/, ':15:00'), end_date: addressed.end_date.replace(/:30:00$/, ':45:00'), scope: 'all' });
    expectStatus(moved, 200);
    const after = await occurrences(t, res.body.id);
    expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
    expect(after.every((e) => e.start_date.endsWith(':15:00'))).toBe(true);
  });

  it('a rare rule from the year 0001 answers, with the occurrences the rule gives', async () => {
    const res = await create({
      start_date: '0001-01-01 10:00:00',
      end_date: '0001-01-01 11:00:00',
      timezone: 'UTC',
      recurrence: ['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;UNTIL=00500101T000000Z'],
    });
    expectStatus(res, 201);
    const all = await http(t, admin).get(`${API}/events/${res.body.id}/occurrences?per_page=50&start_date=0001-01-01&end_date=0051-01-01`);
    // 0001-01-01 itself, then every 29 February of years 4 to 48 (12 leap years).
    expect(all.body.events.map((e: Listed) => e.start_date.slice(0, 10))).toEqual([
      '0001-01-01',
      ...Array.from({ length: 12 }, (_, i) => `${String(4 * (i + 1)).padStart(4, '0')}-02-29`),
    ]);
  });
});

describe('RFC 5545 §3.8.5.3: DTSTART is the first of the COUNT', () => {
  it('BYDAY=MO;COUNT=3 from a Wednesday: the Wednesday and two Mondays, in the API and in ical.js; scope=all to COUNT=8 gives 8', async () => {
    const res = await create({
      start_date: '2027-01-06 10:00:00',
      end_date: '2027-01-06 11:00:00',
      timezone: 'Europe/Paris',
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3'],
    });
    expectStatus(res, 201);
    const listed = await occurrences(t, res.body.id);
    expect(listed.map((e) => e.start_date)).toEqual(['2027-01-06 10:00:00', '2027-01-11 10:00:00', '2027-01-18 10:00:00']);
    const seen = await readers(res.body.id, listed[listed.length - 1].utc_start_date);
    expect(seen.icalJs).toEqual(instants(listed));
    // node-ical expands the RRULE alone: a DTSTART the rule does not give is left out, as RDATEs
    // are (docs/recurrence.md); it sees the two Mondays, and no third one.
    expect(seen.nodeIcal).toEqual(instants(listed.slice(1)));
    expectStatus(
      await http(t, admin)
        .post(`${API}/events/${res.body.id}`)
        .send({ recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=8'], scope: 'all' }),
      200,
    );
    expect(await occurrences(t, res.body.id)).toHaveLength(8);
  });
});

describe('RFC 5545 §3.8.2.5: every occurrence lasts the series’ length, across DST changes', () => {
  const agree = async (seriesId: number, listed: Listed[]) => {
    const seen = await readers(seriesId, listed[listed.length - 1].utc_start_date);
    // node-ical places local times as RFC 5545 §3.3.5 says (a gap's time by the offset before it,
    // an overlap's by its first pass); ical.js places both its own way (docs/recurrence.md).
    expect(seen.nodeIcal).toEqual(instants(listed));
    return seen;
  };

  it('weekly 02:30–03:30 in New York: on the spring-forward day 03:30–04:30 EDT, an hour like the others', async () => {
    const res = await create({
      start_date: '2027-03-07 02:30:00',
      end_date: '2027-03-07 03:30:00',
      timezone: 'America/New_York',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    expectStatus(res, 201);
    const listed = await occurrences(t, res.body.id);
    expect(listed.map((e) => [e.start_date, e.end_date, e.utc_start_date, e.utc_end_date])).toEqual([
      ['2027-03-07 02:30:00', '2027-03-07 03:30:00', '2027-03-07 07:30:00', '2027-03-07 08:30:00'],
      ['2027-03-14 03:30:00', '2027-03-14 04:30:00', '2027-03-14 07:30:00', '2027-03-14 08:30:00'],
      ['2027-03-21 02:30:00', '2027-03-21 03:30:00', '2027-03-21 06:30:00', '2027-03-21 07:30:00'],
    ]);
    await agree(res.body.id, listed);
  });

  it('a series whose own start is in the gap recurs at the time written, not at 03:30', async () => {
    const res = await create({
      start_date: '2027-03-14 02:30:00',
      end_date: '2027-03-14 03:30:00',
      timezone: 'America/New_York',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    expectStatus(res, 201);
    expect([res.body.start_date, res.body.end_date]).toEqual(['2027-03-14 03:30:00', '2027-03-14 04:30:00']);
    const listed = await occurrences(t, res.body.id);
    expect(listed.map((e) => [e.start_date, e.end_date, e.utc_start_date, e.utc_end_date])).toEqual([
      ['2027-03-14 03:30:00', '2027-03-14 04:30:00', '2027-03-14 07:30:00', '2027-03-14 08:30:00'],
      ['2027-03-21 02:30:00', '2027-03-21 03:30:00', '2027-03-21 06:30:00', '2027-03-21 07:30:00'],
      ['2027-03-28 02:30:00', '2027-03-28 03:30:00', '2027-03-28 06:30:00', '2027-03-28 07:30:00'],
    ]);
    expect(listed[0].recurrence).toEqual(['RRULE:FREQ=WEEKLY;COUNT=3']);
  });

  it('45 minutes at 01:30 on the fall-back night stay 45 minutes (01:30 EDT to 01:15 EST)', async () => {
    const res = await create({
      start_date: '2027-10-31 01:30:00',
      end_date: '2027-10-31 02:15:00',
      timezone: 'America/New_York',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
    });
    expectStatus(res, 201);
    const listed = await occurrences(t, res.body.id);
    expect(listed.map((e) => [e.utc_start_date, e.utc_end_date])).toEqual([
      ['2027-10-31 05:30:00', '2027-10-31 06:15:00'],
      ['2027-11-07 05:30:00', '2027-11-07 06:15:00'],
      ['2027-11-14 06:30:00', '2027-11-14 07:15:00'],
    ]);
    expect([listed[1].start_date, listed[1].end_date]).toEqual(['2027-11-07 01:30:00', '2027-11-07 01:15:00']);
    await agree(res.body.id, listed);
  });

  it('Paris and Lord Howe: a two-year weekly series agrees with node-ical and, away from the changes, with ical.js', async () => {
    for (const [zone, start] of [
      ['Europe/Paris', '2027-01-04 19:00:00'],
      ['Australia/Lord_Howe', '2027-01-04 19:00:00'],
    ]) {
      const res = await create({
        start_date: start,
        end_date: start.replace('19:00', '20:30'),
        timezone: zone,
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=150'],
      });
      expectStatus(res, 201);
      const listed = await occurrences(t, res.body.id);
      expect(listed.length).toBeGreaterThan(100);
      const seen = await agree(res.body.id, listed);
      expect(seen.icalJs).toEqual(instants(listed));
    }
  });
});
