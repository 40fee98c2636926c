// The public pages' microformats (pages.md, "On other sites"): every event a page shows is an
// h-event, read here by an independent parser (microformats-parser, the microformats project's
// own) and compared with the API's answer for the same events, read anonymously: name, url,
// start and end (the same instants at the event zone's offset; dates for all-day events, the last
// day included), summary, location (an h-card with an h-adr), categories and tags, and on the
// event page the content. Stored HTML may not add an h-event or a property to a page.
import { DateTime } from 'luxon';
import { mf2 } from 'microformats-parser';
import {
  Caller,
  createCategory,
  createEvent,
  createOrganizer,
  createTag,
  createVenue,
  EventBody,
  getOk,
  LinkedItemBody,
  makeUsers,
  TermBody,
} from '../../support/api';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;
type Item = ReturnType<typeof mf2>['items'][number];
type Property = Item['properties'][string][number];

const SITE_ZONE = 'Europe/Paris';
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The microformats of a page, as the parser reads them. */
function parse(t: TestApp, html: string) {
  return mf2(html, { baseUrl: t.baseUrl });
}

/** One property of a microformat read out of a fragment of HTML: the text or HTML a parser sees in the API's markup. */
function propertyOf(html: string, kind: 'p' | 'e'): Property {
  const item = mf2(`<div class="h-x"><div class="${kind}-x">${html}</div></div>`, { baseUrl: 'http://localhost/' }).items[0];
  return item.properties.x[0];
}
const textOf = (html: string) => propertyOf(html, 'p') as string;

function single(item: Item, name: string): Property {
  const values = item.properties[name];
  expect([name, values?.length]).toEqual([name, 1]);
  return values[0];
}

/** A dt- value and the API's wall time and UTC instant for it: the same instant, at the offset the event's zone has then. */
function expectInstant(value: Property, wall: string, utc: string): void {
  expect(typeof value).toBe('string');
  expect(value).toMatch(ISO_WITH_OFFSET);
  const at = DateTime.fromISO(value as string, { setZone: true });
  expect([at.toUTC().toFormat('yyyy-MM-dd HH:mm:ss'), at.toFormat('yyyy-MM-dd HH:mm:ss')]).toEqual([utc, wall]);
}

/** The h-adr of a venue as the API writes it: the address members it has. */
function adrOf(venue: Json): Json {
  const members = [
    ['street-address', venue.address],
    ['locality', venue.city],
    ['region', venue.stateprovince],
    ['postal-code', venue.zip],
    ['country-name', venue.country],
  ] as const;
  const properties: Json = {};
  for (const [name, value] of members) if (typeof value === 'string' && value !== '') properties[name] = [textOf(value)];
  return properties;
}

/**
 * An h-event of a page against the API's event: every property pages.md names, nothing nested.
 * `page`: on the event's own page, where the h-event also has its content and the venue its url.
 */
function expectSameEvent(item: Item, api: EventBody, page = false): void {
  expect(item.type).toEqual(['h-event']);
  expect(item.children).toBeUndefined();
  expect(single(item, 'name')).toBe(textOf(api.title));
  expect(single(item, 'url')).toBe(api.url);
  if (api.all_day) {
    expect(single(item, 'start')).toBe(api.start_date.slice(0, 10));
    expect(single(item, 'end')).toBe(api.end_date.slice(0, 10));
    expect(single(item, 'start')).toMatch(DATE);
  } else {
    expectInstant(single(item, 'start'), api.start_date, api.utc_start_date);
    expectInstant(single(item, 'end'), api.end_date, api.utc_end_date);
  }
  const excerpt = api.excerpt as string;
  expect(item.properties.summary).toEqual(excerpt === '' ? undefined : [textOf(excerpt)]);
  if (Array.isArray(api.venue)) {
    expect(item.properties.location).toBeUndefined();
  } else {
    const card = single(item, 'location') as Item;
    expect(card.type).toEqual(['h-card']);
    const adr = adrOf(api.venue);
    expect(card.properties).toEqual({
      name: [textOf(api.venue.venue as string)],
      ...(page ? { url: [api.venue.url] } : {}),
      ...(Object.keys(adr).length > 0 ? { adr: [expect.objectContaining({ type: ['h-adr'], properties: adr })] } : {}),
    });
  }
  const terms = [...api.categories, ...api.tags].map((term) => textOf(term.name)).sort();
  expect([...((item.properties.category as string[] | undefined) ?? [])].sort()).toEqual(terms);
  if (page) {
    const description = api.description as string;
    expect(item.properties.content).toEqual(description === '' ? undefined : [propertyOf(description, 'e')]);
  } else {
    expect(item.properties.content).toBeUndefined();
  }
}

describe('pages: microformats (h-event)', () => {
  let t: TestApp;
  let admin: Caller;
  // October next year: Paris leaves summer time on its last Sunday (03:00 CEST → 02:00 CET).
  const year = DateTime.now().year + 1;
  const lastSunday = DateTime.fromObject({ year, month: 10, day: 31 }, { zone: SITE_ZONE }).minus({
    days: DateTime.fromObject({ year, month: 10, day: 31 }).weekday % 7,
  });
  const october = (day: number) => `${year}-10-${String(day).padStart(2, '0')}`;
  const on = (day: number, time: string) => `${october(day)} ${time}`;
  let hall: LinkedItemBody;
  let harbour: LinkedItemBody;
  let friends: LinkedItemBody;
  let family: TermBody;
  let jazz: TermBody;
  let live: TermBody;
  /** Timed, in Kolkata (+05:30), at a venue with a whole address, two categories and two tags, an excerpt. */
  let sitar: EventBody;
  /** All day, three days, at a venue with part of an address. */
  let harvest: EventBody;
  /** Timed in the site zone, across the end of summer time (+02:00 to +01:00), no venue. */
  let nightTrain: EventBody;
  /** Timed, in New York (-04:00), at the other venue. */
  let boston: EventBody;
  /** A description full of microformats' class names, in November. */
  let tricky: EventBody;
  /** Which API events each page lists (anonymous reads), by url. */
  let byUrl: Map<string, EventBody>;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_TIMEZONE: SITE_ZONE });
    ({ admin } = await makeUsers(t));
    const auth = admin.authorization;
    const music = await createCategory(t, auth, { name: 'Music' });
    jazz = await createCategory(t, auth, { name: 'Jazz', parent: music.id });
    const crafts = await createCategory(t, auth, { name: 'Arts & Crafts' });
    family = await createCategory(t, auth, {
      name: 'Family',
      description: '<p class="vevent h-event">Not an event: <span class="summary p-name">old style</span></p>',
    });
    live = await createTag(t, auth, { name: 'Live' });
    const free = await createTag(t, auth, { name: 'Free entry' });
    const outdoor = await createTag(t, auth, { name: 'Outdoor' });
    hall = await createVenue(t, auth, {
      venue: 'Salle des Fêtes du Canal',
      address: '12 Quai de Valmy',
      city: 'Paris',
      province: 'Île-de-France',
      zip: '75010',
      country: 'France',
    });
    harbour = await createVenue(t, auth, {
      venue: 'Harbour Hall',
      city: 'Boston',
      state: 'MA',
      country: 'United States',
      description: '<div class="h-event"><span class="p-name">Not an event</span></div>',
    });
    friends = await createOrganizer(t, auth, { organizer: 'Les Amis', description: '<p class="h-event vevent">Nor this</p>' });
    sitar = await createEvent(t, auth, {
      title: 'Sitar &amp; Tabla at Dusk',
      status: 'publish',
      start_date: on(9, '19:00:00'),
      end_date: on(9, '21:30:00'),
      timezone: 'Asia/Kolkata',
      excerpt: 'An evening raga & tabla.',
      description: '<p>Raga <em>and</em> tabla, with <a href="https://example.org/">the trio</a>.</p><ul><li>Doors 18:30</li></ul>',
      venue: hall.id,
      organizer: [friends.id],
      categories: [jazz.id, crafts.id],
      tags: [live.id, free.id],
    });
    harvest = await createEvent(t, auth, {
      title: 'Harvest Festival',
      status: 'publish',
      start_date: on(8, '00:00:00'),
      end_date: on(10, '23:59:59'),
      all_day: true,
      timezone: SITE_ZONE,
      excerpt: 'Three days of food.',
      venue: harbour.id,
      categories: [family.id],
      tags: [outdoor.id],
    });
    nightTrain = await createEvent(t, auth, {
      title: 'Night Train',
      status: 'publish',
      start_date: `${lastSunday.minus({ days: 1 }).toISODate()} 22:00:00`,
      end_date: `${lastSunday.toISODate()} 09:00:00`,
      timezone: SITE_ZONE,
      description: '<p>All aboard.</p>',
      organizer: [friends.id],
      categories: [family.id],
    });
    boston = await createEvent(t, auth, {
      title: 'Call from Boston',
      status: 'publish',
      start_date: on(15, '12:00:00'),
      end_date: on(15, '13:00:00'),
      timezone: 'America/New_York',
      venue: harbour.id,
      tags: [live.id],
    });
    tricky = await createEvent(t, auth, {
      title: 'Tricky Markup',
      status: 'publish',
      start_date: `${year}-11-05 10:00:00`,
      end_date: `${year}-11-05 11:00:00`,
      timezone: SITE_ZONE,
      description:
        '<div class="h-event"><span class="p-name">Fake</span></div><p>Real <span class="p-category">text</span> <span class="dt-end">2000-01-01</span>.</p><div class="vevent"><span class="summary">Old</span></div>',
    });
    // Not on any page: a draft at the same venue, with the same terms.
    await createEvent(t, auth, {
      title: 'Unannounced',
      status: 'draft',
      start_date: on(9, '20:00:00'),
      end_date: on(9, '22:00:00'),
      venue: hall.id,
      organizer: [friends.id],
      categories: [jazz.id],
      tags: [live.id],
    });
    const all = (await getOk(t, `${API}/events?per_page=50&start_date=${year}-10-01`)).events as EventBody[];
    byUrl = new Map(all.map((e) => [e.url, e]));
  });
  afterAll(async () => t?.close());

  /** The page's h-events (nothing else at the top), and the API's events they stand for. */
  async function hEvents(path: string): Promise<{ items: Item[]; urls: string[] }> {
    const res = await http(t).get(path).expect(200);
    const { items } = parse(t, res.text);
    expect(items.map((i) => i.type)).toEqual(items.map(() => ['h-event']));
    return { items, urls: items.map((i) => single(i, 'url') as string) };
  }

  /** The urls of the events the API lists for these parameters, anonymously, in its order. */
  async function apiUrls(query: string): Promise<string[]> {
    return ((await getOk(t, `${API}/events?${query}`)).events as EventBody[]).map((e) => e.url);
  }

  function expectEachSame(items: Item[]): void {
    for (const item of items) {
      const url = single(item, 'url') as string;
      const api = byUrl.get(url);
      expect([url, api !== undefined]).toEqual([url, true]);
      expectSameEvent(item, api!);
    }
  }

  it('the list: the upcoming events in the API order, each one h-event with what the API says of it', async () => {
    const { items, urls } = await hEvents('/events/');
    expect(urls).toEqual(await apiUrls('per_page=10'));
    expect(urls).toEqual([harvest, sitar, boston, nightTrain, tricky].map((e) => e.url));
    expectEachSame(items);
  });

  it('the day: the events covering it (all-day first), as in the API', async () => {
    const date = october(9);
    const { items, urls } = await hEvents(`/events/${date}/`);
    expect([...urls].sort()).toEqual((await apiUrls(`strict_dates=true&starts_before=${date} 23:59:59&ends_after=${date} 00:00:01`)).sort());
    expect(urls).toEqual([harvest.url, sitar.url]);
    expectEachSame(items);
  });

  it('the month: each event once, though a multi-day one shows on every day it covers', async () => {
    const res = await http(t).get(`/events/month/${year}-10/`).expect(200);
    // The all-day festival is in three cells: one of them is its h-event.
    expect(res.text.split('>Harvest Festival<').length - 1).toBe(3);
    const { items, urls } = await hEvents(`/events/month/${year}-10/`);
    expect([...urls].sort()).toEqual((await apiUrls(`start_date=${year}-10-01&end_date=${year}-10-31 23:59:59`)).sort());
    expect([...urls].sort()).toEqual([harvest, sitar, boston, nightTrain].map((e) => e.url).sort());
    expectEachSame(items);
  });

  it('the embeds: the same h-events as the list and the month pages they mirror', async () => {
    const list = await hEvents('/events/embed/');
    expect(list.urls).toEqual(await apiUrls('per_page=10'));
    expectEachSame(list.items);
    const month = await hEvents(`/events/embed/month/${year}-10/`);
    expect([...month.urls].sort()).toEqual([harvest, sitar, boston, nightTrain].map((e) => e.url).sort());
    expectEachSame(month.items);
  });

  it("a venue's, an organizer's, a category's and a tag's pages: their events as the API filters them, and no h-event from their descriptions", async () => {
    const pages: [string, string][] = [
      [new URL(harbour.url as string).pathname, `venue=${harbour.id}`],
      [new URL(hall.url as string).pathname, `venue=${hall.id}`],
      [new URL(friends.url as string).pathname, `organizer=${friends.id}`],
      [new URL(family.url).pathname, `categories=${family.id}`],
      [new URL(jazz.url).pathname, `categories=${jazz.id}`],
      [new URL(live.url).pathname, `tags=${live.id}`],
    ];
    for (const [path, query] of pages) {
      const { items, urls } = await hEvents(path);
      expect([path, urls]).toEqual([path, await apiUrls(`${query}&per_page=10`)]);
      expect(urls.length).toBeGreaterThan(0);
      expectEachSame(items);
    }
    expect((await hEvents(new URL(harbour.url as string).pathname)).urls).toEqual([harvest.url, boston.url]);
    expect((await hEvents(new URL(family.url).pathname)).urls).toEqual([harvest.url, nightTrain.url]);
  });

  it("the event page: one h-event, as the API's single read, with its content", async () => {
    for (const event of [sitar, harvest, nightTrain, boston]) {
      const api = (await getOk(t, `${API}/events/${event.id}`)) as EventBody;
      const { items } = await hEvents(new URL(event.url).pathname);
      expect([event.title, items.length]).toEqual([event.title, 1]);
      expectSameEvent(items[0], api, true);
    }
  });

  it('writes the instants and dates pages.md shows: offsets of the event zone, all-day as dates', async () => {
    const start = (html: string) => /<time class="dt-start" datetime="([^"]+)">/.exec(html)![1];
    const end = (html: string) => /<time class="dt-end" datetime="([^"]+)">/.exec(html)![1];
    const page = async (e: EventBody) => (await http(t).get(new URL(e.url).pathname).expect(200)).text;
    const sitarPage = await page(sitar);
    expect([start(sitarPage), end(sitarPage)]).toEqual([`${october(9)}T19:00:00+05:30`, `${october(9)}T21:30:00+05:30`]);
    const night = await page(nightTrain);
    expect([start(night), end(night)]).toEqual([`${lastSunday.minus({ days: 1 }).toISODate()}T22:00:00+02:00`, `${lastSunday.toISODate()}T09:00:00+01:00`]);
    const festival = await page(harvest);
    expect([start(festival), end(festival)]).toEqual([`${year}-10-08`, `${year}-10-10`]);
  });

  it("stored HTML adds no h-event and no property to the event's own", async () => {
    const api = (await getOk(t, `${API}/events/${tricky.id}`)) as EventBody;
    const { items } = await hEvents(new URL(tricky.url).pathname);
    expect(items).toHaveLength(1);
    expect(items[0].children).toBeUndefined();
    expect(items[0].properties.category).toBeUndefined();
    expect(items[0].properties.end).toEqual([`${year}-11-05T11:00:00+01:00`]);
    expect(single(items[0], 'name')).toBe('Tricky Markup');
    // The text is all there, without the class names.
    const content = single(items[0], 'content') as { value: string; html: string };
    expect(content.value).toBe((propertyOf(api.description as string, 'e') as { value: string }).value);
    expect(content.html).not.toMatch(/class="[^"]*\b(?:h-|p-|dt-|vevent)/);
  });

  it('the comparison fails on a wrong offset, a shifted instant, a missing category or a wrong end date', async () => {
    const api = (await getOk(t, `${API}/events/${sitar.id}`)) as EventBody;
    const [item] = (await hEvents(new URL(sitar.url).pathname)).items;
    expectSameEvent(item, api, true);
    const changed = (name: string, values: Property[]): Item => ({ ...item, properties: { ...item.properties, [name]: values } });
    const date = october(9);
    // The same wall time at another offset (another instant), and the same instant at another offset.
    expect(() => expectSameEvent(changed('start', [`${date}T19:00:00+01:00`]), api, true)).toThrow();
    expect(() => expectSameEvent(changed('start', [`${date}T14:30:00+01:00`]), api, true)).toThrow();
    expect(() => expectSameEvent(changed('start', [`${date}T13:30:00Z`]), api, true)).toThrow();
    expect(() => expectSameEvent(changed('category', ['Jazz', 'Live', 'Free entry']), api, true)).toThrow();
    const festival = (await getOk(t, `${API}/events/${harvest.id}`)) as EventBody;
    const [day] = (await hEvents(new URL(harvest.url).pathname)).items;
    expectSameEvent(day, festival, true);
    // iCalendar's exclusive end is not what a page says.
    expect(() => expectSameEvent({ ...day, properties: { ...day.properties, end: [`${year}-10-11`] } }, festival, true)).toThrow();
  });
});
