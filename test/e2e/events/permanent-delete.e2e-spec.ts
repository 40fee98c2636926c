// Permanent delete: DELETE …?force=true on events, venues and organizers, by id and by slug
// (spec beyond.md #1, auth.md §2–§3, endpoints.md §4.4 last line, §4.9, §5.3; errors.md).
import type { Response } from 'supertest';
import { Dialect } from '../../../src/database/dialect';
import { searchWords } from '../../../src/events/events.filters';
import { searchTokens } from '../../../src/events/search-grams';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import {
  Caller,
  createCategory,
  createEvent,
  createNamed,
  createOrganizer,
  createTag,
  createVenue,
  makeUsers,
  ItemRoute,
  readEvent,
  readTerm,
  uid,
} from '../../support/api';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';
import { countRows, selectRows } from '../../support/sql';

type Users = Awaited<ReturnType<typeof makeUsers>>;

type Kind = ItemRoute;
const KINDS: Kind[] = ['events', 'venues', 'organizers'];

describe('permanent delete (beyond.md #1)', () => {
  let t: TestApp;
  let users: Users;
  const as = (caller?: Caller) => http(t, caller?.authorization);

  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
  }, 30_000);
  afterAll(async () => t?.close());

  /** A new item of `kind` by `caller` (administrator by default). */
  const make = (kind: Kind, fields: Record<string, unknown> = {}, caller: Caller = users.admin) => createNamed(t, caller, kind, 'Gone', fields);

  const path = (kind: Kind, ref: 'id' | 'slug', item: { id: number; slug: string }) => (ref === 'id' ? `/${kind}/${item.id}` : `/${kind}/by-slug/${item.slug}`);
  const forceDelete = (caller: Caller | undefined, route: string) => as(caller).delete(`${API}${route}?force=true`);

  /** What an unknown id or slug answers on this route today (endpoints.md §4.2, §5.3). */
  function expectUnknown(res: Response, kind: Kind, ref: 'id' | 'slug'): void {
    if (kind === 'events' && ref === 'id') expectError(res, 404, 'rest-event-not-found');
    else expectInvalidParams(res, ref);
  }

  /** Events are listed over every date (the default window ends two years ahead; the tests' events are in 2030). */
  const ALL_DATES = 'start_date=2000-01-01&end_date=2100-01-01';
  const list = (kind: Kind, query: string, caller?: Caller) => as(caller).get(`${API}/${kind}?${kind === 'events' ? `${ALL_DATES}&` : ''}${query}`);

  const total = async (kind: Kind, token: string, caller: Caller = users.admin) => {
    const res = await list(kind, `search=${encodeURIComponent(token)}`, caller);
    expectStatus(res, 200);
    return Number(res.body.total);
  };

  describe.each(KINDS)('%s', (kind) => {
    it.each(['id', 'slug'] as const)('by %s: a published item is gone for good; the answer carries it as a single read showed it', async (ref) => {
      const item = await make(kind);
      const before = await as(users.admin).get(`${API}/${kind}/${item.id}`);
      expectStatus(before, 200);
      expect(await total(kind, item.token)).toBe(1);

      const res = await forceDelete(users.admin, path(kind, ref, item));

      expectStatus(res, 200);
      expect(res.body).toEqual({ deleted: true, previous: before.body });
      expect(res.body.previous.json_ld).toBeDefined();
      expectUnknown(await as(users.admin).get(`${API}${path(kind, ref, item)}`), kind, ref);
      expectUnknown(await as(users.admin).get(`${API}/${kind}/${item.id}`), kind, 'id');
      expectUnknown(await forceDelete(users.admin, path(kind, ref, item)), kind, ref);
      expectUnknown(await as(users.admin).delete(`${API}${path(kind, ref, item)}`), kind, ref);
      expectUnknown(
        await as(users.admin)
          .post(`${API}${path(kind, ref, item)}`)
          .send({ status: 'draft' }),
        kind,
        ref,
      );
      expect(await total(kind, item.token)).toBe(0);
    });

    it.each(['id', 'slug'] as const)('by %s: an item already in the trash is deleted too (no 410)', async (ref) => {
      const item = await make(kind);
      const trashed = await as(users.admin).delete(`${API}/${kind}/${item.id}`);
      expectStatus(trashed, 200);
      const inTrash = { id: item.id, slug: trashed.body.slug as string };
      expect(inTrash.slug).toBe(`${item.slug}__trashed`);

      const res = await forceDelete(users.admin, path(kind, ref, inTrash));

      expectStatus(res, 200);
      expect(res.body.deleted).toBe(true);
      expect(res.body.previous).toMatchObject({ id: item.id, status: 'trash', slug: inTrash.slug });
      expectUnknown(await as(users.admin).get(`${API}/${kind}/${item.id}`), kind, 'id');
      expectUnknown(await as(users.admin).get(`${API}/${kind}/by-slug/${inTrash.slug}`), kind, 'slug');
    });

    it('frees the slug: a new item asking for it gets it unchanged', async () => {
      const item = await make(kind);
      expectStatus(await forceDelete(users.admin, path(kind, 'id', item)), 200);
      const again = await make(kind, { slug: item.slug });
      expect(again.slug).toBe(item.slug);
      expect(again.id).not.toBe(item.id);
    });

    it('force=false, force=0 and no force move to the trash as before', async () => {
      for (const query of ['?force=false', '?force=0', '']) {
        const item = await make(kind);
        const res = await as(users.admin).delete(`${API}/${kind}/${item.id}${query}`);
        expectStatus(res, 200);
        expect(res.body).toMatchObject({ id: item.id, status: 'trash' });
        expect(res.body.deleted).toBeUndefined();
      }
    });

    it('force=1 and force=TRUE delete for good (the boolean forms of README §4)', async () => {
      for (const value of ['1', 'TRUE']) {
        const item = await make(kind);
        const res = await as(users.admin).delete(`${API}/${kind}/${item.id}?force=${value}`);
        expectStatus(res, 200);
        expect(res.body.deleted).toBe(true);
      }
    });

    it('a bad force value is 400 rest_invalid_param before the permission check, and nothing changes', async () => {
      const item = await make(kind);
      for (const caller of [users.admin, undefined]) {
        expectInvalidParams(await as(caller).delete(`${API}/${kind}/${item.id}?force=maybe`), 'force');
        expectInvalidParams(await as(caller).delete(`${API}/${kind}/by-slug/${item.slug}?force=maybe`), 'force');
      }
      const still = await as(users.admin).get(`${API}/${kind}/${item.id}`);
      expectStatus(still, 200);
      expect(still.body.status).toBe('publish');
    });
  });

  describe('permissions (auth.md §2–§3: the rights of trashing)', () => {
    it.each(KINDS)('%s: anonymous callers are 401, subscribers 403, and the item stays', async (kind) => {
      const item = await make(kind);
      for (const ref of ['id', 'slug'] as const) {
        expectError(await forceDelete(undefined, path(kind, ref, item)), 401, 'rest_forbidden');
        expectError(await forceDelete(users.subscriber, path(kind, ref, item)), 403, 'rest_forbidden');
      }
      expectStatus(await as(users.admin).get(`${API}/${kind}/${item.id}`), 200);
    });

    it.each(KINDS)("%s: a contributor may not delete another's item, nor an author another author's", async (kind) => {
      const draft = await make(kind, { status: 'draft' });
      expectError(await forceDelete(users.contributor, path(kind, 'id', draft)), 403, 'rest_forbidden');
      const published = await make(kind, {}, users.author2);
      expectError(await forceDelete(users.author, path(kind, 'slug', published)), 403, 'rest_forbidden');
      expectStatus(await as(users.admin).get(`${API}/${kind}/${draft.id}`), 200);
      expectStatus(await as(users.admin).get(`${API}/${kind}/${published.id}`), 200);
    });

    it.each(KINDS)('%s: a contributor may delete an own draft, not an own published item', async (kind) => {
      const draft = await make(kind, { status: 'draft' }, users.contributor);
      expectStatus(await forceDelete(users.contributor, path(kind, 'id', draft)), 200);
      const own = await make(kind, {}, users.contributor); // a contributor's item starts as a draft (endpoints.md §3 rule 3)
      expectStatus(await as(users.admin).post(`${API}/${kind}/${own.id}`).send({ status: 'publish' }), 200);
      expectError(await forceDelete(users.contributor, path(kind, 'id', own)), 403, 'rest_forbidden');
      expectStatus(await as(users.admin).get(`${API}/${kind}/${own.id}`), 200);
    });

    it.each(KINDS)('%s: in the trash, the status before trashing decides (auth.md §2, last note)', async (kind) => {
      const wasDraft = await make(kind, { status: 'draft' }, users.contributor);
      const wasPublished = await make(kind, {}, users.contributor);
      expectStatus(await as(users.admin).post(`${API}/${kind}/${wasPublished.id}`).send({ status: 'publish' }), 200);
      expectStatus(await as(users.contributor).delete(`${API}/${kind}/${wasDraft.id}`), 200);
      expectStatus(await as(users.admin).delete(`${API}/${kind}/${wasPublished.id}`), 200);

      expectError(await forceDelete(users.contributor, path(kind, 'id', wasPublished)), 403, 'rest_forbidden');
      expectStatus(await forceDelete(users.contributor, path(kind, 'id', wasDraft)), 200);
    });

    it.each(KINDS)("%s: an author may delete an own published item; an editor an administrator's", async (kind) => {
      const own = await make(kind, {}, users.author);
      const res = await forceDelete(users.author, path(kind, 'slug', own));
      expectStatus(res, 200);
      expect(res.body.previous).toMatchObject({ id: own.id, status: 'publish', author: String(users.author.id) });
      const admins = await make(kind);
      expectStatus(await forceDelete(users.editor, path(kind, 'id', admins)), 200);
    });

    it('an unknown event id: anonymous 401 (the general right is checked first), then 404 for an editor', async () => {
      expectError(await forceDelete(undefined, '/events/999999'), 401, 'rest_forbidden');
      expectError(await forceDelete(users.editor, '/events/999999'), 404, 'rest-event-not-found');
    });

    it('an unknown venue or organizer id is 400 for everyone (validation comes first)', async () => {
      expectInvalidParams(await forceDelete(undefined, '/venues/999999'), 'id');
      expectInvalidParams(await forceDelete(undefined, '/organizers/by-slug/nothing-here'), 'slug');
    });

    it('the id of another kind stays the kind error: a venue id on the events route', async () => {
      const venue = await make('venues');
      expectError(await forceDelete(users.admin, `/events/${venue.id}`), 400, 'rest-invalid-event-id');
      expectStatus(await as(users.admin).get(`${API}/venues/${venue.id}`), 200);
    });
  });

  describe('links (endpoints.md §4.4 last line)', () => {
    /**
     * Rows left behind that no response shows (lists join them to live rows): read, never
     * written, with read-only SQL.
     */
    async function rowsKeyedBy(eventId: number): Promise<Record<string, number>> {
      const count = (sql: string) => countRows(t, sql, [eventId]);
      return {
        posts: await count('SELECT COUNT(*) AS n FROM posts WHERE id = ?'),
        events: await count('SELECT COUNT(*) AS n FROM events WHERE id = ?'),
        event_terms: await count('SELECT COUNT(*) AS n FROM event_terms WHERE event_id = ?'),
        event_organizers: await count('SELECT COUNT(*) AS n FROM event_organizers WHERE event_id = ?'),
      };
    }

    /**
     * The events whose search document (event_search) matches these words: the full-text
     * pre-filter's candidates, which no response shows (a list joins them to live events). The
     * engine's own query for them, from the app's Dialect, run as read-only SQL.
     */
    async function searchCandidates(text: string): Promise<number[]> {
      const dialect = t.app.get(Dialect);
      const rows = await selectRows(t, dialect.searchCandidates('?'), [dialect.searchExpression(searchTokens(searchWords(text)))]);
      return rows.map((r) => Number(Object.values(r)[0]));
    }

    it('an event deleted for good leaves term counts, lists and link filters as if it never was', async () => {
      const token = uid('lk');
      const category = await createCategory(t, users.admin.authorization, { name: `Cat ${token}` });
      const tag = await createTag(t, users.admin.authorization, { name: `Tag ${token}` });
      const venue = await createVenue(t, users.admin.authorization, { venue: `Hall ${token}` });
      const organizer = await createOrganizer(t, users.admin.authorization, { organizer: `Host ${token}` });
      const links = { categories: [category.id], tags: [tag.id], venue: venue.id, organizer: [organizer.id] };
      const kept = await createEvent(t, users.admin.authorization, { title: `Kept ${token}`, ...links });
      const doomed = await createEvent(t, users.admin.authorization, { title: `Doomed ${token}`, ...links });
      expect((await readTerm(t, 'categories', category.id)).count).toBe(2);
      expect((await readTerm(t, 'tags', tag.id)).count).toBe(2);
      expect(await total('events', token)).toBe(2);
      expect(await total('events', `doomed ${token}`)).toBe(1);

      expect(await rowsKeyedBy(doomed.id)).toEqual({ posts: 1, events: 1, event_terms: 2, event_organizers: 1 });
      expect(await searchCandidates(`Doomed ${token}`)).toEqual([doomed.id]);

      expectStatus(await forceDelete(users.admin, `/events/${doomed.id}`), 200);

      expect(await rowsKeyedBy(doomed.id)).toEqual({ posts: 0, events: 0, event_terms: 0, event_organizers: 0 });
      expect(await searchCandidates(`Doomed ${token}`)).toEqual([]);
      expect(await searchCandidates(token)).toEqual([kept.id]);
      expect((await readTerm(t, 'categories', category.id)).count).toBe(1);
      expect((await readTerm(t, 'tags', tag.id)).count).toBe(1);
      expect(await total('events', token)).toBe(1);
      expect(await total('events', `doomed ${token}`)).toBe(0);
      const byCategory = await list('events', `categories=${category.id}`);
      expect(byCategory.body.events.map((e: { id: number }) => e.id)).toEqual([kept.id]);
      // Venue and organizer lists filtered by the deleted event: it is an unknown event now.
      expectInvalidParams(await as(users.admin).get(`${API}/venues?event=${doomed.id}`), 'event');
      expectInvalidParams(await as(users.admin).get(`${API}/organizers?event=${doomed.id}`), 'event');
      expectError(await as(users.admin).get(`${API}/events?post_parent=${doomed.id}`), 400, 'rest-invalid-event-id');
      // The linked items are untouched.
      expect((await readEvent(t, kept.id)).venue).toMatchObject({ id: venue.id });
      expectStatus(await as().get(`${API}/venues/${venue.id}`), 200);
    });

    it('a trashed event deleted for good does not take its terms from the counts a second time', async () => {
      const category = await createCategory(t, users.admin.authorization, { name: `Cat ${uid()}` });
      await createEvent(t, users.admin.authorization, { categories: [category.id] });
      const doomed = await createEvent(t, users.admin.authorization, { categories: [category.id] });
      expect((await readTerm(t, 'categories', category.id)).count).toBe(2);
      expectStatus(await as(users.admin).delete(`${API}/events/${doomed.id}`), 200);
      expect((await readTerm(t, 'categories', category.id)).count).toBe(1);
      expectStatus(await forceDelete(users.admin, `/events/${doomed.id}`), 200);
      expect((await readTerm(t, 'categories', category.id)).count).toBe(1);
    });

    it('a venue deleted for good leaves its events, without a venue', async () => {
      const token = uid('vn');
      const venue = await createVenue(t, users.admin.authorization, { venue: `Hall ${token}` });
      const event = await createEvent(t, users.admin.authorization, { title: `Show ${token}`, venue: venue.id });
      expect((await readEvent(t, event.id)).venue).toMatchObject({ id: venue.id });
      expect(await total('events', token)).toBe(1);

      const res = await forceDelete(users.admin, `/venues/by-slug/${venue.slug}`);

      expectStatus(res, 200);
      expect(res.body.previous).toMatchObject({ id: venue.id, venue: `Hall ${token}` });
      expect((await readEvent(t, event.id)).venue).toEqual([]);
      expect(await total('events', token)).toBe(1);
      const listed = await list('events', `search=${token}`);
      expect(listed.body.events[0].venue).toEqual([]);
      expectInvalidParams(await as().get(`${API}/events?venue=${venue.id}`), 'venue');
    });

    it('an organizer deleted for good leaves its events with their other organizers', async () => {
      const token = uid('or');
      const gone = await createOrganizer(t, users.admin.authorization, { organizer: `Host ${token}` });
      const stays = await createOrganizer(t, users.admin.authorization, { organizer: `Cohost ${token}` });
      const event = await createEvent(t, users.admin.authorization, { title: `Talk ${token}`, organizer: [gone.id, stays.id] });
      expect((await readEvent(t, event.id)).organizer.map((o) => o.id)).toEqual([gone.id, stays.id]);

      expectStatus(await forceDelete(users.admin, `/organizers/${gone.id}`), 200);

      expect((await readEvent(t, event.id)).organizer.map((o) => o.id)).toEqual([stays.id]);
      expectInvalidParams(await as().get(`${API}/events?organizer=${gone.id}`), 'organizer');
      expect(await total('organizers', token)).toBe(1);
    });

    it('an event cannot be linked to a venue or organizer deleted for good', async () => {
      const venue = await createVenue(t, users.admin.authorization, { venue: `Hall ${uid()}` });
      const organizer = await createOrganizer(t, users.admin.authorization, { organizer: `Host ${uid()}` });
      expectStatus(await forceDelete(users.admin, `/venues/${venue.id}`), 200);
      expectStatus(await forceDelete(users.admin, `/organizers/${organizer.id}`), 200);
      const event = await createEvent(t, users.admin.authorization);
      expectInvalidParams(await as(users.admin).post(`${API}/events/${event.id}`).send({ venue: venue.id }), 'venue');
      expectInvalidParams(
        await as(users.admin)
          .post(`${API}/events/${event.id}`)
          .send({ organizer: [organizer.id] }),
        'organizer',
      );
    });
  });

  describe('concurrency', () => {
    it.each(KINDS)('%s: two permanent deletes at once: one 200, the other the unknown-item answer, never a 500', async (kind) => {
      const item = await make(kind);
      const [a, b] = await Promise.all([forceDelete(users.admin, path(kind, 'id', item)), forceDelete(users.editor, path(kind, 'id', item))]);
      const statuses = [a.status, b.status].sort();
      expect(statuses[0]).toBe(200);
      const loser = a.status === 200 ? b : a;
      expectUnknown(loser, kind, 'id');
    });

    it.each(KINDS)('%s: a permanent delete and a trash at once: never a 500, and the item is gone', async (kind) => {
      const item = await make(kind);
      const [gone, trashed] = await Promise.all([forceDelete(users.admin, path(kind, 'id', item)), as(users.editor).delete(`${API}/${kind}/${item.id}`)]);
      expectStatus(gone, 200);
      expect([200, 404, 400]).toContain(trashed.status); // the trash first, or the unknown-item answer
      expectUnknown(await as(users.admin).get(`${API}/${kind}/${item.id}`), kind, 'id');
    });
  });
});

describe('permanent delete with the geo extension on (beyond.md #1, geo.md)', () => {
  let t: TestApp;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_GEO: 'on' });
    admin = await t.userHeader('geoadmin', 'administrator');
  }, 30_000);
  afterAll(async () => t?.close());

  /** Rows of the geo extension's table for the venue: no response shows them once the venue is gone (read-only SQL). */
  const coordinatesOf = (venueId: number) => countRows(t, 'SELECT COUNT(*) AS n FROM venue_geo WHERE venue_id = ?', [venueId]);

  it("a venue's coordinates go with it", async () => {
    const venue = await createVenue(t, admin.authorization, { venue: `Mapped ${uid()}`, geo_lat: 45.5, geo_lng: 9.2 });
    expect(venue.geo_lat).toBe(45.5);
    expect(await coordinatesOf(venue.id)).toBe(1);

    expectStatus(await http(t, admin.authorization).delete(`${API}/venues/${venue.id}?force=true`), 200);

    expect(await coordinatesOf(venue.id)).toBe(0);
  });
});
