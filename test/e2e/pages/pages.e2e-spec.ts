// The public pages (pages.md) through the real HTTP stack, without a browser: every page kind,
// every `url` the API hands out, visibility (404 page), redirects, filters and navigation, the
// month grid's placement of multi-day and all-day events across a DST change, and the HTTP
// behaviour shared with the API (ETag/304, compression, response cache, CALENDAR_PAGES=off).
import { DateTime } from 'luxon';
import { cardTitles, gridCells } from '../../support/page-html';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createCategory, createEvent, createOrganizer, createTag, createVenue, EventBody, getOk, makeUsers, trashEvent, uid } from '../../support/api';

const ZONE = 'Europe/Berlin';
const HTML = 'text/html; charset=utf-8';

/** Every `url` member in a JSON value (the public permalinks; rest_url and the like have other names). */
function urls(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(urls);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (k === 'url' && typeof v === 'string' ? [v] : urls(v)));
  }
  return [];
}

describe('public pages', () => {
  let t: TestApp;
  let admin: Caller;
  // The last Sunday of March next year: clocks go forward in Berlin that night (02:00 → 03:00).
  const year = DateTime.now().year + 1;
  const dstSunday = DateTime.fromObject({ year, month: 3, day: 31 }, { zone: ZONE }).minus({
    days: DateTime.fromObject({ year, month: 3, day: 31 }).weekday % 7,
  });
  const day = (offset: number) => dstSunday.plus({ days: offset }).toFormat('yyyy-MM-dd');
  let festival: EventBody;
  let allDay: EventBody;
  let abroad: EventBody;
  let jazz: { id: number; slug: string; url: string };
  let tagSlug: string;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_TIMEZONE: ZONE, CALENDAR_SITE_TITLE: 'Town Events' });
    ({ admin } = await makeUsers(t));
    const music = await createCategory(t, admin.authorization, { name: 'Music' });
    const jazzTerm = await createCategory(t, admin.authorization, { name: 'Jazz', parent: music.id });
    jazz = { id: jazzTerm.id, slug: jazzTerm.slug, url: jazzTerm.url };
    tagSlug = (await createTag(t, admin.authorization, { name: 'Outdoors' })).slug;
    // Saturday 22:00 CET to Monday 09:00 CEST: three days, across the change of offset.
    festival = await createEvent(t, admin.authorization, {
      title: 'Night Festival',
      status: 'publish',
      start_date: `${day(-1)} 22:00:00`,
      end_date: `${day(1)} 09:00:00`,
      timezone: ZONE,
      cost: '€15',
      description: '<p>Bring a <strong>lamp</strong>.</p>',
      venue: { venue: 'River Park', address: '1 Quay', city: 'Bonn', country: 'Germany', zip: '53111' },
      organizer: [{ organizer: 'Culture Office', email: 'culture@example.org', phone: '+49 228 1' }],
      categories: [jazz.id],
      tags: [tagSlug],
    });
    allDay = await createEvent(t, admin.authorization, {
      title: 'Market Day',
      status: 'publish',
      start_date: `${day(0)} 00:00:00`,
      end_date: `${day(0)} 23:59:59`,
      all_day: true,
      timezone: ZONE,
    });
    abroad = await createEvent(t, admin.authorization, {
      title: 'Call with New York',
      status: 'publish',
      start_date: `${day(0)} 12:00:00`,
      end_date: `${day(0)} 13:00:00`,
      timezone: 'America/New_York',
    });
  });
  afterAll(async () => t?.close());

  describe('every page kind', () => {
    it('the event page: title, dates in its zone with abbreviations, cost, description, venue, organizer, terms, add-to-calendar links, JSON-LD', async () => {
      const res = await http(t).get(new URL(festival.url).pathname).expect(200);
      expect(res.headers['content-type']).toBe(HTML);
      const html = res.text;
      expect(html).toMatch(/^<!doctype html>\s*<html lang="en">/);
      expect(html).toContain('<title>Night Festival · Town Events</title>');
      expect(html).toContain(`<link rel="canonical" href="${festival.url}">`);
      expect(html).toContain(`<meta property="og:url" content="${festival.url}">`);
      expect(html).toContain('<meta property="og:title" content="Night Festival">');
      // 22:00 CET on Saturday to 09:00 CEST on Monday: both abbreviations, since the offset changes.
      const start = DateTime.fromSQL(`${day(-1)} 22:00`, { zone: ZONE });
      expect(html).toContain(`${start.toFormat('cccc d LLLL yyyy')}, 22:00 CET – ${DateTime.fromISO(day(1)).toFormat('cccc d LLLL yyyy')}, 09:00 CEST`);
      expect(html).toContain('€15');
      expect(html).toContain('<p>Bring a <strong>lamp</strong>.</p>');
      expect(html).toContain(
        '<address class="p-adr h-adr"><span class="p-street-address">1 Quay</span>, <span class="p-locality">Bonn</span>, <span class="p-postal-code">53111</span>, <span class="p-country-name">Germany</span></address>',
      );
      expect(html).toContain(`https://www.openstreetmap.org/search?query=${encodeURIComponent('River Park, 1 Quay, Bonn, 53111, Germany')}`);
      expect(html).toContain('href="mailto:culture@example.org"');
      expect(html).toContain(`href="${jazz.url}">Jazz</a>`);
      expect(html).toContain(`href="${t.baseUrl}/tag/${tagSlug}/">#<span class="p-category">Outdoors</span></a>`);
      // Pages link to the API at its own path, whichever path the tests call it by.
      expect(html).toContain(`href="${t.baseUrl}/calendar/events/v1/events/${festival.id}.ics"`);
      const google = /href="(https:\/\/calendar\.google\.com\/calendar\/render\?[^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');
      const params = new URL(google).searchParams;
      expect(params.get('action')).toBe('TEMPLATE');
      expect(params.get('text')).toBe('Night Festival');
      expect(params.get('dates')).toBe(
        `${start.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}/${DateTime.fromSQL(`${day(1)} 09:00`, { zone: ZONE })
          .toUTC()
          .toFormat("yyyyMMdd'T'HHmmss'Z'")}`,
      );
      expect(params.get('location')).toContain('River Park');
      const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1];
      const api = await getOk(t, `${API}/events/${festival.id}`);
      expect(JSON.parse(ld)).toEqual(api.json_ld);
      // Nothing is loaded from another origin.
      for (const m of html.matchAll(/<(?:link|script|img)\b[^>]*(?:href|src)="([^"]+)"/g)) expect(m[1].startsWith(t.baseUrl)).toBe(true);
    });

    it('an event in another zone than the site also shows the site time; an all-day event says so', async () => {
      const other = (await http(t).get(new URL(abroad.url).pathname).expect(200)).text;
      expect(other).toMatch(/12:00 – 13:00 E[DS]T/);
      expect(other).toMatch(/In the site's time zone \(Europe\/Berlin\): .*1[78]:00 – 1[89]:00 CES?T/);
      const market = (await http(t).get(new URL(allDay.url).pathname).expect(200)).text;
      expect(market).toContain(`${DateTime.fromISO(day(0)).toFormat('cccc d LLLL yyyy')} · All day`);
      expect(market).not.toContain("site's time zone");
    });

    it('the venue and organizer pages show the record and its upcoming events', async () => {
      const venue = festival.venue as unknown as { url: string };
      const v = (await http(t).get(new URL(venue.url).pathname).expect(200)).text;
      expect(v).toContain('<h1>River Park</h1>');
      expect(v).toContain(`<a class="p-name u-url" href="${festival.url}">Night Festival</a>`);
      expect(v).toContain('<script type="application/ld+json">');
      const organizer = festival.organizer[0] as unknown as { url: string };
      const o = (await http(t).get(new URL(organizer.url).pathname).expect(200)).text;
      expect(o).toContain('<h1>Culture Office</h1>');
      expect(o).toContain(`<a class="p-name u-url" href="${festival.url}">Night Festival</a>`);
      expect(o).not.toContain('Market Day');
    });

    it('category (nested path) and tag archives list their events; a category at the wrong path is the 404 page', async () => {
      const c = await http(t).get(new URL(jazz.url).pathname).expect(200);
      expect(new URL(jazz.url).pathname).toBe(`/events/category/music/${jazz.slug}/`);
      expect(c.text).toContain('<h1>Category: Jazz</h1>');
      expect(c.text).toContain('Night Festival');
      expect(c.text).not.toContain('Market Day');
      // The parent's archive includes its children's events (the API's categories filter).
      expect((await http(t).get('/events/category/music/').expect(200)).text).toContain('Night Festival');
      await http(t).get(`/events/category/${jazz.slug}/`).expect(404);
      const tag = await http(t).get(`/tag/${tagSlug}/`).expect(200);
      expect(tag.text).toContain('<h1>Tag: Outdoors</h1>');
      expect(tag.text).toContain('Night Festival');
    });

    it('the list view: upcoming events, search and category filters, 10 a page with links to the next and previous pages', async () => {
      const token = uid('pg');
      for (let i = 0; i < 11; i += 1) {
        await createEvent(t, admin.authorization, {
          title: `Paged ${token} ${i}`,
          status: 'publish',
          start_date: `${day(10 + i)} 10:00:00`,
          end_date: `${day(10 + i)} 11:00:00`,
        });
      }
      const first = (await http(t).get(`/events/?search=${token}`).expect(200)).text;
      expect(first.match(/class="event-card h-event"/g)).toHaveLength(10);
      expect(first).toContain('11 events');
      expect(first).toContain(`<a rel="next" href="${t.baseUrl}/events/?search=${token}&amp;page=2">`);
      expect(first).toContain(`value="${token}"`);
      const second = (await http(t).get(`/events/?search=${token}&page=2`).expect(200)).text;
      expect(second.match(/class="event-card h-event"/g)).toHaveLength(1);
      expect(second).toContain(`<a rel="prev" href="${t.baseUrl}/events/?search=${token}">`);
      const filtered = (await http(t).get('/events/?categories=music').expect(200)).text;
      expect(filtered).toContain('Night Festival');
      expect(filtered).not.toContain('Market Day');
      expect(filtered).toContain('<option value="music" selected>');
      // A filter the API refuses is a page error, not the API's JSON.
      const bad = await http(t).get('/events/?categories=no-such-category').expect(400);
      expect(bad.headers['content-type']).toBe(HTML);
      await http(t).get(`/events/?search=${token}&page=9`).expect(404);
    });

    it('the month grid: a table with a caption, weeks from Monday, multi-day events on every day they cover, all-day events first, links to the neighbours', async () => {
      const month = day(0).slice(0, 7);
      const res = await http(t).get(`/events/month/${month}/`).expect(200);
      const html = res.text;
      expect(html).toContain(`<caption>${DateTime.fromISO(day(0)).toFormat('LLLL yyyy')}</caption>`);
      expect(/<thead>[\s\S]*?<abbr title="(\w+)">/.exec(html)![1]).toBe('Monday');
      const cells = gridCells(html);
      for (const d of [day(-1), day(0), day(1)]) expect(cells.get(d)).toContain('Night Festival');
      expect(cells.get(day(2)) ?? '').not.toContain('Night Festival');
      expect(cells.get(day(-1))).toContain('22:00 CET');
      const sunday = cells.get(day(0))!;
      expect(sunday.indexOf('Market Day')).toBeGreaterThanOrEqual(0);
      expect(sunday.indexOf('Market Day')).toBeLessThan(sunday.indexOf('Night Festival'));
      expect(sunday).toContain('All day');
      const prev = DateTime.fromISO(`${month}-01`).minus({ months: 1 }).toFormat('yyyy-MM');
      expect(html).toContain(`<a rel="prev" href="${t.baseUrl}/events/month/${prev}/">`);
      expect(html).toContain(`href="${t.baseUrl}/events/month/">This month</a>`);
      expect(html).toContain(`<a href="${t.baseUrl}/events/month/" aria-current="page">Month</a>`);
      // CALENDAR_WEEK_START moves the first column.
      const sundays = await createTestApp({ CALENDAR_TIMEZONE: ZONE, CALENDAR_WEEK_START: 'sunday' });
      try {
        const other = (await http(sundays).get(`/events/month/${month}/`).expect(200)).text;
        expect(/<thead>[\s\S]*?<abbr title="(\w+)">/.exec(other)![1]).toBe('Sunday');
      } finally {
        await sundays.close();
      }
    });

    it('the day view lists every event covering the day, all-day first; today answers too', async () => {
      const html = (
        await http(t)
          .get(`/events/${day(0)}/`)
          .expect(200)
      ).text;
      const titles = cardTitles(html);
      expect(titles).toEqual(['Market Day', 'Night Festival', 'Call with New York']);
      expect(html).toContain(`<a rel="next" href="${t.baseUrl}/events/${day(1)}/">`);
      expect(
        (
          await http(t)
            .get(`/events/${day(1)}/`)
            .expect(200)
        ).text,
      ).toContain('Night Festival');
      const today = await http(t).get('/events/today/').expect(200);
      expect(today.text).toContain(`<title>Events on ${DateTime.now().setZone(ZONE).toFormat('cccc d LLLL yyyy')} · Town Events</title>`);
      await http(t).get('/events/2031-02-30/').expect(404);
      await http(t).get('/events/month/2031-13/').expect(404);
    });
  });

  it('every url the API hands out answers 200 with its page', async () => {
    const bodies = await Promise.all(
      ['/events?per_page=50', '/venues?per_page=50', '/organizers?per_page=50', '/categories?per_page=50', '/tags?per_page=50', `/events/${festival.id}`].map(
        (p) => getOk(t, `${API}${p}`),
      ),
    );
    const found = [...new Set(bodies.flatMap(urls))].filter((u) => u.startsWith(t.baseUrl));
    expect(found.length).toBeGreaterThan(10);
    for (const url of found) {
      const res = await http(t).get(new URL(url).pathname);
      expect([url, res.status, res.headers['content-type']]).toEqual([url, 200, HTML]);
      expect(res.text).toContain(`<link rel="canonical" href="${url}">`);
    }
  });

  it('a draft, pending, private, trashed or unknown event (or hidden venue) answers the 404 page, never its content', async () => {
    const hidden = [];
    for (const status of ['draft', 'pending', 'private']) {
      hidden.push(await createEvent(t, admin.authorization, { title: `Secret ${status} ${uid()}`, status }));
    }
    const trashed = await createEvent(t, admin.authorization, { title: `Secret trashed ${uid()}`, status: 'publish' });
    await trashEvent(t, admin.authorization, trashed.id);
    const draftVenue = await createVenue(t, admin.authorization, { venue: `Secret venue ${uid()}`, status: 'draft' });
    const draftOrganizer = await createOrganizer(t, admin.authorization, { organizer: `Secret organizer ${uid()}`, status: 'draft' });
    const paths = [
      ...hidden.map((e) => new URL(e.url).pathname),
      `/event/${trashed.slug}/`,
      `/event/${trashed.slug}__trashed/`,
      '/event/no-such-event/',
      new URL(draftVenue.url as string).pathname,
      new URL(draftOrganizer.url as string).pathname,
      '/venue/no-such-venue/',
      '/tag/no-such-tag/',
      '/events/category/no-such-category/',
      '/events/not/a/page/',
      '/event/',
    ];
    for (const path of paths) {
      const res = await http(t).get(path);
      expect([path, res.status, res.headers['content-type']]).toEqual([path, 404, HTML]);
      expect(res.text).toContain('<h1>Page not found</h1>');
      expect(res.text).not.toContain('Secret');
    }
    // The API's paths keep their JSON errors.
    const api = await http(t).get(`${API}/nothing-here`).expect(404);
    expect(api.body.code).toBe('rest_no_route');
  });

  it('a path without its trailing slash redirects 301 to the slashed form, query kept', async () => {
    const res = await http(t).get('/events/month?categories=music').expect(301);
    expect(res.headers.location).toBe(`${t.baseUrl}/events/month/?categories=music`);
    expect((await http(t).get(new URL(festival.url).pathname.replace(/\/$/, '')).expect(301)).headers.location).toBe(festival.url);
  });

  it('pages carry a strong ETag (304 on If-None-Match), are compressed, and come from the cache until a write', async () => {
    const path = new URL(festival.url).pathname;
    const first = await http(t).get(path).set('accept-encoding', 'gzip');
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers.vary).toContain('Accept-Encoding');
    // supertest has unzipped it.
    expect(first.text).toContain('Night Festival');
    const tag = first.headers.etag;
    expect(tag).toMatch(/^"/);
    const again = await http(t).get(path).set('accept-encoding', 'gzip').set('if-none-match', tag);
    expect(again.status).toBe(304);
    // A write changes the page (and its tag).
    await http(t, admin.authorization).post(`${API}/events/${festival.id}`).send({ title: 'Night Festival Renamed' }).expect(200);
    const changed = await http(t).get(path).set('accept-encoding', 'gzip').set('if-none-match', tag);
    expect(changed.status).toBe(200);
    await http(t, admin.authorization).post(`${API}/events/${festival.id}`).send({ title: 'Night Festival' }).expect(200);
  });

  it('the stylesheet is served by the service under a content-hashed name with a long-lived cache header', async () => {
    const html = (await http(t).get('/events/').expect(200)).text;
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(html)![1];
    expect(href).toMatch(new RegExp(`^${t.baseUrl}/assets/calendar\\.[0-9a-f]{10}\\.css$`));
    const css = await http(t).get(new URL(href).pathname).expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.text).toContain('prefers-color-scheme: dark');
    expect(css.text).not.toMatch(/@import|url\(\s*['"]?https?:/);
    await http(t).get('/assets/calendar.0000000000.css').expect(404);
  });

  it('with CALENDAR_PAGES=off the page paths answer the API 404 JSON', async () => {
    const off = await createTestApp({ CALENDAR_PAGES: 'off' });
    try {
      for (const path of ['/events/', '/events/month/', '/event/anything/']) {
        const res = await http(off).get(path).expect(404);
        expect(res.body.code).toBe('rest_no_route');
      }
    } finally {
      await off.close();
    }
  });

  it("CALENDAR_SITE_URL moves the public urls (and the pages' links) to that origin", async () => {
    const site = await createTestApp({ CALENDAR_SITE_URL: 'https://www.example.org/whatson/' });
    try {
      const { admin: a } = await makeUsers(site);
      const event = await createEvent(site, a.authorization, { title: 'Moved', status: 'publish' });
      expect(event.url).toBe('https://www.example.org/whatson/event/moved/');
      const html = (await http(site).get('/event/moved/').expect(200)).text;
      expect(html).toContain('<link rel="canonical" href="https://www.example.org/whatson/event/moved/">');
      expect(html).toContain('href="https://www.example.org/whatson/assets/calendar.');
    } finally {
      await site.close();
    }
  });
});
