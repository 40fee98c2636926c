// The WordPress paths of compat.md: /wp-json/tribe/events/v1/… is our API, /wp-json/ the REST
// index, /?rest_route=/… the plain-permalink form, and every link in an answer stays in the form
// the request came by. (The whole e2e suite also runs once at the alias: TEST_API_BASE in .ci/run.)
// This file names both paths itself, so it means the same in either run.
import { basicAuth, http, queryOf } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const OURS = '/calendar/events/v1';
const WP = '/wp-json/tribe/events/v1';
const WINDOW = 'start_date=2049-01-01&end_date=2049-12-31';

/** Every string in a JSON value that looks like a URL of this app. */
function urlsIn(value: unknown, base: string, out: string[] = []): string[] {
  if (typeof value === 'string' && value.startsWith(base)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) urlsIn(v, base, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) urlsIn(v, base, out);
  return out;
}

/** The API links of a body (every one names a namespace `…/events/v1`; the public `url`s are pages). */
const apiLinksIn = (body: unknown, t: TestApp) => urlsIn(body, t.baseUrl).filter((u) => u.includes('/events/v1'));

describe('the WordPress path (compat.md)', () => {
  let t: TestApp;
  let admin: string;
  let eventId: number;
  let categoryId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ authorization: admin } = await t.userHeader('wp-admin', 'administrator'));
    const parent = await http(t, admin).post(`${WP}/categories`).send({ name: 'Concerts' });
    expect(parent.status).toBe(201);
    const child = await http(t, admin).post(`${WP}/categories`).send({ name: 'Jazz', parent: parent.body.id });
    expect(child.status).toBe(201);
    categoryId = child.body.id;
    for (const day of [1, 2, 3]) {
      const made = await http(t, admin)
        .post(`${WP}/events`)
        .send({
          title: `Alias ${day}`,
          start_date: `2049-03-0${day} 19:00`,
          end_date: `2049-03-0${day} 21:00`,
          categories: [categoryId],
          venue: { venue: `Alias hall ${day}` },
        });
      expect(made.status).toBe(201);
      eventId = made.body.id;
    }
  });
  afterAll(async () => t.close());

  it('answers the same records at both paths, only the links differ, and each link stays on its path', async () => {
    const ours = await http(t).get(`${OURS}/events?${WINDOW}&per_page=2`);
    const wp = await http(t).get(`${WP}/events?${WINDOW}&per_page=2`);
    expect(ours.status).toBe(200);
    expect(wp.status).toBe(200);
    expect(wp.headers['x-tec-total']).toBe(ours.headers['x-tec-total']);
    expect(wp.headers['x-tec-totalpages']).toBe(ours.headers['x-tec-totalpages']);
    // One body from the other by the path alone: the records, their public urls and global ids are the same.
    expect(JSON.parse(JSON.stringify(wp.body).split(`${t.baseUrl}${WP}`).join(`${t.baseUrl}${OURS}`))).toEqual(ours.body);
    expect(wp.body.events[0].url).toBe(ours.body.events[0].url);
    expect(wp.body.events[0].global_id).toBe(ours.body.events[0].global_id);

    const wpLinks = apiLinksIn(wp.body, t);
    expect(wpLinks.length).toBeGreaterThan(5);
    for (const link of wpLinks) expect(link.startsWith(`${t.baseUrl}${WP}/`)).toBe(true);
    expect(wp.body.events[0].rest_url).toBe(`${t.baseUrl}${WP}/events/${wp.body.events[0].id}`);
    expect(wp.body.events[0].categories[0].urls).toEqual({
      self: `${t.baseUrl}${WP}/categories/${categoryId}`,
      collection: `${t.baseUrl}${WP}/categories`,
      up: expect.stringMatching(new RegExp(`^${t.baseUrl}${WP}/categories/\\d+$`)),
    });
    expect(wp.headers.link).toBe(`<${wp.body.next_rest_url}>; rel="next"`);
    expect(wp.headers.etag).not.toBe(ours.headers.etag);
  });

  it('a client that follows next_rest_url from the alias never leaves it, and reads every page', async () => {
    let url: string | undefined = `${t.baseUrl}${WP}/events?${WINDOW}&per_page=1`;
    const titles: string[] = [];
    while (url !== undefined) {
      expect(url.startsWith(`${t.baseUrl}${WP}/`)).toBe(true);
      const res = await http(t).get(url.slice(t.baseUrl.length));
      expect(res.status).toBe(200);
      titles.push(...res.body.events.map((e: { title: string }) => e.title));
      url = res.body.next_rest_url;
    }
    expect(titles).toEqual(['Alias 1', 'Alias 2', 'Alias 3']);
  });

  it('keeps cached answers apart: the same query read at one path, then the other, has each its own links', async () => {
    for (const [first, second] of [
      [OURS, WP],
      [WP, OURS],
    ]) {
      for (const path of [`/events/${eventId}`, `/events?${WINDOW}&per_page=1&page=2`, '/categories?hide_empty=false']) {
        const a = await http(t).get(`${first}${path}`);
        const b = await http(t).get(`${second}${path}`);
        const again = await http(t).get(`${second}${path}`); // now from the cache
        for (const [res, root] of [
          [a, first],
          [b, second],
          [again, second],
        ] as const) {
          expect(res.status).toBe(200);
          for (const link of apiLinksIn(res.body, t)) expect(link.startsWith(`${t.baseUrl}${root}/`)).toBe(true);
        }
        expect(again.body).toEqual(b.body);
      }
    }
  });

  it('has the same auth rules, errors and headers', async () => {
    const bad = await http(t, basicAuth('wp-admin', 'wrong-password')).get(`${WP}/events`);
    expect(bad.status).toBe(401);
    const anonymousWrite = await http(t).post(`${WP}/events`).send({ title: 'No', start_date: '2049-01-01 10:00', end_date: '2049-01-01 11:00' });
    expect(anonymousWrite.status).toBe(401);
    expect(anonymousWrite.body.code).toBe('rest_forbidden');
    const unknown = await http(t).get(`${WP}/events/999999`);
    const ourUnknown = await http(t).get(`${OURS}/events/999999`);
    expect(unknown.status).toBe(ourUnknown.status);
    expect(unknown.body).toEqual(ourUnknown.body);
    const invalid = await http(t).get(`${WP}/events?per_page=zero`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('rest_invalid_param');
    const noRoute = await http(t).get(`${WP}/nothing-here`);
    expect(noRoute.status).toBe(404);
    expect(noRoute.body.code).toBe('rest_no_route');
    const preflight = await http(t).get(`${WP}/events?${WINDOW}`).set('Origin', 'https://widget.example');
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('updates and deletes at the alias, with If-Match on the alias ETag', async () => {
    const read = await http(t).get(`${WP}/events/${eventId}`);
    const updated = await http(t, admin).post(`${WP}/events/${eventId}`).set('If-Match', read.headers.etag).send({ title: 'Alias renamed' });
    expect(updated.status).toBe(200);
    expect(updated.body.rest_url).toBe(`${t.baseUrl}${WP}/events/${eventId}`);
    const stale = await http(t, admin).post(`${WP}/events/${eventId}`).set('If-Match', read.headers.etag).send({ title: 'Lost update' });
    expect(stale.status).toBe(412);
    const after = await http(t).get(`${WP}/events/${eventId}`).set('Accept-Encoding', 'identity');
    expect(after.headers.etag).toBe(updated.headers.etag);
  });

  it('serves the WordPress REST index at /wp-json/, with the namespace and its routes under the alias', async () => {
    const res = await http(t).get('/wp-json/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: expect.any(String),
      description: expect.any(String),
      url: t.baseUrl,
      home: t.baseUrl,
      namespaces: ['tribe/events/v1'],
    });
    expect(res.body.authentication).toBeDefined();
    expect(res.body._links.help[0].href).toBe(`${t.baseUrl}${WP}/doc`);
    expect(res.body.routes['/tribe/events/v1/events']._links.self[0].href).toBe(`${t.baseUrl}${WP}/events`);
    expect(res.body.routes['/tribe/events/v1/events/(?P<id>\\d+)'].methods).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
    for (const key of Object.keys(res.body.routes)) expect(key.startsWith('/tribe/events/v1')).toBe(true);
    expect((await http(t).get('/wp-json')).body).toEqual(res.body);
    const ns = await http(t).get(WP);
    expect(ns.body.namespace).toBe('tribe/events/v1');
    expect(ns.body._links).toEqual({ up: [{ href: `${t.baseUrl}/wp-json/` }], ical: [{ href: `${t.baseUrl}${WP}/events.ics` }] });
  });

  it('serves the OpenAPI document at the alias with its server there', async () => {
    const wp = await http(t).get(`${WP}/doc`);
    const ours = await http(t).get(`${OURS}/doc`);
    expect(wp.body.servers).toEqual([{ url: `${t.baseUrl}${WP}/` }]);
    expect(ours.body.servers).toEqual([{ url: `${t.baseUrl}${OURS}/` }]);
    expect(wp.body.paths).toEqual(ours.body.paths);
  });

  it('answers the ?rest_route= form, other parameters kept, links in that form', async () => {
    const list = await http(t).get(`/?rest_route=/tribe/events/v1/events&${WINDOW}&per_page=1`);
    expect(list.status).toBe(200);
    expect(list.body.events[0].title).toBe('Alias 1');
    expect(list.body.rest_url.startsWith(`${t.baseUrl}/?rest_route=/tribe/events/v1/events/&`)).toBe(true);
    expect(queryOf(list.body.next_rest_url)).toMatchObject({ rest_route: '/tribe/events/v1/events/', page: '2', per_page: '1' });
    const next = await http(t).get(list.body.next_rest_url.slice(t.baseUrl.length));
    expect(next.body.events[0].title).toBe('Alias 2');
    expect(next.body.events[0].rest_url).toBe(`${t.baseUrl}/?rest_route=/tribe/events/v1/events/${next.body.events[0].id}`);

    const encoded = await http(t).get(`/index.php?rest_route=${encodeURIComponent(`/calendar/events/v1/categories/${categoryId}`)}`);
    expect(encoded.status).toBe(200);
    expect(encoded.body.urls.self).toBe(`${t.baseUrl}/?rest_route=/calendar/events/v1/categories/${categoryId}`);

    const index = await http(t).get('/?rest_route=/');
    expect(index.body.namespaces).toEqual(['tribe/events/v1']);
    const elsewhere = await http(t).get('/?rest_route=/wp/v2/posts');
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('rest_no_route');

    const created = await http(t, admin).post('/?rest_route=/tribe/events/v1/tags').send({ name: 'plain-permalinks' });
    expect(created.status).toBe(201);
    expect(created.body.urls.collection).toBe(`${t.baseUrl}/?rest_route=/tribe/events/v1/tags`);
  });

  it('serves iCalendar at the alias too', async () => {
    const res = await http(t).get(`${WP}/events.ics?${WINDOW}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.text).toContain('SUMMARY:Alias 2');
  });
});

describe('CALENDAR_WP_COMPAT=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_WP_COMPAT: 'off' });
  });
  afterAll(async () => t.close());

  it('removes the alias, the WordPress index and the rest_route form', async () => {
    for (const path of [`${WP}/events`, WP, '/wp-json/', `${WP}/doc`]) {
      const res = await http(t).get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('rest_no_route');
    }
    const plain = await http(t).get('/?rest_route=/tribe/events/v1/events');
    expect(plain.body.events).toBeUndefined(); // the root's own index, the parameter unread
    expect((await http(t).get(`${OURS}/events`)).status).toBe(200);
  });
});
