// WordPress's global `_fields` parameter on the API's GETs (compat.md, "TEC's public URLs"):
// each item of a list, or the single item, keeps only the keys named (`a.b` within a key); the
// list's envelope stays whole; unknown names are ignored; errors and writes are never narrowed;
// and answers with other `_fields` never share a cached body or an ETag.
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, NAMESPACE } from '../../support/http';
import { createCategory, createEvent, createOrganizer, createTag, createVenue, EventBody, makeUsers } from '../../support/api';
import { expectError } from '../../support/expect';

type Json = Record<string, unknown>;

describe('_fields', () => {
  let t: TestApp;
  let auth: string;
  let linked: EventBody;
  let bare: EventBody;
  const year = new Date().getUTCFullYear() + 1;

  beforeAll(async () => {
    t = await createTestApp();
    auth = (await makeUsers(t)).admin.authorization;
    const venue = await createVenue(t, auth, { venue: 'Fields Hall', city: 'Rome' });
    const host = await createOrganizer(t, auth, { organizer: 'Fields Host', email: 'host@example.org' });
    const music = await createCategory(t, auth, { name: 'Fields Music' });
    const tag = await createTag(t, auth, { name: 'Fields Tag' });
    linked = await createEvent(t, auth, {
      title: 'Fields Concert',
      start_date: `${year}-03-01 19:00:00`,
      end_date: `${year}-03-01 21:00:00`,
      venue: venue.id,
      organizer: [host.id],
      categories: [music.id],
      tags: [tag.id],
    });
    bare = await createEvent(t, auth, { title: 'Fields Lecture', start_date: `${year}-03-02 10:00:00`, end_date: `${year}-03-02 11:00:00` });
  });
  afterAll(() => t?.close());

  const get = async (path: string): Promise<Json> => (await http(t).get(`${API}${path}`).expect(200)).body as Json;

  it('a list: each item keeps the keys named, in its own order; the envelope and the headers stay whole', async () => {
    const whole = await http(t).get(`${API}/events`).expect(200);
    const res = await http(t).get(`${API}/events?_fields=start_date,id,title`).expect(200);
    const body = res.body as Json & { events: Json[] };
    expect(body.events).toEqual([
      { id: linked.id, title: 'Fields Concert', start_date: `${year}-03-01 19:00:00` },
      { id: bare.id, title: 'Fields Lecture', start_date: `${year}-03-02 10:00:00` },
    ]);
    expect(body.events.map((e) => Object.keys(e))).toEqual([
      ['id', 'title', 'start_date'],
      ['id', 'title', 'start_date'],
    ]);
    expect({ ...body, events: undefined }).toEqual({ ...(whole.body as Json), events: undefined });
    expect(Object.keys(body)).toEqual(Object.keys(whole.body as Json));
    expect(res.headers['x-tec-total']).toBe('2');
  });

  it('a single item keeps the keys named, by id and by slug', async () => {
    expect(await get(`/events/${linked.id}?_fields=id,title`)).toEqual({ id: linked.id, title: 'Fields Concert' });
    expect(await get(`/events/by-slug/${linked.slug}?_fields=slug,id`)).toEqual({ id: linked.id, slug: linked.slug });
  });

  it('`a.b` keeps b within a: the venue of venue, each organizer of organizer; an empty venue stays empty', async () => {
    const body = (await get('/events?_fields=id,venue.venue,organizer.organizer')) as { events: Json[] };
    expect(body.events).toEqual([
      { id: linked.id, venue: { venue: 'Fields Hall' }, organizer: [{ organizer: 'Fields Host' }] },
      { id: bare.id, venue: [], organizer: [] },
    ]);
    // A key named whole wins over a key within it.
    const whole = await get(`/events/${linked.id}`);
    expect(await get(`/events/${linked.id}?_fields=venue.city,venue`)).toEqual({ venue: whole.venue });
  });

  it('unknown names are ignored: an item of only unknown names is empty, a venue of only unknown names `[]` (as WordPress)', async () => {
    expect(await get(`/events/${linked.id}?_fields=id,no_such_field,venue.nope`)).toEqual({ id: linked.id, venue: [] });
    expect(((await get('/events?_fields=nope')) as { events: Json[] }).events).toEqual([{}, {}]);
  });

  it('an empty _fields, or none, is the whole answer; the array form names fields too', async () => {
    const whole = await get(`/events/${linked.id}`);
    expect(await get(`/events/${linked.id}?_fields=`)).toEqual(whole);
    expect(await get(`/events/${linked.id}?_fields[]=id&_fields[]=title`)).toEqual({ id: linked.id, title: 'Fields Concert' });
  });

  it('venues, organizers, categories and tags: their lists and items', async () => {
    const venues = (await get('/venues?_fields=venue,city')) as Json & { venues: Json[] };
    expect(venues.venues).toEqual([{ venue: 'Fields Hall', city: 'Rome' }]);
    expect(venues.total).toBe(1);
    expect(await get(`/venues/${(linked.venue as Json).id as number}?_fields=id,venue`)).toEqual({ id: (linked.venue as Json).id, venue: 'Fields Hall' });
    expect(((await get('/organizers?_fields=organizer')) as { organizers: Json[] }).organizers).toEqual([{ organizer: 'Fields Host' }]);
    const categories = (await get('/categories?_fields=name,slug')) as Json & { categories: Json[] };
    expect(categories.categories).toEqual([{ name: 'Fields Music', slug: 'fields-music' }]);
    expect(categories.rest_url).toEqual(expect.any(String));
    expect(((await get('/tags?_fields=name')) as { tags: Json[] }).tags).toEqual([{ name: 'Fields Tag' }]);
    const termId = (linked.categories[0] as { id: number }).id;
    expect(await get(`/categories/${termId}?_fields=id,name`)).toEqual({ id: termId, name: 'Fields Music' });
  });

  it('the change feed: each change keeps the keys named', async () => {
    const body = (await get('/changes?_fields=type,id&types=venue')) as Json & { changes: Json[] };
    expect(body.changes).toEqual([{ type: 'venue', id: (linked.venue as Json).id }]);
    expect(body).toHaveProperty('next_sync_token');
  });

  it('the namespace index and the OpenAPI document are single documents to it', async () => {
    expect(await get('?_fields=namespace')).toEqual({ namespace: NAMESPACE });
    expect(Object.keys(await get('/doc?_fields=openapi,info.title'))).toEqual(['openapi', 'info']);
  });

  it('answers at the WordPress paths too', async () => {
    const wp = (await http(t).get(`/wp-json/tribe/events/v1/events/${linked.id}?_fields=id,title`).expect(200)).body as Json;
    expect(wp).toEqual({ id: linked.id, title: 'Fields Concert' });
    const plain = (await http(t).get(`/?rest_route=/tribe/events/v1/events/${linked.id}&_fields=id`).expect(200)).body as Json;
    expect(plain).toEqual({ id: linked.id });
  });

  it('is a parameter of the API, not a WordPress path: CALENDAR_WP_COMPAT=off keeps it', async () => {
    const off = await createTestApp({ CALENDAR_WP_COMPAT: 'off' });
    // Our own path: the WordPress one (TEST_API_BASE may name it) is what the setting removes.
    const ours = '/calendar/events/v1/events';
    try {
      const event = (
        await http(off, (await makeUsers(off)).admin.authorization)
          .post(ours)
          .send({ title: 'Fields Off', start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 12:00:00' })
          .expect(201)
      ).body as EventBody;
      expect((await http(off).get(`${ours}/${event.id}?_fields=id,title`).expect(200)).body).toEqual({ id: event.id, title: 'Fields Off' });
    } finally {
      await off.close();
    }
  });

  it('an error is never narrowed, nor a write', async () => {
    const missing = await http(t).get(`${API}/events/999999?_fields=id`);
    expectError(missing, 404, 'rest-event-not-found');
    expect(Object.keys(missing.body as Json)).toEqual(['code', 'message', 'data']);
    const created = await http(t, auth)
      .post(`${API}/events?_fields=id`)
      .send({ title: 'Fields Written', start_date: '2020-01-01 10:00:00', end_date: '2020-01-01 11:00:00' })
      .expect(201);
    expect(created.body).toHaveProperty('title', 'Fields Written');
    expect(created.body).toHaveProperty('start_date');
  });

  it('answers with other _fields never share a cached body or an ETag; each is conditional on its own', async () => {
    const path = `${API}/events/${linked.id}`;
    // Anonymous reads of these routes come from the response cache, kept per URL and second: asked back to back.
    const [whole, ids, titles, idsAgain] = [
      await http(t).get(path).expect(200),
      await http(t).get(`${path}?_fields=id`).expect(200),
      await http(t).get(`${path}?_fields=title`).expect(200),
      await http(t).get(`${path}?_fields=id`).expect(200),
    ];
    expect(ids.body).toEqual({ id: linked.id });
    expect(titles.body).toEqual({ title: 'Fields Concert' });
    expect(new Set([whole.headers.etag, ids.headers.etag, titles.headers.etag]).size).toBe(3);
    expect(idsAgain.headers.etag).toBe(ids.headers.etag);
    await http(t).get(`${path}?_fields=id`).set('If-None-Match', ids.headers.etag).expect(304);
    expect((await http(t).get(`${path}?_fields=id`).set('If-None-Match', whole.headers.etag).expect(200)).body).toEqual({ id: linked.id });
    expect((await http(t).get(path).set('If-None-Match', ids.headers.etag).expect(200)).body).toEqual(whole.body);
    // The lists likewise.
    const listIds = await http(t).get(`${API}/events?_fields=id`).expect(200);
    const listTitles = await http(t).get(`${API}/events?_fields=title`).expect(200);
    expect((listIds.body as { events: Json[] }).events).toEqual([{ id: linked.id }, { id: bare.id }]);
    expect((listTitles.body as { events: Json[] }).events).toEqual([{ title: 'Fields Concert' }, { title: 'Fields Lecture' }]);
    expect(listIds.headers.etag).not.toBe(listTitles.headers.etag);
  });
});
