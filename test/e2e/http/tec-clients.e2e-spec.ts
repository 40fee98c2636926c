// What TEC's own clients see (compat.md, "The WordPress path" and "TEC's public URLs"): a client
// that came by `/wp-json/tribe/events/v1` meets no link outside it, an extension's included; one
// that follows `next_rest_url` or `Link` with `_fields` gets every page narrowed; and the feeds
// at TEC's URLs are shaped as TEC's (its header lines, one VEVENT per occurrence, TEC's UIDs),
// while the service's own events.ics keeps each series with its RRULE. With recurrence off and on.
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { createEvent, createVenue, EventBody, makeUsers } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { http } from '../../support/http';
import { icalJsOccurrences } from '../../support/ical-oracles';
import { createTestApp, TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;
type Listed = EventBody & { series?: { id: number; rest_url: string } | null };

const ALIAS = '/wp-json/tribe/events/v1';
const OURS = '/calendar/events/v1';
const SITE = 'Tec Site';
const SITE_URL = 'https://events.example.org';
const ZONE = 'Europe/Rome';
const SQL = 'yyyy-MM-dd HH:mm:ss';

/** Every string in a JSON answer that is a link into the API (either namespace, any form). */
function apiLinks(value: unknown, base: string, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.startsWith(base) && /(calendar|tribe)\/events\/v1/.test(value)) out.push(value);
  } else if (Array.isArray(value)) value.forEach((item) => apiLinks(item, base, out));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((item) => apiLinks(item, base, out));
  return out;
}

/** `rel="next"` and `rel="prev"` of a Link header. */
function rels(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (header ?? '').matchAll(/<([^>]+)>;\s*rel="(\w+)"/g)) out[m[2]] = m[1];
  return out;
}

/** The path and query of an absolute link, to request it from the test server. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

const unix = (utcSql: string) => DateTime.fromSQL(utcSql, { zone: 'utc' }).toSeconds();

describe.each(['off', 'on'])("What TEC's own clients see (recurrence %s)", (recurrence) => {
  let t: TestApp;
  let auth: string;
  let series: Listed;
  const year = new Date().getUTCFullYear() + 1;
  const rome = (iso: string) => DateTime.fromISO(iso, { zone: ZONE });

  beforeAll(async () => {
    t = await createTestApp({
      CALENDAR_RECURRENCE: recurrence,
      CALENDAR_SITE_TITLE: SITE,
      CALENDAR_SITE_URL: SITE_URL,
      CALENDAR_TIMEZONE: ZONE,
      CALENDAR_RECURRENCE_POLL_SECONDS: '0',
    });
    auth = (await makeUsers(t)).admin.authorization;
    const at = (title: string, start: DateTime, fields: Json = {}) =>
      createEvent(t, auth, { title, start_date: start.toFormat(SQL), end_date: start.plus({ hours: 2 }).toFormat(SQL), timezone: ZONE, ...fields });
    const hall = await createVenue(t, auth, { venue: 'Tec Hall', city: 'Rome' });
    await at('Tec Concert', rome(`${year}-05-10T19:00`), { venue: hall.id });
    await createEvent(t, auth, { title: 'Tec Fair', start_date: `${year}-05-12 00:00:00`, end_date: `${year}-05-12 23:59:59`, all_day: true, timezone: ZONE });
    for (const day of [14, 16, 18]) await at(`Tec Talk ${day}`, rome(`${year}-05-${day}T10:00`));
    // Made through the alias, as a TEC client would.
    const made = await http(t, auth)
      .post(`${ALIAS}/events`)
      .send({
        title: 'Tec Weekly',
        start_date: `${year}-05-05 18:00:00`,
        end_date: `${year}-05-05 19:00:00`,
        timezone: ZONE,
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      });
    expectStatus(made, 201);
    series = made.body as Listed;
  });
  afterAll(() => t?.close());

  /** The API's list of every event above, whole, by our path. */
  async function listed(): Promise<Listed[]> {
    const res = await http(t).get(`${OURS}/events?per_page=50&start_date=${year}-01-01&end_date=${year}-12-31`).expect(200);
    return res.body.events as Listed[];
  }

  describe('1. a link never leaves the path the client came by', () => {
    it('the answer of a write through the alias, and what the alias lists, link only under the alias', async () => {
      if (recurrence === 'on') expect(series.series?.rest_url).toBe(`${t.baseUrl}${ALIAS}/events/${series.id}/occurrences`);
      const answers: unknown[] = [series];
      const list = await http(t).get(`${ALIAS}/events?per_page=3&start_date=${year}-01-01&end_date=${year}-12-31`).expect(200);
      answers.push(
        list.body,
        await http(t)
          .get(`${ALIAS}/events/${series.id}`)
          .expect(200)
          .then((r) => r.body as unknown),
      );
      const links = answers.flatMap((a) => apiLinks(a, t.baseUrl));
      expect(links.length).toBeGreaterThan(3);
      for (const link of links) expect(link.startsWith(`${t.baseUrl}${ALIAS}/`)).toBe(true);
      for (const link of Object.values(rels(list.headers.link))) expect(link.startsWith(`${t.baseUrl}${ALIAS}/`)).toBe(true);
    });

    it("an extension's link follows the request too: ours, the alias and the plain-permalink form", async () => {
      if (recurrence === 'off') {
        expect(series).not.toHaveProperty('series');
        return;
      }
      const seriesLink = async (path: string) => ((await http(t).get(path).expect(200)).body as Listed).series!.rest_url;
      expect(await seriesLink(`${OURS}/events/${series.id}`)).toBe(`${t.baseUrl}${OURS}/events/${series.id}/occurrences`);
      expect(await seriesLink(`${ALIAS}/events/${series.id}`)).toBe(`${t.baseUrl}${ALIAS}/events/${series.id}/occurrences`);
      expect(await seriesLink(`/?rest_route=/tribe/events/v1/events/${series.id}`)).toBe(
        `${t.baseUrl}/?rest_route=/tribe/events/v1/events/${series.id}/occurrences`,
      );
      // The link answers, and what it lists links under the alias as well.
      const occurrences = await http(t)
        .get(pathOf(await seriesLink(`${ALIAS}/events/${series.id}`)))
        .expect(200);
      expect((occurrences.body as { events: Listed[] }).events).toHaveLength(3);
      for (const link of apiLinks(occurrences.body, t.baseUrl)) expect(link.startsWith(`${t.baseUrl}${ALIAS}/`)).toBe(true);
    });
  });

  describe('2. `_fields` stays in the links a client follows', () => {
    it('following next_rest_url at the alias until the last page: every page narrowed, every item seen once', async () => {
      const total = (await listed()).length;
      let url: string | undefined = `${t.baseUrl}${ALIAS}/events?_fields=id,title&per_page=2&start_date=${year}-01-01&end_date=${year}-12-31`;
      const seen: number[] = [];
      let pages = 0;
      while (url !== undefined) {
        expect(url.startsWith(`${t.baseUrl}${ALIAS}/`)).toBe(true);
        const res = await http(t).get(pathOf(url)).expect(200);
        const body = res.body as { events: Json[]; next_rest_url?: string; previous_rest_url?: string; total: number };
        pages += 1;
        for (const event of body.events) expect(Object.keys(event)).toEqual(['id', 'title']);
        seen.push(...body.events.map((e) => e.id as number));
        expect(rels(res.headers.link)).toEqual({
          ...(body.next_rest_url && { next: body.next_rest_url }),
          ...(body.previous_rest_url && { prev: body.previous_rest_url }),
        });
        if (body.previous_rest_url) expect(new URL(body.previous_rest_url).searchParams.get('_fields')).toBe('id,title');
        url = body.next_rest_url;
      }
      expect(pages).toBe(Math.ceil(total / 2));
      expect(new Set(seen).size).toBe(total);
    });

    it('following the Link header backwards from the last page: every page narrowed', async () => {
      const total = (await listed()).length;
      const last = Math.ceil(total / 2);
      let url: string | undefined = `${t.baseUrl}${ALIAS}/events?per_page=2&_fields=title&page=${last}&start_date=${year}-01-01&end_date=${year}-12-31`;
      let count = 0;
      while (url !== undefined) {
        const res: { body: unknown; headers: Record<string, string> } = await http(t).get(pathOf(url)).expect(200);
        for (const event of (res.body as { events: Json[] }).events) expect(Object.keys(event)).toEqual(['title']);
        count += (res.body as { events: Json[] }).events.length;
        url = rels(res.headers.link).prev;
      }
      expect(count).toBe(total);
    });

    it('a nested key the venue lacks gives [] as WordPress does, not {}', async () => {
      const body = (await http(t).get(`${ALIAS}/events?_fields=title,venue.nope&search=Concert`).expect(200)).body as { events: Json[] };
      expect(body.events).toEqual([{ title: 'Tec Concert', venue: [] }]);
    });
  });

  describe("3. the feeds at TEC's URLs are shaped as TEC's", () => {
    const tecUid = (e: EventBody) => `${e.id}-${unix(e.utc_start_date)}-${unix(e.utc_end_date)}@events.example.org`;

    /** A TEC-URL feed, parsed by ical.js, after checking TEC's header lines. */
    async function tecFeed(path: string): Promise<{ text: string; vevents: ICAL.Component[] }> {
      const res = await http(t).get(path).expect(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      const root = new ICAL.Component(ICAL.parse(res.text));
      const header = (name: string) => root.getFirstPropertyValue(name);
      expect(header('prodid')).toBe(`-//${SITE} - ECPv6.17.2 (calendar-events)//NONSGML v1.0//EN`);
      expect(header('calscale')).toBe('GREGORIAN');
      expect(header('method')).toBe('PUBLISH');
      expect(header('x-wr-calname')).toBe(SITE);
      expect(header('x-original-url')).toBe(SITE_URL);
      expect(header('x-wr-caldesc')).toBe(`Events for ${SITE}`);
      expect(header('x-wr-timezone')).toBe(ZONE);
      const vevents = root.getAllSubcomponents('vevent');
      for (const v of vevents) {
        expect(v.hasProperty('rrule')).toBe(false);
        expect(v.hasProperty('recurrence-id')).toBe(false);
      }
      return { text: res.text, vevents };
    }

    it("the list view, its TEC paths and the subscribe link: one VEVENT per occurrence, each with TEC's UID at its own times", async () => {
      const events = await listed();
      expect(events.filter((e) => e.title === 'Tec Weekly')).toHaveLength(recurrence === 'on' ? 3 : 1);
      for (const path of [
        '/events/?ical=1',
        '/events/list/?ical=1&eventDisplay=list',
        '/?post_type=tribe_events&ical=1&eventDisplay=list',
        `/events/month/${year}-05/?ical=1`,
      ]) {
        const { text, vevents } = await tecFeed(path);
        const uids = vevents.map((v) => String(v.getFirstPropertyValue('uid'))).sort();
        expect(uids).toEqual(events.map(tecUid).sort());
        // ical.js resolves each VEVENT to the API's instants (timed: the file's VTIMEZONEs).
        const seen = icalJsOccurrences(text, new Date(Date.UTC(year + 1, 0, 1)));
        for (const e of events.filter((e) => !e.all_day)) expect(seen.get(tecUid(e))).toEqual([{ start: e.utc_start_date, end: e.utc_end_date }]);
        const fair = vevents.find((v) => v.getFirstPropertyValue('summary') === 'Tec Fair')!;
        expect(String(fair.getFirstPropertyValue('dtstart'))).toBe(`${year}-05-12`);
      }
    });

    it("an event's own .ics at TEC's URL is TEC's too", async () => {
      const occurrence = (await listed()).filter((e) => e.title === 'Tec Weekly').pop()!;
      const slug = new URL(occurrence.url).pathname.split('/')[2];
      for (const path of [`/event/${slug}/ical/`, `/event/${slug}/?ical=1`]) {
        const { vevents } = await tecFeed(path);
        expect(vevents.map((v) => String(v.getFirstPropertyValue('uid')))).toEqual([tecUid(occurrence)]);
      }
    });

    it("the service's own events.ics keeps the series with its RRULE", async () => {
      const res = await http(t).get(`${OURS}/events.ics?start_date=${year}-01-01&end_date=${year}-12-31`).expect(200);
      const root = new ICAL.Component(ICAL.parse(res.text));
      const weekly = root.getAllSubcomponents('vevent').filter((v) => v.getFirstPropertyValue('summary') === 'Tec Weekly');
      expect(String(root.getFirstPropertyValue('prodid'))).not.toContain('ECPv');
      if (recurrence === 'on') {
        expect(weekly).toHaveLength(1);
        expect(weekly[0].hasProperty('rrule')).toBe(true);
        expect(weekly[0].getFirstPropertyValue('uid')).toBe(series.global_id);
      } else expect(weekly.map((v) => v.hasProperty('rrule'))).toEqual([false]);
    });
  });
});
