// A weekly series over three years in events.ics, compared with the API: what ical.js (with the
// file's own VTIMEZONEs) and node-ical make of the served file, instant for instant, against what
// the list gives for the same window. For the recurrence feed tests, in one app
// (recurrence-feed) and across instances (recurrence-instances).
import { expectStatus } from './expect';
import { API, http } from './http';
import { icalJsOccurrences, nodeIcalOccurrences, SeenOccurrence } from './ical-oracles';
import type { TestApp } from './test-app';

/** An occurrence as the list gives it; only the members these tests read. */
export interface Listed {
  id: number;
  global_id: string;
  utc_start_date: string;
  utc_end_date: string;
}

// The series run to the end of 2029: the horizon must reach past it.
export const FEED_ENV = { CALENDAR_RECURRENCE: 'on', CALENDAR_RECURRENCE_POLL_SECONDS: '0', CALENDAR_RECURRENCE_HORIZON_DAYS: '1500' };
/** Zones with DST changes, a 30-minute one included (Lord Howe). */
export const ZONES = ['Europe/Paris', 'America/New_York', 'Australia/Lord_Howe'];
/** Every Tuesday at 19:00 local from January 2027 to the end of 2029: about 156 occurrences, six DST changes. */
export const SERIES = { start_date: '2027-01-05 19:00:00', end_date: '2027-01-05 20:30:00', recurrence: ['RRULE:FREQ=WEEKLY;UNTIL=20291231T000000Z'] };

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
export const WHOLE = window('2026-12-01', '2030-02-01');
export const MIDDLE = window('2028-02-01', '2029-06-01');

const sql = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
const inside = (w: Window) => (i: SeenOccurrence) => i.start >= sql(w.from) && i.start < sql(w.to);

/** Every occurrence of the series an anonymous reader's list gives in the window, as UTC instants. */
export async function apiInstances(t: TestApp, seriesId: number, w: Window): Promise<SeenOccurrence[]> {
  const seen: SeenOccurrence[] = [];
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
  const flat = (seen: Map<string, SeenOccurrence[]>) =>
    [...seen.values()]
      .flat()
      .filter(inside(w))
      .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const uids = [...res.text.matchAll(/^UID:(.*)\r$/gm)].map((m) => m[1]);
  return { ics: res.text, uids, icalJs: flat(icalJsOccurrences(res.text, w.to)), nodeIcal: flat(nodeIcalOccurrences(res.text, w.from, w.to)) };
}

/** The two readers see, in both windows, exactly the API's occurrences; the series is one UID, the series' own. */
export async function expectFeedAsApi(t: TestApp, seriesId: number): Promise<void> {
  for (const w of [WHOLE, MIDDLE]) {
    const api = await apiInstances(t, seriesId, w);
    expect(api.length).toBeGreaterThan(20);
    const feed = await feedInstances(t, seriesId, w);
    expect(new Set(feed.uids)).toEqual(new Set([`127.0.0.1?id=${seriesId}`]));
    expect(feed.icalJs).toEqual(api);
    expect(feed.nodeIcal).toEqual(api);
  }
}
