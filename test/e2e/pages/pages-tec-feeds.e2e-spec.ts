// TEC's feed URLs on the public pages (compat.md, "TEC's public URLs"): `?ical=1`
// on every page that lists events answers the iCalendar feed of what that page lists (its filters
// and its window, no paging); TEC's query forms on the root (`/?post_type=tribe_events…`,
// `/?tribe_events={slug}`); the RSS feed `/events/feed/`. CALENDAR_WP_COMPAT=off removes them.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DateTime } from 'luxon';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { createCategory, createEvent, createOrganizer, createTag, createVenue, EventBody, makeUsers } from '../../support/api';

const HTML = 'text/html; charset=utf-8';
const CALENDAR = 'text/calendar; charset=utf-8';
const SQL = 'yyyy-MM-dd HH:mm:ss';

/** The SUMMARY of each VEVENT of an iCalendar document, sorted (the titles here need no unescaping). */
const summaries = (ics: string) =>
  ics
    .split('\r\n')
    .filter((line) => line.startsWith('SUMMARY:'))
    .map((line) => line.slice('SUMMARY:'.length))
    .sort();

/** The lines of an iCalendar document that do not change from one answer to the next. */
const stable = (ics: string) => ics.split('\r\n').filter((line) => line !== '' && !line.startsWith('DTSTAMP'));

/** The path segment of a public URL that names its record (`/venue/{slug}/` → slug). */
const slugOf = (url: string) => new URL(url).pathname.split('/').filter(Boolean).pop()!;

describe("TEC's ?ical=1 on the pages that list events", () => {
  let t: TestApp;
  const year = new Date().getUTCFullYear() + 1;
  // The May grid (weeks start on Monday) begins on the Monday of the week of May 1st.
  const gridFirst = DateTime.fromISO(`${year}-05-01`, { zone: 'utc' }).startOf('week');
  const now = DateTime.utc();
  let slugs: Record<'category' | 'tag' | 'venue' | 'organizer' | 'concert', string>;

  beforeAll(async () => {
    t = await createTestApp();
    const { admin } = await makeUsers(t);
    const auth = admin.authorization;
    const category = await createCategory(t, auth, { name: 'Feed Music' });
    const tag = await createTag(t, auth, { name: 'Feed Tagged' });
    const venue = await createVenue(t, auth, { venue: 'Feed Hall' });
    const organizer = await createOrganizer(t, auth, { organizer: 'Feed Host' });
    const at = (title: string, start: DateTime, fields: Record<string, unknown> = {}) =>
      createEvent(t, auth, { title, start_date: start.toFormat(SQL), end_date: start.plus({ hours: 2 }).toFormat(SQL), ...fields });
    const concert = await at('Feed Concert', DateTime.fromISO(`${year}-05-10T19:00`, { zone: 'utc' }), {
      categories: [category.id],
      tags: [tag.id],
      venue: venue.id,
      organizer: [organizer.id],
    });
    slugs = { category: category.slug, tag: tag.slug, venue: slugOf(venue.url), organizer: slugOf(organizer.url), concert: slugOf(concert.url) };
    await at('Feed Lecture', DateTime.fromISO(`${year}-05-20T10:00`, { zone: 'utc' }));
    await at('Feed Grid Start', gridFirst.set({ hour: 9 }));
    await at('Feed Before Grid', gridFirst.minus({ days: 1 }).set({ hour: 9 }));
    await at('Feed June', DateTime.fromISO(`${year}-06-15T10:00`, { zone: 'utc' }));
    await at('Feed Draft', DateTime.fromISO(`${year}-05-11T10:00`, { zone: 'utc' }), { status: 'draft' });
    // Inside the list's default window (a day back, two years ahead) but not the API feed's (30 days back, a year ahead), and the other way round.
    await at('Feed Far', now.plus({ months: 18 }).startOf('hour'));
    await at('Feed Past', now.minus({ days: 10 }).startOf('hour'));
  });
  afterAll(() => t?.close());

  async function feed(path: string): Promise<string> {
    const res = await http(t).get(path).expect(200);
    expect(res.headers['content-type']).toBe(CALENDAR);
    expect(res.headers['content-disposition']).toBe('inline; filename="events.ics"');
    expect(res.text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    return res.text;
  }

  const upcoming = ['Feed Before Grid', 'Feed Concert', 'Feed Far', 'Feed Grid Start', 'Feed June', 'Feed Lecture'];

  it("the list view's feed: what the list shows, in the list's window, without paging", async () => {
    const list = await feed('/events/?ical=1');
    expect(summaries(list)).toEqual(upcoming);
    // The API feed keeps its own window: the event 18 months ahead is not in it, the one 10 days ago is.
    const api = summaries((await http(t).get(`${API}/events.ics`).expect(200)).text);
    expect(api).toContain('Feed Past');
    expect(api).not.toContain('Feed Far');
    // No paging: page 2 of the HTML list does not exist, its feed is the whole list.
    await http(t).get('/events/?page=2').expect(404);
    expect(stable(await feed('/events/?page=2&ical=1'))).toEqual(stable(list));
  });

  it("TEC's companions of ical=1 (eventDisplay, tribe_display) and TEC's list paths answer the same feed", async () => {
    const list = stable(await feed('/events/?ical=1'));
    for (const path of ['/events/?ical=1&eventDisplay=list', '/events/?tribe_display=list&ical=1', '/events/list/?ical=1', '/events/list/page/2/?ical=1']) {
      expect(stable(await feed(path))).toEqual(list);
    }
  });

  it("the list's filters apply to its feed", async () => {
    expect(summaries(await feed('/events/?ical=1&search=Lecture'))).toEqual(['Feed Lecture']);
    expect(summaries(await feed(`/events/?ical=1&categories=${slugs.category}`))).toEqual(['Feed Concert']);
  });

  it('the month: the events covering the days of its grid, no more', async () => {
    expect(summaries(await feed(`/events/month/${year}-05/?ical=1`))).toEqual(['Feed Concert', 'Feed Grid Start', 'Feed Lecture']);
    expect(summaries(await feed(`/events/month/${year}-05/?ical=1&search=Concert`))).toEqual(['Feed Concert']);
  });

  it('the day: the events covering that day', async () => {
    expect(summaries(await feed(`/events/${year}-05-10/?ical=1`))).toEqual(['Feed Concert']);
    expect(summaries(await feed(`/events/${year}-05-12/?ical=1`))).toEqual([]);
  });

  it("a category, a tag, a venue and an organizer: that record's events", async () => {
    for (const path of [`/events/category/${slugs.category}/`, `/tag/${slugs.tag}/`, `/venue/${slugs.venue}/`, `/organizer/${slugs.organizer}/`]) {
      expect(summaries(await feed(`${path}?ical=1`))).toEqual(['Feed Concert']);
      // The page itself is still the page.
      expect((await http(t).get(path).expect(200)).headers['content-type']).toBe(HTML);
    }
  });

  it('a page that does not exist has no feed: the 404 page', async () => {
    for (const path of [
      '/events/category/no-such-category/?ical=1',
      '/venue/no-such-venue/?ical=1',
      `/events/month/${year}-13/?ical=1`,
      '/events/2030-02-30/?ical=1',
    ]) {
      const res = await http(t).get(path).expect(404);
      expect(res.headers['content-type']).toBe(HTML);
    }
    const bad = await http(t).get('/events/?ical=1&venue=abc').expect(400);
    expect(bad.headers['content-type']).toBe(HTML);
  });

  it('a feed is tagged and conditional like every GET', async () => {
    const first = await http(t).get(`/events/month/${year}-05/?ical=1`).expect(200);
    expect(first.headers.etag).toBeTruthy();
    await http(t).get(`/events/month/${year}-05/?ical=1`).set('If-None-Match', first.headers.etag).expect(304);
    const page = await http(t).get(`/events/month/${year}-05/`).expect(200);
    expect(page.headers.etag).not.toBe(first.headers.etag);
  });

  it('with CALENDAR_WP_COMPAT=off, ?ical=1 is ignored: the pages answer their HTML', async () => {
    const off = await createTestApp({ CALENDAR_WP_COMPAT: 'off' });
    try {
      for (const path of ['/events/?ical=1', '/events/month/?ical=1', '/events/today/?ical=1']) {
        const res = await http(off).get(path).expect(200);
        expect(res.headers['content-type']).toBe(HTML);
      }
    } finally {
      await off.close();
    }
  });
});

describe("TEC's query forms on the site's root", () => {
  let t: TestApp;
  let slug: string;

  beforeAll(async () => {
    t = await createTestApp();
    const { admin } = await makeUsers(t);
    const year = new Date().getUTCFullYear() + 1;
    slug = slugOf(
      (await createEvent(t, admin.authorization, { title: 'Root Form Fair', start_date: `${year}-04-01 10:00:00`, end_date: `${year}-04-01 12:00:00` })).url,
    );
  });
  afterAll(() => t?.close());

  it("`/?post_type=tribe_events&ical=1&eventDisplay=list` (TEC's subscribe link) is the feed of upcoming events: the list view's", async () => {
    const list = await http(t).get('/events/?ical=1').expect(200);
    for (const path of ['/?post_type=tribe_events&ical=1&eventDisplay=list', '/?ical=1&post_type=tribe_events']) {
      const res = await http(t).get(path).expect(200);
      expect(res.headers['content-type']).toBe(CALENDAR);
      expect(summaries(res.text)).toEqual(['Root Form Fair']);
      expect(stable(res.text)).toEqual(stable(list.text));
      expect(res.headers.etag).toBeTruthy();
    }
  });

  it('`/?post_type=tribe_events` goes to /events/, `/?tribe_events={slug}` to the event, other parameters kept', async () => {
    const location = async (path: string) => (await http(t).get(path).expect(301)).headers.location;
    expect(await location('/?post_type=tribe_events')).toBe(`${t.baseUrl}/events/`);
    expect(await location('/?post_type=tribe_events&search=fair')).toBe(`${t.baseUrl}/events/?search=fair`);
    expect(await location(`/?tribe_events=${slug}`)).toBe(`${t.baseUrl}/event/${slug}/`);
    expect(await location(`/?post_type=tribe_events&tribe_events=${slug}&ical=1`)).toBe(`${t.baseUrl}/event/${slug}/?ical=1`);
    // Where they lead answers.
    expect((await http(t).get(`/event/${slug}/`).expect(200)).headers['content-type']).toBe(HTML);
    expect(summaries((await http(t).get(`/event/${slug}/?ical=1`).expect(200)).text)).toEqual(['Root Form Fair']);
  });

  /** The root's own answer (the REST index), whatever else the query holds. */
  async function isRestIndex(app: TestApp, path: string): Promise<void> {
    const root = (await http(app).get('/').expect(200)).body as Record<string, unknown>;
    const res = await http(app).get(path).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(root);
  }

  it('any other query on the root keeps its answer', async () => {
    for (const path of ['/?post_type=post', '/?utm_source=x', '/?tribe_events=', '/?ical=1']) await isRestIndex(t, path);
    // `rest_route` names an API route: that route answers.
    const api = await http(t).get('/?rest_route=/tribe/events/v1/events&post_type=tribe_events').expect(200);
    expect((api.body as { events: { title: string }[] }).events.map((e) => e.title)).toEqual(['Root Form Fair']);
  });

  it('with CALENDAR_WP_COMPAT=off, or the pages off, the root answers them as any other query', async () => {
    for (const env of [{ CALENDAR_WP_COMPAT: 'off' }, { CALENDAR_PAGES: 'off' }] as Record<string, string>[]) {
      const other = await createTestApp(env);
      try {
        for (const path of ['/?post_type=tribe_events', '/?post_type=tribe_events&ical=1&eventDisplay=list', `/?tribe_events=${slug}`])
          await isRestIndex(other, path);
      } finally {
        await other.close();
      }
    }
  });
});

describe("TEC's RSS feed, /events/feed/", () => {
  let t: TestApp;
  let tricky: EventBody;
  const year = new Date().getUTCFullYear() + 1;
  const TRICKY = 'Fish & Chips <3 ]]> then ]]> "again"';

  beforeAll(async () => {
    t = await createTestApp();
    const { admin } = await makeUsers(t);
    const music = await createCategory(t, admin.authorization, { name: 'Rss Music & Co' });
    tricky = await createEvent(t, admin.authorization, {
      title: TRICKY,
      excerpt: 'Served hot & <3 fresh',
      categories: [music.id],
      start_date: `${year}-01-01 18:30:00`,
      end_date: `${year}-01-01 20:00:00`,
    });
    // Eleven more upcoming events: the feed has the first ten of the list; a past one and a draft never show.
    for (let i = 1; i <= 11; i++) {
      const day = String(i + 1).padStart(2, '0');
      await createEvent(t, admin.authorization, {
        title: `Rss Event ${day}`,
        start_date: `${year}-01-${day} 10:00:00`,
        end_date: `${year}-01-${day} 11:00:00`,
      });
    }
    await createEvent(t, admin.authorization, { title: 'Rss Past', start_date: '2020-01-01 10:00:00', end_date: '2020-01-01 11:00:00' });
    await createEvent(t, admin.authorization, {
      title: 'Rss Draft',
      status: 'draft',
      start_date: `${year}-01-01 09:00:00`,
      end_date: `${year}-01-01 10:00:00`,
    });
  });
  afterAll(() => t?.close());

  /** The feed at `path`, checked well-formed and parsed (items always a list). */
  async function rss(path: string) {
    const res = await http(t).get(path).expect(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=UTF-8');
    expect(XMLValidator.validate(res.text)).toBe(true);
    const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'item' || name === 'category' });
    const doc = parser.parse(res.text) as { rss: { '@_version': string; channel: Record<string, unknown> & { item?: Record<string, unknown>[] } } };
    return { doc, res };
  }

  it('is RSS 2.0 of the upcoming events: title, link (the event url), description, pubDate (the start), ten of them', async () => {
    const { doc } = await rss('/events/feed/');
    expect(doc.rss['@_version']).toBe('2.0');
    expect(doc.rss.channel).toMatchObject({
      link: `${t.baseUrl}/events/`,
      'atom:link': { '@_href': `${t.baseUrl}/events/feed/`, '@_rel': 'self' },
    });
    const items = doc.rss.channel.item!;
    expect(items.map((i) => i.title)).toEqual([TRICKY, ...Array.from({ length: 9 }, (_, i) => `Rss Event ${String(i + 2).padStart(2, '0')}`)]);
    expect(items[0]).toEqual({
      title: TRICKY,
      link: tricky.url,
      guid: tricky.url,
      description: 'Served hot & <3 fresh',
      pubDate: new Date(`${tricky.utc_start_date.replace(' ', 'T')}Z`).toUTCString(),
      category: ['Rss Music & Co'],
    });
  });

  it("the list's filters apply", async () => {
    const { doc } = await rss('/events/feed/?search=Chips');
    expect(doc.rss.channel.item!.map((i) => i.link)).toEqual([tricky.url]);
    expect(doc.rss.channel.link).toBe(`${t.baseUrl}/events/?search=Chips`);
  });

  it('redirects the unslashed form, and is tagged and conditional like every GET', async () => {
    expect((await http(t).get('/events/feed').expect(301)).headers.location).toBe(`${t.baseUrl}/events/feed/`);
    const { res } = await rss('/events/feed/');
    expect(res.headers.etag).toBeTruthy();
    await http(t).get('/events/feed/').set('If-None-Match', res.headers.etag).expect(304);
  });

  it('every page names it in its head, as WordPress does, for feed readers to find', async () => {
    for (const path of ['/events/', '/events/month/', `/event/${slugOf(tricky.url)}/`]) {
      const html = (await http(t).get(path).expect(200)).text;
      expect([path, [...html.matchAll(/<link rel="alternate" type="application\/rss\+xml"[^>]*href="([^"]+)"/g)].map((m) => m[1])]).toEqual([
        path,
        [`${t.baseUrl}/events/feed/`],
      ]);
    }
  });

  it('with CALENDAR_WP_COMPAT=off it answers the 404 page, and no page names it', async () => {
    const off = await createTestApp({ CALENDAR_WP_COMPAT: 'off' });
    try {
      const res = await http(off).get('/events/feed/').expect(404);
      expect(res.headers['content-type']).toBe(HTML);
      expect((await http(off).get('/events/').expect(200)).text).not.toContain('application/rss+xml');
    } finally {
      await off.close();
    }
  });
});
