// `modified_after` on every list (sync.md: "Lists also accept `modified_after` (a date-time of
// README §6): only items modified after it"). Terms keep no modified time: the change log decides.
import { DateTime } from 'luxon';
import { createEvent, createItem, createTerm, makeUsers, uid } from '../../support/api';
import { API, http, queryOf } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const ZONE = 'America/New_York';
const ROUTES = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
type Route = (typeof ROUTES)[number];

/** Narrows each list to this file's items (the window of events, hidden empty terms). */
const SCOPE: Record<Route, string> = {
  events: 'start_date=2030-01-01&end_date=2031-01-01',
  venues: '',
  organizers: '',
  categories: 'hide_empty=false',
  tags: 'hide_empty=false',
};

describe('modified_after on every list (sync.md)', () => {
  let t: TestApp;
  let admin: string;
  /** Per route: an item last written before the point, one after, and one created before but edited after. */
  const items = {} as Record<Route, { before: number; after: number; edited: number }>;
  /** The point: the last second any "before" write was made in, UTC `YYYY-MM-DD HH:MM:SS`. */
  let point: string;

  const create = async (route: Route, name: string): Promise<{ id: number; modified_utc?: string }> => {
    if (route === 'events') return createEvent(t, admin, { title: name });
    if (route === 'venues' || route === 'organizers') return createItem(t, admin, route, { [route.slice(0, -1)]: name });
    return createTerm(t, admin, route, { name });
  };
  const edit = async (route: Route, id: number) => {
    const field = route === 'events' ? 'title' : route === 'venues' ? 'venue' : route === 'organizers' ? 'organizer' : 'name';
    const res = await http(t, admin)
      .post(`${API}/${route}/${id}`)
      .send({ [field]: uid('edited') });
    expect(res.status).toBe(200);
  };
  const list = (route: Route, query: string) => http(t, admin).get(`${API}/${route}?${[SCOPE[route], query].filter(Boolean).join('&')}`);
  const idsOf = async (route: Route, query: string) => {
    const res = await list(route, query);
    expect(res.status).toBe(200);
    return (res.body[route] as { id: number }[]).map((item) => item.id);
  };

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_TIMEZONE: ZONE });
    admin = (await makeUsers(t)).admin.authorization;
    // Terms first: they show no modified time, so the point is taken from the posts written after them.
    const stamps: string[] = [];
    for (const route of [...ROUTES].reverse()) {
      const before = await create(route, uid(`before ${route}`));
      const edited = await create(route, uid(`edited ${route}`));
      for (const item of [before, edited]) if (item.modified_utc) stamps.push(item.modified_utc);
      items[route] = { before: before.id, edited: edited.id, after: 0 };
    }
    point = stamps.sort().at(-1)!;
    // The only sleep: every later write falls in a later second than the point.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const route of ROUTES) {
      items[route].after = (await create(route, uid(`after ${route}`))).id;
      await edit(route, items[route].edited);
    }
  });
  afterAll(async () => t.close());

  describe.each(ROUTES)('GET /%s', (route) => {
    const utcIso = () => `${point.replace(' ', 'T')}Z`;

    it('without the parameter: every item', async () => {
      const ids = await idsOf(route, 'per_page=50');
      expect(ids).toEqual(expect.arrayContaining([items[route].before, items[route].after, items[route].edited]));
    });

    it('with an offset: only the items written after the point (an edit counts)', async () => {
      const ids = await idsOf(route, `per_page=50&modified_after=${encodeURIComponent(utcIso())}`);
      expect(ids).toEqual(expect.arrayContaining([items[route].after, items[route].edited]));
      expect(ids).not.toContain(items[route].before);
    });

    it('without an offset: a wall time in the site zone', async () => {
      const wall = DateTime.fromSQL(point, { zone: 'utc' }).setZone(ZONE).toFormat('yyyy-MM-dd HH:mm:ss');
      expect(wall).not.toBe(point);
      const ids = await idsOf(route, `per_page=50&modified_after=${encodeURIComponent(wall)}`);
      expect(ids).toEqual(expect.arrayContaining([items[route].after, items[route].edited]));
      expect(ids).not.toContain(items[route].before);
      // The same text read as UTC is hours before the point (New York is behind UTC): the "before" item too.
      const asUtc = await idsOf(route, `per_page=50&modified_after=${encodeURIComponent(`${wall.replace(' ', 'T')}Z`)}`);
      expect(asUtc).toContain(items[route].before);
    });

    it('a relative form before every write (`yesterday`): every item', async () => {
      expect(await idsOf(route, 'per_page=50&modified_after=yesterday')).toEqual(
        expect.arrayContaining([items[route].before, items[route].after, items[route].edited]),
      );
    });

    it('combines with the other parameters and is carried by the links', async () => {
      const res = await list(route, `per_page=1&modified_after=${encodeURIComponent(utcIso())}`);
      expect(res.status).toBe(200);
      expect(res.body[route]).toHaveLength(1);
      expect(Number(res.body.total ?? res.headers['x-wp-total'] ?? res.headers['x-tec-total'])).toBe(2); // the "after" and the edited item
      const next = res.body.next_rest_url ?? linkOf(res.headers.link as string | undefined, 'next');
      expect(next).toBeDefined();
      expect(queryOf(next as string).modified_after).toBe(utcIso());
      if (res.body.rest_url !== undefined) expect(queryOf(res.body.rest_url as string).modified_after).toBe(utcIso());
      const second = await http(t, admin).get(new URL(next as string).pathname + new URL(next as string).search);
      expect(second.status).toBe(200);
      expect((second.body[route] as { id: number }[]).map((i) => i.id)).not.toContain(items[route].before);
    });

    it('a value that does not parse: 400 rest_invalid_param', async () => {
      for (const bad of ['before my birthday', '']) {
        const res = await list(route, `modified_after=${encodeURIComponent(bad)}`);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('rest_invalid_param');
        expect(res.body.data.params).toHaveProperty('modified_after');
      }
    });
  });
});

/** The URL of the `rel` relation of a Link header. */
function linkOf(header: string | undefined, rel: string): string | undefined {
  return header
    ?.split(',')
    .map((part) => /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim()))
    .find((m) => m?.[2] === rel)?.[1];
}
