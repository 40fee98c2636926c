// GET /events (spec endpoints.md §4.1, resources.md §8, auth.md §4, geo.md §1).
import { DateTime } from 'luxon';
import { createTestApp, EXTENSIONS_OFF, TestApp } from '../../support/test-app';
import { API, http, JSON_TYPE, queryOf, rootOf } from '../../support/http';
import { Caller, createEvent, createOrganizer, createTerm, createVenue, EventBody, makeUsers, readEvent, trashEvent, uid } from '../../support/api';
import { expectEventKeys, listEvents, listIds, sql } from '../../support/events';
import { expectError, expectInvalidParams, expectStatus, idsOf } from '../../support/expect';

/** A query string from pairs; values are percent-encoded, keys (with brackets) are kept as written. */
const q = (params: Record<string, string | number>): string =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');

const ENVELOPE_FIRST = ['events', 'rest_url', 'next_rest_url', 'total', 'total_pages'];
const ENVELOPE_MIDDLE = ['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages'];
const ENVELOPE_LAST = ['events', 'rest_url', 'previous_rest_url', 'total', 'total_pages'];
const ENVELOPE_ONLY = ['events', 'rest_url', 'total', 'total_pages'];

describe('events: list', () => {
  let t: TestApp;
  let root: string;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    root = rootOf(t);
    users = await makeUsers(t);
    admin = users.admin;
  });
  afterAll(async () => t?.close());

  const make = (overrides: Record<string, unknown>, caller: Caller = admin) => createEvent(t, caller.authorization, overrides);
  const ids = (query: string, caller?: Caller) => listIds(t, query, caller?.authorization);
  const list = (query: string, caller?: Caller) => listEvents(t, query, caller?.authorization);
  /** Path and query of an absolute link, to follow it with supertest. */
  const pathOf = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };

  describe('envelope, links and headers (resources.md §8)', () => {
    const tok = uid();
    const window = { start_date: '2030-10-01', end_date: '2030-10-31' };
    let events: EventBody[];
    beforeAll(async () => {
      events = [];
      for (let day = 1; day <= 5; day += 1) {
        events.push(await make({ title: `Paged ${tok}`, start_date: `2030-10-0${day} 10:00:00`, end_date: `2030-10-0${day} 11:00:00` }));
      }
    });
    const page = (extra: Record<string, string | number>) => list(q({ search: tok, ...window, per_page: 2, ...extra }));
    const effective = { search: tok, per_page: '2', start_date: '2030-10-01 00:00:00', end_date: '2030-10-31 23:59:59' };

    it('page 1 has next_rest_url only, the totals and the X-TEC headers', async () => {
      const res = await page({});

      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(ENVELOPE_FIRST);
      expect(idsOf(res.body.events)).toEqual(idsOf(events.slice(0, 2)));
      expectEventKeys(res.body.events[0]);
      expect(res.body.events[0]).toStrictEqual(events[0]);
      expect(res.body.total).toBe(5);
      expect(res.body.total_pages).toBe(3);
      expect(res.headers['x-tec-total']).toBe('5');
      expect(res.headers['x-tec-totalpages']).toBe('3');
      expect(res.body.rest_url.split('?')[0]).toBe(`${root}/events/`);
      expect(queryOf(res.body.rest_url)).toEqual({ ...effective, page: '1' });
      expect(res.body.next_rest_url.split('?')[0]).toBe(`${root}/events/`);
      expect(queryOf(res.body.next_rest_url)).toEqual({ ...effective, page: '2' });
    });

    it('page 2 has both links; previous_rest_url drops page when it points at page 1', async () => {
      const res = await page({ page: 2 });

      expectStatus(res, 200);
      expect(Object.keys(res.body)).toEqual(ENVELOPE_MIDDLE);
      expect(idsOf(res.body.events)).toEqual(idsOf(events.slice(2, 4)));
      expect(queryOf(res.body.rest_url)).toEqual({ ...effective, page: '2' });
      expect(queryOf(res.body.next_rest_url)).toEqual({ ...effective, page: '3' });
      expect(queryOf(res.body.previous_rest_url)).toEqual(effective);
    });

    it('the last page has previous_rest_url only', async () => {
      const res = await page({ page: 3 });

      expectStatus(res, 200);
      expect(Object.keys(res.body)).toEqual(ENVELOPE_LAST);
      expect(idsOf(res.body.events)).toEqual([events[4].id]);
      expect(queryOf(res.body.previous_rest_url)).toEqual({ ...effective, page: '2' });
      expect(res.headers['x-tec-total']).toBe('5');
    });

    it('following next_rest_url continues the same query', async () => {
      const first = await page({});
      const second = await http(t).get(pathOf(first.body.next_rest_url));
      const third = await http(t).get(pathOf(second.body.next_rest_url));
      const back = await http(t).get(pathOf(second.body.previous_rest_url));

      expectStatus(second, 200);
      expect(idsOf(second.body.events)).toEqual(idsOf(events.slice(2, 4)));
      expect(idsOf(third.body.events)).toEqual([events[4].id]);
      expect(idsOf(back.body.events)).toEqual(idsOf(events.slice(0, 2)));
    });

    it('no links when everything fits on one page', async () => {
      const res = await page({ per_page: 5 });

      expectStatus(res, 200);
      expect(Object.keys(res.body)).toEqual(ENVELOPE_ONLY);
      expect(res.body.total_pages).toBe(1);
    });

    it('a page past the end is 404 event-archive-page-not-found', async () => {
      expectError(await page({ page: 4 }), 404, 'event-archive-page-not-found');
      expectError(await page({ page: 99 }), 404, 'event-archive-page-not-found');
    });

    it('an empty first page is 200 with events [] and zero totals', async () => {
      const res = await list(q({ search: uid('none'), ...window }));

      expectStatus(res, 200);
      expect(Object.keys(res.body)).toEqual(ENVELOPE_ONLY);
      expect(res.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });

    it('a trailing slash is the same route', async () => {
      const res = await http(t).get(`${API}/events/?${q({ search: tok, ...window })}`);
      expectStatus(res, 200);
      expect(res.body.total).toBe(5);
    });
  });

  describe('page and per_page (endpoints.md §4.1, README §5)', () => {
    const tok = uid();
    let all: number[];
    beforeAll(async () => {
      all = [];
      for (let i = 0; i < 51; i += 1) {
        const minute = String(i % 60).padStart(2, '0');
        const hour = String(8 + Math.floor(i / 60)).padStart(2, '0');
        all.push((await make({ title: `Many ${tok}`, start_date: `2030-09-15 ${hour}:${minute}:00`, end_date: '2030-09-15 23:00:00' })).id);
      }
    });
    const scope = q({ search: tok, start_date: '2030-09-15', end_date: '2030-09-15' });

    it('defaults to page 1 of 10', async () => {
      const res = await list(scope);

      expectStatus(res, 200);
      expect(idsOf(res.body.events)).toEqual(all.slice(0, 10));
      expect(res.body.total).toBe(51);
      expect(res.body.total_pages).toBe(6);
      expect(queryOf(res.body.rest_url)).toMatchObject({ page: '1', per_page: '10' });
    });

    it('clamps per_page to 50', async () => {
      const res = await list(`${scope}&per_page=100`);

      expectStatus(res, 200);
      expect(res.body.events).toHaveLength(50);
      expect(res.body.total_pages).toBe(2);
      const second = await list(`${scope}&per_page=100&page=2`);
      expect(idsOf(second.body.events)).toEqual([all[50]]);
    });

    it('accepts "3", 3.0', async () => {
      for (const perPage of ['3', '3.0']) {
        const res = await list(`${scope}&per_page=${perPage}&page=2`);
        expectStatus(res, 200);
        expect(idsOf(res.body.events)).toEqual(all.slice(3, 6));
      }
    });

    it('rejects page and per_page that are not whole numbers ≥ 1, reporting both', async () => {
      for (const bad of ['0', '-1', 'foo', '1.5', 'foo%20bar', '']) {
        expectInvalidParams(await list(`${scope}&per_page=${bad}`), 'per_page');
        expectInvalidParams(await list(`${scope}&page=${bad}`), 'page');
      }
      expectInvalidParams(await list(`${scope}&page=0&per_page=0`), 'page', 'per_page');
    });
  });

  describe('default date window (endpoints.md §4.1.1)', () => {
    const tok = uid();
    const now = DateTime.utc();
    const at = (d: DateTime, hour: number) => sql(d.set({ hour, minute: 0, second: 0, millisecond: 0 }));
    const made: Record<string, number> = {};
    beforeAll(async () => {
      const specs: Record<string, [string, string]> = {
        yesterday: [at(now.minus({ days: 1 }), 12), at(now.minus({ days: 1 }), 13)],
        tomorrow: [at(now.plus({ days: 1 }), 10), at(now.plus({ days: 1 }), 11)],
        in23months: [at(now.plus({ months: 23 }), 10), at(now.plus({ months: 23 }), 11)],
        threeDaysAgo: [at(now.minus({ days: 3 }), 12), at(now.minus({ days: 3 }), 13)],
        stillRunning: [at(now.minus({ days: 3 }), 12), at(now.plus({ days: 1 }), 13)],
        in25months: [at(now.plus({ months: 25 }), 10), at(now.plus({ months: 25 }), 11)],
      };
      for (const [name, [start, end]] of Object.entries(specs)) {
        made[name] = (await make({ title: `Window ${name} ${tok}`, start_date: start, end_date: end })).id;
      }
    });

    it('lists events from yesterday 00:00 to now + 24 months', async () => {
      expect(await ids(q({ search: tok }))).toEqual([made.yesterday, made.tomorrow, made.in23months]);
    });

    it('reports the effective window in rest_url', async () => {
      const before = DateTime.utc();
      const res = await list(q({ search: tok }));
      const after = DateTime.utc();

      expectStatus(res, 200);
      const link = queryOf(res.body.rest_url);
      expect([before, after].map((n) => sql(n.minus({ days: 1 }).startOf('day')))).toContain(link.start_date);
      const ends = [before, after].flatMap((n) => [
        sql(n.plus({ months: 24 }).endOf('day')),
        sql(
          n
            .set({ day: 1 })
            .plus({ months: 24 })
            .plus({ days: n.day - 1 })
            .endOf('day'),
        ),
      ]);
      expect(ends).toContain(link.end_date);
      expect(link).toMatchObject({ page: '1', per_page: '10', search: tok });
    });

    it('an explicit start_date reaches past events', async () => {
      expect(await ids(q({ search: tok, start_date: '-5 days' }))).toEqual([
        made.threeDaysAgo,
        made.stillRunning,
        made.yesterday,
        made.tomorrow,
        made.in23months,
      ]);
    });

    it('an explicit end_date reaches further', async () => {
      expect(await ids(q({ search: tok, end_date: '+26 months' }))).toEqual([made.yesterday, made.tomorrow, made.in23months, made.in25months]);
    });
  });

  describe('explicit dates and bounds (§4.1.1, §4.1.2)', () => {
    const tok = uid();
    const e: Record<string, number> = {};
    beforeAll(async () => {
      const specs: Record<string, [string, string]> = {
        A: ['2030-04-10 08:00:00', '2030-04-10 09:00:00'],
        B: ['2030-04-10 20:00:00', '2030-04-10 21:00:00'],
        C: ['2030-04-11 10:00:00', '2030-04-11 11:00:00'],
        E: ['2030-04-11 22:00:00', '2030-04-13 10:00:00'],
        D: ['2030-04-12 10:00:00', '2030-04-12 11:00:00'],
        P: ['2020-01-01 10:00:00', '2020-01-01 11:00:00'],
      };
      for (const [name, [start, end]] of Object.entries(specs)) {
        e[name] = (await make({ title: `Bounds ${name} ${tok}`, start_date: start, end_date: end })).id;
      }
    });
    const names = (found: number[]) => found.map((id) => Object.keys(e).find((name) => e[name] === id));

    it('widens start_date and end_date to whole days', async () => {
      const res = await list(q({ search: tok, start_date: '2030-04-10 12:00', end_date: '2030-04-11 09:00' }));

      expectStatus(res, 200);
      expect(names(idsOf(res.body.events))).toEqual(['A', 'B', 'C']);
      expect(queryOf(res.body.rest_url)).toMatchObject({ start_date: '2030-04-10 00:00:00', end_date: '2030-04-11 23:59:59' });
    });

    it('strict_dates uses the given times exactly', async () => {
      const res = await list(q({ search: tok, start_date: '2030-04-10 12:00', end_date: '2030-04-11 11:00', strict_dates: 'true' }));

      expectStatus(res, 200);
      expect(names(idsOf(res.body.events))).toEqual(['B', 'C']);
      expect(queryOf(res.body.rest_url)).toMatchObject({ start_date: '2030-04-10 12:00:00', end_date: '2030-04-11 11:00:00', strict_dates: 'true' });
    });

    it('accepts ISO instants and Unix timestamps, converted to the site zone', async () => {
      const iso = await list(q({ search: tok, start_date: '2030-04-10T23:30:00-02:00', end_date: '2030-04-12' }));
      expectStatus(iso, 200);
      expect(names(idsOf(iso.body.events))).toEqual(['C', 'D']);
      expect(queryOf(iso.body.rest_url)).toMatchObject({ start_date: '2030-04-11 00:00:00', end_date: '2030-04-12 23:59:59' });

      const ts = DateTime.fromISO('2030-04-12T05:00:00Z').toSeconds();
      expect(names(await ids(q({ search: tok, start_date: ts, end_date: ts })))).toEqual(['D']);
    });

    it('an event must end within the window: one that runs past end_date is left out', async () => {
      expect(names(await ids(q({ search: tok, start_date: '2030-04-11', end_date: '2030-04-12' })))).toEqual(['C', 'D']);
      expect(names(await ids(q({ search: tok, start_date: '2030-04-11', end_date: '2030-04-13' })))).toEqual(['C', 'E', 'D']);
    });

    it('an event that started before start_date is left out', async () => {
      expect(names(await ids(q({ search: tok, start_date: '2030-04-12', end_date: '2030-04-13' })))).toEqual(['D']);
    });

    it.each([
      ['starts_after', '2030-04-10', ['C', 'E', 'D']],
      ['starts_before', '2030-04-11', ['A', 'B', 'C', 'E']],
      ['ends_after', '2030-04-12', ['E']],
      ['ends_before', '2030-04-11', ['A', 'B', 'C']],
    ])('%s %s compares with 23:59:59 of that day', async (param, value, expected) => {
      expect(names(await ids(q({ search: tok, start_date: '2030-01-01', end_date: '2030-12-31', [param]: value })))).toEqual(expected);
    });

    it('strict_dates applies the bounds exactly', async () => {
      const query = q({ search: tok, start_date: '2030-01-01', end_date: '2030-12-31', starts_after: '2030-04-10 12:00:00', strict_dates: '1' });
      expect(names(await ids(query))).toEqual(['B', 'C', 'E', 'D']);
    });

    it('bounds replace the default window, but not an explicit one', async () => {
      // D lies beyond the default end (now + 24 months), P before the default start
      expect(names(await ids(q({ search: tok, starts_after: '2030-04-11', ends_before: '2030-04-12' })))).toEqual(['D']);
      expect(names(await ids(q({ search: tok, starts_before: '2020-06-01' })))).toEqual(['P']);
      expect(names(await ids(q({ search: tok, starts_before: '2030-04-11', start_date: '2030-04-11', end_date: '2030-12-31' })))).toEqual(['C', 'E']);
    });

    it('rejects unparsable or empty dates, reporting all of them', async () => {
      expectInvalidParams(await list(q({ start_date: 'foo', end_date: 'not a strtotime parsable string' })), 'start_date', 'end_date');
      expectInvalidParams(await list('start_date='), 'start_date');
      expectInvalidParams(
        await list(q({ starts_before: 'foo', starts_after: 'bar', ends_before: 'baz', ends_after: 'qux' })),
        'starts_before',
        'starts_after',
        'ends_before',
        'ends_after',
      );
      expectInvalidParams(await list('strict_dates='), 'strict_dates');
    });

    it('accepts relative words and reports the resolved window', async () => {
      const before = DateTime.utc();
      const res = await list(q({ search: tok, start_date: 'tomorrow', end_date: '+1 week' }));
      const after = DateTime.utc();

      expectStatus(res, 200);
      const link = queryOf(res.body.rest_url);
      expect([before, after].map((n) => sql(n.plus({ days: 1 }).startOf('day')))).toContain(link.start_date);
      expect([before, after].map((n) => sql(n.plus({ weeks: 1 }).endOf('day')))).toContain(link.end_date);
    });

    it('compares the event wall-clock times with the window in the site zone', async () => {
      const tokyo = await make({ title: `Tokyo ${tok}`, start_date: '2030-04-20 08:00:00', end_date: '2030-04-20 09:00:00', timezone: 'Asia/Tokyo' });
      expect(tokyo.utc_start_date).toBe('2030-04-19 23:00:00');

      expect(await ids(q({ search: `Tokyo ${tok}`, start_date: '2030-04-20', end_date: '2030-04-20' }))).toEqual([tokyo.id]);
      expect(await ids(q({ search: `Tokyo ${tok}`, start_date: '2030-04-19', end_date: '2030-04-19' }))).toEqual([]);
    });
  });

  describe('search (§4.1.3)', () => {
    const tok = uid();
    const window = { start_date: '2030-02-01', end_date: '2030-02-28' };
    const e: Record<string, number> = {};
    beforeAll(async () => {
      const date = { start_date: '2030-02-10 10:00:00', end_date: '2030-02-10 11:00:00' };
      e.one = (await make({ ...date, title: `${tok} alpha`, description: 'beta gamma' })).id;
      e.two = (await make({ ...date, title: `${tok} alpha` })).id;
      e.three = (await make({ ...date, title: `${tok} other`, excerpt: 'Alpha beta delta' })).id;
      e.four = (await make({ ...date, title: 'Unrelated title', description: `Mentions ${tok.toUpperCase()} alpha beta` })).id;
    });
    const search = async (text: string) => {
      const found = await ids(q({ search: text, ...window }));
      return Object.keys(e)
        .filter((name) => found.includes(e[name]))
        .sort();
    };

    it('needs every word, each in any of title, description or excerpt', async () => {
      expect(await search(`${tok} alpha`)).toEqual(['four', 'one', 'three', 'two']);
      expect(await search(`${tok} beta`)).toEqual(['four', 'one', 'three']);
      expect(await search(`${tok} gamma`)).toEqual(['one']);
      expect(await search(`${tok} delta`)).toEqual(['three']);
    });

    it('is case-insensitive', async () => {
      expect(await search(`${tok.toUpperCase()} GAMMA`)).toEqual(['one']);
    });

    it('treats a quoted phrase as one word', async () => {
      expect(await search(`"alpha beta" ${tok}`)).toEqual(['four', 'three']);
    });

    it('no match is an empty list', async () => {
      expect(await search(`${tok} zzzz`)).toEqual([]);
    });

    it('matches parts of words, punctuation and spaces included', async () => {
      expect(await search(`${tok} LPH`)).toEqual(['four', 'one', 'three', 'two']);
      expect(await search(`${tok} "a gam"`)).toEqual(['one']);
      expect(await search(`${tok} "ha be"`)).toEqual(['four', 'three']);
    });

    it('finds an edited text on the next search, and no longer the old one', async () => {
      const word = uid('edit');
      const date = { start_date: '2030-02-12 10:00:00', end_date: '2030-02-12 11:00:00' };
      const id = (await make({ ...date, title: `${word} kiwi` })).id;
      expect(await ids(q({ search: `${word} kiwi`, ...window }))).toEqual([id]);
      const res = await http(t, admin.authorization)
        .post(`${API}/events/${id}`)
        .send({ title: `${word} mango`, excerpt: 'papaya' });
      expectStatus(res, 200);
      expect(await ids(q({ search: `${word} kiwi`, ...window }))).toEqual([]);
      expect(await ids(q({ search: `${word} mango papaya`, ...window }))).toEqual([id]);
    });

    it('keeps search in rest_url; an empty search is 400', async () => {
      const res = await list(q({ search: `${tok} alpha`, ...window }));
      expect(queryOf(res.body.rest_url).search).toBe(`${tok} alpha`);
      expectInvalidParams(await list('search='), 'search');
    });
  });

  describe('categories and tags (§4.1.3)', () => {
    const tok = uid();
    const window = { start_date: '2030-03-01', end_date: '2030-03-31' };
    let parent: { id: number; slug: string; name: string };
    let child: { id: number; slug: string };
    let other: { id: number; slug: string };
    let tag1: { id: number; slug: string };
    let tag2: { id: number; slug: string };
    const e: Record<string, number> = {};
    beforeAll(async () => {
      parent = await createTerm(t, admin.authorization, 'categories', { name: `Parent ${tok}` });
      child = await createTerm(t, admin.authorization, 'categories', { name: `Child ${tok}`, parent: parent.id });
      other = await createTerm(t, admin.authorization, 'categories', { name: `Other ${tok}` });
      tag1 = await createTerm(t, admin.authorization, 'tags', { name: `tagone${tok}` });
      tag2 = await createTerm(t, admin.authorization, 'tags', { name: `tagtwo${tok}` });
      const base = { start_date: '2030-03-10 10:00:00', end_date: '2030-03-10 11:00:00' };
      e.one = (await make({ ...base, title: `Cat one ${tok}`, categories: [parent.id], tags: [tag1.id] })).id;
      e.two = (await make({ ...base, title: `Cat two ${tok}`, categories: [child.id] })).id;
      e.three = (await make({ ...base, title: `Cat three ${tok}`, categories: [other.id], tags: [tag2.id] })).id;
      e.four = (await make({ ...base, title: `Cat four ${tok}` })).id;
    });
    const filter = async (query: string) => {
      const found = await ids(`${q({ search: tok, ...window })}&${query}`);
      return Object.keys(e)
        .filter((name) => found.includes(e[name]))
        .sort();
    };

    it('by id or slug, including child categories', async () => {
      expect(await filter(`categories=${parent.id}`)).toEqual(['one', 'two']);
      expect(await filter(`categories=${parent.slug}`)).toEqual(['one', 'two']);
      expect(await filter(`categories=${child.id}`)).toEqual(['two']);
    });

    it('by name too (§4.1 table: "every item must be an existing category (by id, slug or name)")', async () => {
      expect(await filter(`categories=${encodeURIComponent(parent.name)}`)).toEqual(['one', 'two']);
    });

    it('any of several categories, in every array form', async () => {
      expect(await filter(`categories=${child.slug},${other.slug}`)).toEqual(['three', 'two']);
      expect(await filter(`categories=${child.id}%2C${other.id}`)).toEqual(['three', 'two']);
      expect(await filter(`categories[]=${child.id}&categories[]=${other.slug}`)).toEqual(['three', 'two']);
      expect(await filter(`categories[0]=${parent.id}&categories[1]=${other.id}`)).toEqual(['one', 'three', 'two']);
    });

    it('tags by id or slug, without descendants', async () => {
      expect(await filter(`tags=${tag1.id}`)).toEqual(['one']);
      expect(await filter(`tags=${tag2.slug}`)).toEqual(['three']);
      expect(await filter(`tags=${tag1.id},${tag2.id}`)).toEqual(['one', 'three']);
    });

    it('combines categories and tags with AND', async () => {
      expect(await filter(`categories=${parent.id}&tags=${tag1.id}`)).toEqual(['one']);
      expect(await filter(`categories=${other.id}&tags=${tag1.id}`)).toEqual([]);
    });

    it('an unknown category or tag is 400', async () => {
      expectInvalidParams(await list(`categories=no-such-${tok}`), 'categories');
      expectInvalidParams(await list(`categories=${parent.id},999999`), 'categories');
      expectInvalidParams(await list(`tags=no-such-${tok}`), 'tags');
      expectInvalidParams(await list(`tags=${tag1.id}&categories=${tag2.id}999`), 'categories');
    });

    it('keeps the filters in rest_url as comma lists', async () => {
      const res = await list(`${q({ search: tok, ...window })}&categories[]=${child.id}&categories[]=${other.id}&tags=${tag2.id}`);

      expectStatus(res, 200);
      expect(queryOf(res.body.rest_url)).toMatchObject({ categories: `${child.id},${other.id}`, tags: String(tag2.id), search: tok });
    });
  });

  describe('venue, organizer and featured (§4.1.3)', () => {
    const tok = uid();
    const window = { start_date: '2030-05-01', end_date: '2030-05-31' };
    let v1: { id: number };
    let v2: { id: number };
    let o1: { id: number };
    let o2: { id: number };
    const e: Record<string, number> = {};
    beforeAll(async () => {
      v1 = await createVenue(t, admin.authorization, { venue: `Filter venue one ${tok}` });
      v2 = await createVenue(t, admin.authorization, { venue: `Filter venue two ${tok}` });
      o1 = await createOrganizer(t, admin.authorization, { organizer: `Filter org one ${tok}` });
      o2 = await createOrganizer(t, admin.authorization, { organizer: `Filter org two ${tok}` });
      const base = { start_date: '2030-05-10 10:00:00', end_date: '2030-05-10 11:00:00' };
      e.one = (await make({ ...base, title: `Linked one ${tok}`, venue: v1.id, organizer: [o1.id], featured: true })).id;
      e.two = (await make({ ...base, title: `Linked two ${tok}`, venue: v2.id, organizer: [o1.id, o2.id] })).id;
      e.three = (await make({ ...base, title: `Linked three ${tok}`, featured: false })).id;
    });
    const filter = async (query: string) => {
      const found = await ids(`${q({ search: tok, ...window })}&${query}`);
      return Object.keys(e)
        .filter((name) => found.includes(e[name]))
        .sort();
    };

    it('venue: any of the given venues, in every array form', async () => {
      expect(await filter(`venue=${v1.id}`)).toEqual(['one']);
      expect(await filter(`venue=${v1.id},${v2.id}`)).toEqual(['one', 'two']);
      expect(await filter(`venue=${v1.id}%2C${v2.id}`)).toEqual(['one', 'two']);
      expect(await filter(`venue[]=${v2.id}`)).toEqual(['two']);
      expect(await filter(`venue[0]=${v1.id}&venue[1]=${v2.id}`)).toEqual(['one', 'two']);
      expect(await filter(`venue=${v1.id},%20${v2.id}`)).toEqual(['one', 'two']);
    });

    it('organizer: any of the given organizers', async () => {
      expect(await filter(`organizer=${o2.id}`)).toEqual(['two']);
      expect(await filter(`organizer=${o1.id}`)).toEqual(['one', 'two']);
      expect(await filter(`organizer[]=${o1.id}&organizer[]=${o2.id}`)).toEqual(['one', 'two']);
      expect(await filter(`organizer=${o2.id}&venue=${v1.id}`)).toEqual([]);
    });

    it('an unknown venue or organizer is 400', async () => {
      expectInvalidParams(await list(`venue=999999`), 'venue');
      expectInvalidParams(await list(`venue=${v1.id},${o1.id}`), 'venue');
      expectInvalidParams(await list(`venue=abc`), 'venue');
      expectInvalidParams(await list(`organizer=${v1.id}`), 'organizer');
      expectInvalidParams(await list(`organizer=999999&venue=999998`), 'organizer', 'venue');
    });

    it('keeps venue and organizer in rest_url', async () => {
      const res = await list(`${q({ search: tok, ...window })}&venue[]=${v1.id}&venue[]=${v2.id}&organizer=${o1.id}`);
      expect(queryOf(res.body.rest_url)).toMatchObject({ venue: `${v1.id},${v2.id}`, organizer: String(o1.id) });
    });

    it('featured true/false', async () => {
      expect(await filter('featured=true')).toEqual(['one']);
      expect(await filter('featured=1')).toEqual(['one']);
      expect(await filter('featured=false')).toEqual(['three', 'two']);
      expect(await filter('featured=0')).toEqual(['three', 'two']);
      expectInvalidParams(await list('featured=yes'), 'featured');
    });
  });

  describe('status and visibility (auth.md §4)', () => {
    const tok = uid();
    const window = q({ search: tok, start_date: '2030-07-01', end_date: '2030-07-31' });
    const e: Record<string, number> = {};
    beforeAll(async () => {
      const base = { start_date: '2030-07-10 10:00:00', end_date: '2030-07-10 11:00:00' };
      e.published = (await make({ ...base, title: `Vis published ${tok}` })).id;
      e.adminDraft = (await make({ ...base, title: `Vis admin draft ${tok}`, status: 'draft' })).id;
      e.authorDraft = (await make({ ...base, title: `Vis author draft ${tok}`, status: 'draft' }, users.author)).id;
      e.author2Pending = (await make({ ...base, title: `Vis author2 pending ${tok}`, status: 'pending' }, users.author2)).id;
      e.editorPrivate = (await make({ ...base, title: `Vis private ${tok}`, status: 'private' }, users.editor)).id;
      e.future = (await make({ ...base, title: `Vis future ${tok}`, date: '2040-01-01 00:00:00' })).id;
      e.contributorDraft = (await make({ ...base, title: `Vis contributor ${tok}` }, users.contributor)).id;
      e.trashed = (await make({ ...base, title: `Vis trashed ${tok}` })).id;
      await trashEvent(t, admin.authorization, e.trashed);
    });
    const visible = async (extra: string, caller?: Caller) => {
      const found = await ids(`${window}${extra}`, caller);
      return Object.keys(e)
        .filter((name) => found.includes(e[name]))
        .sort();
    };

    it('anonymous callers and subscribers see published events only', async () => {
      expect(await visible('')).toEqual(['published']);
      expect(await visible('&status=publish')).toEqual(['published']);
      expect(await visible('', users.subscriber)).toEqual(['published']);
    });

    it('anonymous callers and subscribers asking for another status get 400', async () => {
      for (const status of ['draft', 'publish,draft', 'trash', 'foo']) {
        expectInvalidParams(await list(`status=${status}`), 'status');
        expectInvalidParams(await list(`status=${status}`, users.subscriber), 'status');
      }
    });

    it('editors see every status but trash by default, and what they ask for', async () => {
      const everything = ['adminDraft', 'author2Pending', 'authorDraft', 'contributorDraft', 'editorPrivate', 'future', 'published'];
      expect(await visible('', users.editor)).toEqual(everything);
      expect(await visible('', admin)).toEqual(everything);
      expect(await visible('&status=draft', users.editor)).toEqual(['adminDraft', 'authorDraft', 'contributorDraft']);
      expect(await visible('&status=trash', users.editor)).toEqual(['trashed']);
      expect(await visible('&status=publish,%20pending', users.editor)).toEqual(['author2Pending', 'published']);
      expect(await visible('&status[]=private&status[]=future', users.editor)).toEqual(['editorPrivate', 'future']);
    });

    it('authors and contributors see published events plus their own', async () => {
      expect(await visible('', users.author)).toEqual(['authorDraft', 'published']);
      expect(await visible('&status=draft', users.author)).toEqual(['authorDraft']);
      expect(await visible('&status=pending', users.author)).toEqual([]);
      expect(await visible('&status=pending', users.author2)).toEqual(['author2Pending']);
      expect(await visible('', users.contributor)).toEqual(['contributorDraft', 'published']);
    });

    it('unknown statuses are 400 for every role', async () => {
      expectInvalidParams(await list('status=foo', users.editor), 'status');
      expectInvalidParams(await list('status=foo,%20bar,%20publish', users.editor), 'status');
      expectInvalidParams(await list('status=foo', users.author), 'status');
    });
  });

  describe('include, post_parent and hidden events (§4.1)', () => {
    const tok = uid();
    const e: Record<string, EventBody> = {};
    beforeAll(async () => {
      e.a = await make({ title: `Inc a ${tok}`, start_date: '2001-01-01 10:00:00', end_date: '2001-01-01 11:00:00', date: '2024-03-01 00:00:00' });
      e.b = await make({ title: `Inc b ${tok}`, start_date: '2035-01-01 10:00:00', end_date: '2035-01-01 11:00:00', date: '2024-01-01 00:00:00' });
      e.c = await make({ title: `Inc c ${tok}`, start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', date: '2024-01-01 00:00:00' });
      e.hidden = await make({ title: `Inc hidden ${tok}`, start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', hide_from_listings: true });
      e.draft = await make({ title: `Inc draft ${tok}`, start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', status: 'draft' });
    });

    it('lists only the included ids, ignoring the date window, by publication date then id', async () => {
      expect(await ids(`include=${e.a.id},${e.b.id},${e.c.id}`)).toEqual([e.b.id, e.c.id, e.a.id]);
      expect(await ids(`include[]=${e.c.id}&include[]=${e.a.id}`)).toEqual([e.c.id, e.a.id]);
      expect(await ids(`include=${e.a.id},${e.b.id}&start_date=2030-01-01&end_date=2030-01-02`)).toEqual([e.b.id, e.a.id]);
    });

    it('leaves start_date and end_date out of rest_url when include is given', async () => {
      const res = await list(`include=${e.a.id},${e.b.id}`);

      expectStatus(res, 200);
      const link = queryOf(res.body.rest_url);
      expect(link).toMatchObject({ include: `${e.a.id},${e.b.id}`, page: '1', per_page: '10' });
      expect(link).not.toHaveProperty('start_date');
      expect(link).not.toHaveProperty('end_date');
    });

    it('still applies visibility and hide_from_listings', async () => {
      expect(await ids(`include=${e.hidden.id},${e.draft.id}`)).toEqual([]);
      expect(await ids(`include=${e.draft.id}`, users.editor)).toEqual([e.draft.id]);
    });

    it('rejects include items that are not integers ≥ 1', async () => {
      expectInvalidParams(await list('include=abc'), 'include');
      expectInvalidParams(await list(`include=${e.a.id},0`), 'include');
    });

    it('never lists events hidden from listings, which stay readable by id', async () => {
      expect(await ids(q({ search: tok, start_date: '2029-12-31', end_date: '2030-01-02' }), users.editor)).toEqual([e.c.id, e.draft.id]);
      expect((await readEvent(t, e.hidden.id)).hide_from_listings).toBe(true);
    });

    it('post_parent: an event gives an empty list, anything else 400 rest-invalid-event-id', async () => {
      const venue = await createVenue(t, admin.authorization, { venue: `Parent venue ${tok}` });

      const res = await list(`post_parent=${e.a.id}`);
      expectStatus(res, 200);
      expect(res.body.events).toEqual([]);
      expectError(await list(`post_parent=${venue.id}`), 400, 'rest-invalid-event-id');
      expectError(await list('post_parent=999999'), 400, 'rest-invalid-event-id');
    });
  });

  describe('ordering (§4.1.4)', () => {
    it('orders by wall-clock start, then publication date, then id', async () => {
      const tok = uid();
      const day = (time: string) => ({ start_date: `2030-11-01 ${time}`, end_date: '2030-11-01 23:00:00' });
      const s1 = await make({ title: `Order ${tok}`, ...day('10:00:00'), date: '2024-05-01 00:00:00' });
      const s2 = await make({ title: `Order ${tok}`, ...day('10:00:00'), date: '2024-04-01 00:00:00' });
      const s3 = await make({ title: `Order ${tok}`, ...day('10:00:00'), date: '2024-04-01 00:00:00' });
      const s0 = await make({ title: `Order ${tok}`, ...day('09:00:00'), date: '2024-06-01 00:00:00' });
      // 09:30 in New York is 13:30 UTC: later in UTC, earlier on the wall clock than 10:00 UTC
      const ny = await make({ title: `Order ${tok}`, ...day('09:30:00'), timezone: 'America/New_York', date: '2024-06-01 00:00:00' });

      expect(await ids(q({ search: tok, start_date: '2030-11-01', end_date: '2030-11-01' }))).toEqual([s0.id, ny.id, s2.id, s3.id, s1.id]);
    });
  });

  describe('unsupported filters', () => {
    // The geo parameters without the geo extension: an app of the core alone, whatever
    // TEST_EXTENSIONS turns on for the rest of this suite.
    let core: TestApp;
    beforeAll(async () => {
      core = await createTestApp(EXTENSIONS_OFF);
    });
    afterAll(async () => core?.close());

    it('ticketed=true is 400 event-tickets-not-active; false is accepted', async () => {
      expectError(await list('ticketed=true'), 400, 'event-tickets-not-active');
      expectStatus(await list('ticketed=false'), 200);
    });

    it.each([
      ['geoloc=true', ['geoloc']],
      ['geoloc=false', ['geoloc']],
      ['geoloc=', ['geoloc']],
      ['geoloc_lat=40.7&geoloc_lng=-74', ['geoloc_lat', 'geoloc_lng']],
      ['geoloc=1&geoloc_lat=40.7', ['geoloc', 'geoloc_lat']],
    ])('%s is 400 geo-extension-disabled listing the geo parameters', async (query, params) => {
      const res = await listEvents(core, query);

      expectError(res, 400, 'geo-extension-disabled');
      expect([...res.body.data.params].sort()).toEqual([...params].sort());
    });
  });

  it('wrong credentials are 401 even on the public list', async () => {
    const res = await http(t, `Basic ${Buffer.from('nobody:wrong-password').toString('base64')}`).get(`${API}/events`);
    expectError(res, 401, 'invalid_username');
  });
});
