// A series in events.ics as subscribers' calendar apps read it (recurrence.md §6, ical.md): for
// series in zones with DST changes (a 30-minute one included) over three years, after edits,
// trashes, drafts and restores of single occurrences, what ical.js (with the file's own
// VTIMEZONEs) and node-ical make of the served file is, instant for instant, what the API lists
// for the same window.
import { uid } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { icalJsInstances, nodeIcalInstances, SeenInstance } from '../../support/ical-oracles';
import { twoInstances } from '../../support/instances';
import { createTestApp, TestApp } from '../../support/test-app';

interface Listed {
  id: number;
  global_id: string;
  utc_start_date: string;
  utc_end_date: string;
}

// The series run to the end of 2029: the horizon must reach past it.
const ENV = { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0', CALENDAR_RECURRENCE_HORIZON_DAYS: '1500' };
const ZONES = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe'];
/** Every Tuesday at 19:00 local from January 2027 to the end of 2029: about 156 occurrences, six DST changes. */
const SERIES = { start_date: '2027-01-05 19:00:00', end_date: '2027-01-05 20:30:00', recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20291231T000000Z'] };

/** A feed window (the list's `start_date`/`end_date`) and, two days inside it, the UTC span compared. */
interface Window {
  query: string;
  from: Date;
  to: Date;
}
const window = (start: string, end: string): Window => ({
  query: `start_date=${start}&end_date=${end}`,
  from: new Date(Date.parse(`${start}T00:00:00Z`) + 2 * 86_400_000),
  to: new Date(Date.parse(`${end}T00:00:00Z`) - 2 * 86_400_000),
});
const WHOLE = window('2026-12-01', '2030-02-01');
const MIDDLE = window('2028-02-01', '2029-06-01');

const sql = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
const inside = (w: Window) => (i: SeenInstance) => i.start >= sql(w.from) && i.start < sql(w.to);

/** Every occurrence of the series an anonymous reader's list gives in the window, as UTC instants. */
async function apiInstances(t: TestApp, seriesId: number, w: Window): Promise<SeenInstance[]> {
  const seen: SeenInstance[] = [];
  for (let page = 1; ; page++) {
    const res = await http(t).get(`${API}/events?series=${seriesId}&${w.query}&per_page=50&page=${page}`);
    expectStatus(res, 200);
    const events = res.body.events as Listed[];
    seen.push(...events.map((e) => ({ start: e.utc_start_date, end: e.utc_end_date })));
    if (page >= res.body.total_pages) break;
  }
  return seen.filter(inside(w)).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

/** The feed for that window, and what the two readers make of it (every UID), within the compared span. */
async function feedInstances(t: TestApp, seriesId: number, w: Window) {
  const res = await http(t).get(`${API}/events.ics?series=${seriesId}&${w.query}`);
  expectStatus(res, 200);
  const flat = (seen: Map<string, SeenInstance[]>) =>
    [...seen.values()]
      .flat()
      .filter(inside(w))
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const uids = [...res.text.matchAll(/^UID:(.*)\r$/gm)].map((m) => m[1]);
  return { ics: res.text, uids, icalJs: flat(icalJsInstances(res.text, w.to)), nodeIcal: flat(nodeIcalInstances(res.text, w.from, w.to)) };
}

/** The two readers see, in both windows, exactly the API's occurrences; the series is one UID, the series' own. */
async function expectFeedAsApi(t: TestApp, seriesId: number): Promise<void> {
  for (const w of [WHOLE, MIDDLE]) {
    const api = await apiInstances(t, seriesId, w);
    expect(api.length).toBeGreaterThan(20);
    const feed = await feedInstances(t, seriesId, w);
    expect(new Set(feed.uids)).toEqual(new Set([`127.0.0.1?id=${seriesId}`]));
    expect(feed.icalJs).toEqual(api);
    expect(feed.nodeIcal).toEqual(api);
  }
}

describe.each(ZONES)('recurrence.md §6: events.ics of a series in %s as calendar apps read it', (timezone) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(ENV);
    admin = (await t.userHeader(uid('admin'), 'administrator')).authorization;
  }, 60_000);
  afterAll(async () => t?.close());

  async function series(recurrence = SERIES.recurrence): Promise<Listed[]> {
    const res = await http(t, admin)
      .post(`${API}/events`)
      .send({ title: uid('weekly'), status: 'publish', timezone, ...SERIES, recurrence });
    expectStatus(res, 201);
    const all: Listed[] = [];
    for (let page = 1; ; page++) {
      const list = await http(t, admin).get(`${API}/events/${res.body.id}/occurrences?per_page=50&page=${page}`);
      expectStatus(list, 200);
      all.push(...(list.body.events as Listed[]));
      if (page >= list.body.total_pages) break;
    }
    expect(all.length).toBeGreaterThan(150);
    return all;
  }

  it('every occurrence over three years: the VTIMEZONE covers each DST change the series crosses', async () => {
    const all = await series();
    await expectFeedAsApi(t, all[0].id);
  });

  it('an open-ended rule: the VTIMEZONE reaches the last occurrence made', async () => {
    const all = await series(['RRULE:FREQ=WEEKLY']);
    await expectFeedAsApi(t, all[0].id);
  });

  it('the first occurrence edited on its own (time and title): the series keeps its start, the first is an override', async () => {
    const all = await series();
    const res = await http(t, admin)
      .post(`${API}/events/${all[0].id}?scope=this`)
      .send({ title: 'Moved first', start_date: '2027-01-06 08:00:00', end_date: '2027-01-06 09:00:00' });
    expectStatus(res, 200);
    await expectFeedAsApi(t, all[0].id);
    const feed = await http(t).get(`${API}/events.ics?series=${all[0].id}&${WHOLE.query}`);
    expect(feed.text.match(/^SUMMARY:.*$/gm)?.filter((s) => s.includes('Moved first')).length).toBe(1);
  });

  it('the first occurrence trashed: still one series, its start excluded', async () => {
    const all = await series();
    const trashed = await http(t, admin).delete(`${API}/events/${all[0].id}?scope=this`);
    expectStatus(trashed, 200);
    await expectFeedAsApi(t, all[0].id);
    // The series' VEVENT is as new as that change (SEQUENCE never goes back when another occurrence gives its fields).
    const feed = await http(t).get(`${API}/events.ics?series=${all[0].id}&${WHOLE.query}`);
    expect(feed.text.match(/^LAST-MODIFIED:(.*)\r$/m)?.[1]).toBe(`${(trashed.body.modified_utc as string).replace(/[-:]/g, '').replace(' ', 'T')}Z`);
  });

  it('the first occurrence set to draft: still one series, its start excluded', async () => {
    const all = await series();
    expectStatus(await http(t, admin).post(`${API}/events/${all[0].id}?scope=this`).send({ status: 'draft' }), 200);
    await expectFeedAsApi(t, all[0].id);
  });

  it('an occurrence restored after a scope=following delete is in the feed past the UNTIL', async () => {
    const all = await series();
    expectStatus(await http(t, admin).delete(`${API}/events/${all[80].id}?scope=following`), 200);
    expectStatus(await http(t, admin).post(`${API}/events/${all[100].id}`).send({ status: 'publish' }), 200);
    const listed = await apiInstances(t, all[0].id, WHOLE);
    expect(listed.at(-1)).toEqual({ start: all[100].utc_start_date, end: all[100].utc_end_date });
    await expectFeedAsApi(t, all[0].id);
  });
});

describe('recurrence.md §6: an occurrence trashed while the module was off is not in the feed', () => {
  it.each(ZONES)('%s', async (timezone) => {
    const { a: on, b: off, close } = await twoInstances(ENV, { b: { CALENDAR_RECURRENCE: 'off' } });
    let reader: TestApp | undefined;
    try {
      const admin = (await on.userHeader(uid('admin'), 'administrator')).authorization;
      const res = await http(on, admin)
        .post(`${API}/events`)
        .send({ title: uid('weekly'), status: 'publish', timezone, ...SERIES });
      expectStatus(res, 201);
      const list = await http(on, admin).get(`${API}/events/${res.body.id}/occurrences?per_page=50&page=2`);
      const [victim] = list.body.events as Listed[];
      expectStatus(await http(off, admin).delete(`${API}/events/${victim.id}`), 200);
      // Read through a new instance, which has every commit of the others.
      reader = await createTestApp(ENV, { sharing: on });
      expect((await apiInstances(reader, res.body.id, WHOLE)).map((i) => i.start)).not.toContain(victim.utc_start_date);
      await expectFeedAsApi(reader, res.body.id);
    } finally {
      await reader?.close();
      await close();
    }
  });
});
