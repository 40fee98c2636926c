// Event representation and single reads (spec resources.md §1, §4, §6, §7; endpoints.md §4.2).
import { DateTime } from 'luxon';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, JSON_TYPE, rootOf } from '../../support/http';
import { Caller, createEvent, createOrganizer, createTerm, createVenue, getOk, makeUsers, readEvent, trashEvent, uid } from '../../support/api';
import { DATE_TIME, details, expectEventKeys, EXTENSION_EVENT_DEFAULTS, ImageHost, knownKeysOf, sql, startImageHost } from '../../support/events';
import { expectError, expectInvalidParams, expectStatus, idsOf } from '../../support/expect';

describe('events: representation and single reads', () => {
  let t: TestApp;
  let root: string;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  let admin: Caller;
  let images: ImageHost;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_ALLOW_PRIVATE_URLS: 'on' }); // the image host of these tests runs on 127.0.0.1
    root = rootOf(t);
    users = await makeUsers(t);
    admin = users.admin;
    images = await startImageHost();
  });
  afterAll(async () => {
    await images?.close();
    await t?.close();
  });

  describe('representation (resources.md §1)', () => {
    it('a minimal event has every key in order and the documented defaults', async () => {
      const tok = uid();
      const before = sql(DateTime.utc().startOf('second'));
      const res = await http(t, admin.authorization)
        .post(`${API}/events`)
        .send({ title: `  Minimal ${tok}  `, start_date: '2030-01-05 07:08:09', end_date: '2030-01-05 10:11:12' });
      const after = sql(DateTime.utc().plus({ seconds: 1 }).startOf('second'));

      expectStatus(res, 201);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      const ev = res.body;
      expectEventKeys(ev);
      expect(knownKeysOf(ev)).toStrictEqual({
        id: expect.any(Number),
        global_id: `127.0.0.1?id=${ev.id}`,
        global_id_lineage: [`127.0.0.1?id=${ev.id}`],
        author: String(admin.id),
        status: 'publish',
        date: expect.stringMatching(DATE_TIME),
        date_utc: expect.stringMatching(DATE_TIME),
        modified: expect.stringMatching(DATE_TIME),
        modified_utc: expect.stringMatching(DATE_TIME),
        url: `${t.baseUrl}/event/minimal-${tok}/`,
        rest_url: `${root}/events/${ev.id}`,
        title: `Minimal ${tok}`,
        description: '',
        excerpt: '',
        slug: `minimal-${tok}`,
        image: false,
        all_day: false,
        start_date: '2030-01-05 07:08:09',
        start_date_details: { year: '2030', month: '01', day: '05', hour: '07', minutes: '08', seconds: '09' },
        end_date: '2030-01-05 10:11:12',
        end_date_details: { year: '2030', month: '01', day: '05', hour: '10', minutes: '11', seconds: '12' },
        utc_start_date: '2030-01-05 07:08:09',
        utc_start_date_details: { year: '2030', month: '01', day: '05', hour: '07', minutes: '08', seconds: '09' },
        utc_end_date: '2030-01-05 10:11:12',
        utc_end_date_details: { year: '2030', month: '01', day: '05', hour: '10', minutes: '11', seconds: '12' },
        timezone: 'UTC',
        timezone_abbr: 'UTC',
        cost: '',
        cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
        website: `${t.baseUrl}/event/minimal-${tok}/`,
        show_map: false,
        show_map_link: false,
        hide_from_listings: false,
        sticky: false,
        featured: false,
        categories: [],
        tags: [],
        venue: [],
        organizer: [],
        custom_fields: [],
        ...EXTENSION_EVENT_DEFAULTS,
      });
      // no explicit date: published now; site zone UTC, so date = date_utc
      expect(ev.date_utc >= before && ev.date_utc <= after).toBe(true);
      expect(ev.date).toBe(ev.date_utc);
      expect(ev.modified).toBe(ev.modified_utc);
      expect(typeof ev.author).toBe('string');
    });

    it('a single read has the same keys with json_ld last and the same values', async () => {
      const created = await createEvent(t, admin.authorization);

      const res = await http(t).get(`${API}/events/${created.id}`);

      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expectEventKeys(res.body, { single: true });
      const { json_ld: jsonLd, ...rest } = res.body;
      expect(rest).toStrictEqual(created);
      expect(jsonLd).toEqual(expect.objectContaining({ '@type': 'Event' }));
    });

    it('by slug answers the same event as by id', async () => {
      const created = await createEvent(t, admin.authorization);

      const bySlug = await http(t).get(`${API}/events/by-slug/${created.slug}`);
      const byId = await http(t).get(`${API}/events/${created.id}`);

      expectStatus(bySlug, 200);
      expectEventKeys(bySlug.body, { single: true });
      expect(bySlug.body).toStrictEqual(byId.body);
      expect(bySlug.body.id).toBe(created.id);
    });

    it('percent-decodes the slug path segment (README §1)', async () => {
      const created = await createEvent(t, admin.authorization);

      const res = await http(t).get(`${API}/events/by-slug/${created.slug.replace(/-/g, '%2D')}`);

      expectStatus(res, 200);
      expect(res.body.id).toBe(created.id);
    });

    it('embeds a venue the caller may not read, without its JSON-LD', async () => {
      const venue = await createVenue(t, users.editor.authorization, { venue: `Draft venue ${uid()}`, status: 'draft' });
      const created = await createEvent(t, admin.authorization, { venue: venue.id });

      const anonymous = await readEvent(t, created.id);
      const byEditor = await readEvent(t, created.id, users.editor.authorization);

      expect(anonymous.venue).toMatchObject({ id: venue.id, status: 'draft' });
      expect(anonymous.venue).not.toHaveProperty('json_ld');
      expect(byEditor.venue).toHaveProperty('json_ld');
    });

    it('the trailing slash and an ignored password parameter change nothing', async () => {
      const created = await createEvent(t, admin.authorization);

      const res = await http(t).get(`${API}/events/${created.id}/?password=secret`);

      expectStatus(res, 200);
      expect(res.body.id).toBe(created.id);
    });

    it('wraps description and excerpt in paragraphs (README §8)', async () => {
      const ev = await createEvent(t, admin.authorization, {
        description: 'Line 1\nLine 2\n\nPara 2',
        excerpt: 'Short excerpt',
      });

      expect(ev.description).toBe('<p>Line 1<br />\nLine 2</p>\n<p>Para 2</p>');
      expect(ev.excerpt).toBe('<p>Short excerpt</p>');
      const read = await readEvent(t, ev.id);
      expect(read.description).toBe('<p>Line 1<br />\nLine 2</p>\n<p>Para 2</p>');
    });

    it('does not wrap a paragraph that already starts with a block-level tag', async () => {
      const ev = await createEvent(t, admin.authorization, { description: '<ul><li>One</li></ul>\n\nAfter' });

      expect(ev.description).toBe('<ul><li>One</li></ul>\n<p>After</p>');
    });

    it('zero-pads every member of the *_details objects', async () => {
      const ev = await createEvent(t, admin.authorization, { start_date: '2031-02-03 04:05:06', end_date: '2031-02-03 04:05:07' });

      expect(ev.start_date_details).toStrictEqual({ year: '2031', month: '02', day: '03', hour: '04', minutes: '05', seconds: '06' });
      expect(ev.end_date_details).toStrictEqual(details('2031-02-03 04:05:07'));
      expect(ev.utc_end_date_details).toStrictEqual(details('2031-02-03 04:05:07'));
    });

    it('sets the flags that are given', async () => {
      const ev = await createEvent(t, admin.authorization, {
        show_map: true,
        show_map_link: true,
        hide_from_listings: true,
        sticky: true,
        featured: true,
        all_day: true,
      });

      expect(ev).toMatchObject({ show_map: true, show_map_link: true, hide_from_listings: true, sticky: true, featured: true, all_day: true });
    });

    it('returns the event website when one is set, otherwise the public url', async () => {
      const withSite = await createEvent(t, admin.authorization, { website: 'https://jazz.example.org/a?b=1&c=2' });
      const without = await createEvent(t, admin.authorization, { website: '' });

      expect(withSite.website).toBe('https://jazz.example.org/a?b=1&c=2');
      expect(without.website).toBe(without.url);
      expect(without.url).toBe(`${t.baseUrl}/event/${without.slug}/`);
    });

    it.each([
      ['20$', '20$', ['20'], '$', 'postfix'],
      ['$15', '$15', ['15'], '$', 'prefix'],
      [['0$', '20$', '30$'], 'Free – 30$', ['0', '20', '30'], '$', 'postfix'],
      ['0', 'Free', ['0'], '', ''],
      ['Donation', 'Donation', ['Donation'], '', ''],
      ['€10,50', '€10,50', ['10.50'], '€', 'prefix'],
    ])('formats cost %j as %j (resources.md §6)', async (input, cost, values, symbol, position) => {
      const ev = await createEvent(t, admin.authorization, { cost: input });

      expect(ev.cost).toBe(cost);
      expect(ev.cost_details).toStrictEqual({ currency_symbol: symbol, currency_code: '', currency_position: position, values });
    });

    it('embeds categories and tags as Term objects ordered by name, case-insensitively', async () => {
      const tok = uid();
      const b = await createTerm(t, admin.authorization, 'categories', { name: `b-cat ${tok}` });
      const a = await createTerm(t, admin.authorization, 'categories', { name: `A-cat ${tok}` });
      const c = await createTerm(t, admin.authorization, 'categories', { name: `C-cat ${tok}` });
      const tagZ = await createTerm(t, admin.authorization, 'tags', { name: `zulu ${tok}` });
      const tagA = await createTerm(t, admin.authorization, 'tags', { name: `Alpha ${tok}` });

      const ev = await createEvent(t, admin.authorization, { categories: [c.id, b.id, a.id], tags: [tagZ.id, tagA.id] });

      expect(idsOf(ev.categories)).toEqual([a.id, b.id, c.id]);
      expect(idsOf(ev.tags)).toEqual([tagA.id, tagZ.id]);
      // the embedded term is the full term representation (resources.md §4)
      expect(ev.categories[0]).toStrictEqual(await getOk(t, `${API}/categories/${a.id}`));
      expect(ev.tags[1]).toStrictEqual(await getOk(t, `${API}/tags/${tagZ.id}`));
      expect(ev.categories[0]).toMatchObject({ taxonomy: 'category', count: 1 });
    });

    it('embeds the venue (without rest_url or json_ld) and the organizers in link order', async () => {
      const tok = uid();
      const venue = await createVenue(t, admin.authorization, { venue: `River Stage ${tok}`, address: '1 Quay Street', city: 'Hudson' });
      const first = await createOrganizer(t, admin.authorization, { organizer: `First ${tok}` });
      const second = await createOrganizer(t, admin.authorization, { organizer: `Second ${tok}` });

      const ev = await createEvent(t, admin.authorization, { venue: venue.id, organizer: [second.id, first.id] });

      expect(Array.isArray(ev.venue)).toBe(false);
      expect(ev.venue).toStrictEqual(venue);
      expect(ev.venue).not.toHaveProperty('rest_url');
      expect(ev.venue).not.toHaveProperty('json_ld');
      expect(idsOf(ev.organizer)).toEqual([second.id, first.id]);
      expect(ev.organizer[0]).toStrictEqual(second);
      expect(ev.organizer[0]).not.toHaveProperty('json_ld');
    });

    it('has an image object for a featured image', async () => {
      const url = `${images.base}/read-${uid()}.jpg`;
      const ev = await createEvent(t, admin.authorization, { image: url });

      expect(ev.image).toStrictEqual({ url, id: expect.any(Number), extension: 'jpg' });
    });
  });

  describe('time zone abbreviations (README §7)', () => {
    it.each([
      ['America/New_York', '2030-01-15 10:00:00', 'EST'],
      ['America/New_York', '2030-07-15 10:00:00', 'EDT'],
      ['Europe/Berlin', '2030-01-15 10:00:00', 'CET'],
      ['Europe/Berlin', '2030-07-15 10:00:00', 'CEST'],
      ['Europe/London', '2030-01-15 10:00:00', 'GMT'],
      ['Australia/Sydney', '2030-07-15 10:00:00', 'AEST'],
      ['Asia/Dubai', '2030-07-15 10:00:00', '+04'],
      ['UTC', '2030-07-15 10:00:00', 'UTC'],
      ['UTC+2', '2030-07-15 10:00:00', 'UTC+2'],
      ['UTC-3:30', '2030-07-15 10:00:00', 'UTC-3:30'],
    ])('%s at %s is %s', async (timezone, start, abbr) => {
      const ev = await createEvent(t, admin.authorization, { timezone, start_date: start, end_date: start });

      expect(ev.timezone).toBe(timezone);
      expect(ev.timezone_abbr).toBe(abbr);
    });
  });

  describe('GET /events/{id} errors (endpoints.md §4.2)', () => {
    it('an unknown id and id 0 are 404 rest-event-not-found', async () => {
      for (const id of ['999999', '0']) {
        const res = await http(t, admin.authorization).get(`${API}/events/${id}`);
        expectError(res, 404, 'rest-event-not-found');
        expect(res.headers['content-type']).toBe(JSON_TYPE);
      }
    });

    it('a non-digit id is 404 rest_no_route', async () => {
      expectError(await http(t).get(`${API}/events/abc`), 404, 'rest_no_route');
    });

    it('the id of a venue, an organizer or a media item is 400 rest-invalid-event-id', async () => {
      const venue = await createVenue(t, admin.authorization, { venue: `Not an event ${uid()}` });
      const organizer = await createOrganizer(t, admin.authorization, { organizer: `Not an event ${uid()}` });
      const withImage = await createEvent(t, admin.authorization, { image: `${images.base}/media-${uid()}.jpg` });
      const mediaId = (withImage.image as { id: number }).id;

      for (const id of [venue.id, organizer.id, mediaId]) {
        expectError(await http(t).get(`${API}/events/${id}`), 400, 'rest-invalid-event-id');
      }
    });

    it('an unknown slug is 400 rest_invalid_param (param slug)', async () => {
      const res = await http(t).get(`${API}/events/by-slug/no-such-event-${uid()}`);
      expectInvalidParams(res, 'slug');
    });

    it('a draft is 403 event-not-accessible for anonymous callers and other authors, readable by its author and editors', async () => {
      const draft = await createEvent(t, users.author.authorization, { status: 'draft' });

      expectError(await http(t).get(`${API}/events/${draft.id}`), 403, 'event-not-accessible');
      expectError(await http(t).get(`${API}/events/by-slug/${draft.slug}`), 403, 'event-not-accessible');
      expectError(await http(t, users.author2.authorization).get(`${API}/events/${draft.id}`), 403, 'event-not-accessible');
      expectError(await http(t, users.subscriber.authorization).get(`${API}/events/${draft.id}`), 403, 'event-not-accessible');
      expectStatus(await http(t, users.author.authorization).get(`${API}/events/${draft.id}`), 200);
      expectStatus(await http(t, users.editor.authorization).get(`${API}/events/${draft.id}`), 200);
    });

    it('pending, future and private events are not public', async () => {
      for (const body of [{ status: 'pending' }, { status: 'private' }, { status: 'future', date: '2040-01-01 00:00:00' }]) {
        const ev = await createEvent(t, users.editor.authorization, body);
        expect(ev.status).toBe(body.status);
        expectError(await http(t).get(`${API}/events/${ev.id}`), 403, 'event-not-accessible');
        expectError(await http(t, users.author.authorization).get(`${API}/events/${ev.id}`), 403, 'event-not-accessible');
        expectStatus(await http(t, admin.authorization).get(`${API}/events/${ev.id}`), 200);
      }
    });

    it('a trashed event is 403 event-no-longer-available, administrators included', async () => {
      const ev = await createEvent(t, admin.authorization);
      const trashed = await trashEvent(t, admin.authorization, ev.id);

      expectError(await http(t).get(`${API}/events/${ev.id}`), 403, 'event-no-longer-available');
      expectError(await http(t, admin.authorization).get(`${API}/events/${ev.id}`), 403, 'event-no-longer-available');
      expectError(await http(t, admin.authorization).get(`${API}/events/by-slug/${trashed.slug}`), 403, 'event-no-longer-available');
    });
  });

  describe('json_ld (resources.md §7)', () => {
    it('describes a full event: offset dates, location, first organizer, offers and performer', async () => {
      const tok = uid();
      const venue = await createVenue(t, admin.authorization, {
        venue: `Jazz Stage ${tok}`,
        address: '1 Quay Street',
        city: 'Hudson',
        state: 'NY',
        zip: '12534',
        country: 'United States',
      });
      const first = await createOrganizer(t, admin.authorization, { organizer: `Hudson Arts ${tok}`, email: 'info@hudsonarts.example' });
      const second = await createOrganizer(t, admin.authorization, { organizer: `Other Arts ${tok}` });
      const imageUrl = `${images.base}/jsonld-${tok}.jpg`;
      const created = await createEvent(t, admin.authorization, {
        title: `Spring Jazz ${tok}`,
        excerpt: 'Jazz by <b>the</b> river',
        description: 'Live jazz by the river.',
        date: '2024-02-01 10:00:00',
        start_date: '2030-07-15 19:30:00',
        end_date: '2030-07-15 22:00:00',
        timezone: 'America/New_York',
        cost: '$15',
        image: imageUrl,
        venue: venue.id,
        organizer: [first.id, second.id],
      });
      const venueRead = await getOk(t, `${API}/venues/${venue.id}`);
      const organizerRead = await getOk(t, `${API}/organizers/${first.id}`);

      const ev = await readEvent(t, created.id);

      expect(ev.json_ld).toStrictEqual({
        '@context': 'http://schema.org',
        '@type': 'Event',
        name: `Spring Jazz ${tok}`,
        description: 'Jazz by the river',
        image: imageUrl,
        url: created.url,
        startDate: '2030-07-15T19:30:00-04:00',
        endDate: '2030-07-15T22:00:00-04:00',
        location: venueRead.json_ld,
        organizer: organizerRead.json_ld,
        offers: {
          '@type': 'Offer',
          price: '15',
          priceCurrency: 'USD',
          url: created.url,
          category: 'primary',
          availability: 'inStock',
          validFrom: '2024-02-01T00:00:00+00:00',
        },
        performer: 'Organization',
      });
      expect(venueRead.json_ld).toMatchObject({ '@type': 'Place', name: `Jazz Stage ${tok}` });
      expect(organizerRead.json_ld).toMatchObject({ '@type': 'Person', name: `Hudson Arts ${tok}`, email: 'info@hudsonarts.example' });
      // inside a single-event response the embedded venue and organizers carry their JSON-LD
      expect((ev.venue as Record<string, unknown>).json_ld).toStrictEqual(venueRead.json_ld);
      expect(ev.organizer[0].json_ld).toStrictEqual(organizerRead.json_ld);
    });

    it('leaves out image, location, organizer and offers when the event has none', async () => {
      const created = await createEvent(t, admin.authorization, {
        start_date: '2030-01-15 09:00:00',
        end_date: '2030-01-15 10:00:00',
        timezone: 'UTC+2',
      });

      const ev = await readEvent(t, created.id);

      expect(ev.json_ld).toStrictEqual({
        '@context': 'http://schema.org',
        '@type': 'Event',
        name: created.title,
        description: '',
        url: created.url,
        startDate: '2030-01-15T09:00:00+02:00',
        endDate: '2030-01-15T10:00:00+02:00',
        performer: 'Organization',
      });
    });

    it('a free cost gives price "0"', async () => {
      const created = await createEvent(t, admin.authorization, { cost: '0' });

      const ev = await readEvent(t, created.id);

      expect((ev.json_ld as { offers: Record<string, unknown> }).offers).toMatchObject({ '@type': 'Offer', price: '0' });
    });

    it('without an excerpt, describes the event by the first 55 words of the description, tags removed', async () => {
      const words = Array.from({ length: 60 }, (_, i) => `word${String(i + 1).padStart(2, '0')}`);
      const created = await createEvent(t, admin.authorization, { description: `<strong>${words[0]}</strong> ${words.slice(1).join(' ')}` });

      const ev = await readEvent(t, created.id);
      const description = String((ev.json_ld as { description: string }).description);

      expect(description.startsWith(words.slice(0, 55).join(' '))).toBe(true);
      expect(description).not.toContain('<');
      expect(description).not.toContain('word56');
    });

    it('is not present in list, create, update or delete responses', async () => {
      const tok = uid();
      const venue = await createVenue(t, admin.authorization, { venue: `No LD ${tok}` });
      const created = await createEvent(t, admin.authorization, { title: `No LD ${tok}`, venue: venue.id });
      expectEventKeys(created);

      const listed = await http(t).get(`${API}/events?search=${tok}&start_date=2030-01-01&end_date=2030-12-31`);
      expectStatus(listed, 200);
      expect(listed.body.events).toHaveLength(1);
      expectEventKeys(listed.body.events[0]);
      expect(listed.body.events[0].venue).not.toHaveProperty('json_ld');

      const updated = await http(t, admin.authorization)
        .put(`${API}/events/${created.id}`)
        .send({ title: `Still no LD ${tok}` });
      expectStatus(updated, 200);
      expectEventKeys(updated.body);

      const deleted = await http(t, admin.authorization).delete(`${API}/events/${created.id}`);
      expectStatus(deleted, 200);
      expectEventKeys(deleted.body);
    });
  });
});
