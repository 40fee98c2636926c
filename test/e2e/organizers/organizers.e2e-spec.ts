// The organizer routes (spec endpoints.md §5; resources.md §3, §7, §8, §9; auth.md; errors.md).
// Organizers share their rules with venues (test/e2e/venues/venues/venues.e2e-spec.ts covers those in depth);
// this file covers what is the organizer's own and the shared behaviour under organizer codes.
import { OUTER } from '../../../src/database/tx';
import { UnitOfWork } from '../../../src/database/unit-of-work';
import { MediaService } from '../../../src/media';
import type { LinkedItemReads, LinkedItemWrites } from '../../../src/linked-items';
import { ORGANIZER_TOKENS, type OrganizerEntity } from '../../../src/organizers';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, queryOf, rootOf } from '../../support/http';
import { Caller, createEvent, createOrganizer, getOk, listIdsOf, makeUsers, readEventLinks, uid } from '../../support/api';
import { expectError, expectInvalidParams, idsOf, sortedIds } from '../../support/expect';

type Role = 'admin' | 'editor' | 'author' | 'contributor' | 'subscriber';

describe('organizers', () => {
  let t: TestApp;
  let root: string;
  let users: Record<Role, Caller>;
  const as = (role: Role) => http(t, users[role].authorization);
  const create = (body: Record<string, unknown>, role: Role = 'admin') => createOrganizer(t, users[role].authorization, body);
  const listIds = (query: string, role?: Role) => listIdsOf(t, 'organizers', `per_page=50&${query}`, role && users[role].authorization);
  /** An event made by the administrator through POST /events; `fields` win over a minimal valid event. */
  const event = (fields: Record<string, unknown> = {}) => createEvent(t, users.admin.authorization, fields);
  /** Start and end of an event at the same moment (UTC, the site zone). */
  const at = (when: string) => ({ start_date: when, end_date: when });

  beforeAll(async () => {
    t = await createTestApp();
    root = rootOf(t);
    users = await makeUsers(t);
    t.app.get(MediaService).probe = async () => 'image/png';
  }, 30_000); // a fresh app (migrations) and users with scrypt-hashed passwords: slow on a busy machine
  afterAll(async () => t?.close());

  describe('representation (resources.md §3, §7)', () => {
    it('omits empty keys: an organizer with only a name', async () => {
      const tok = uid();
      const res = await as('admin')
        .post(`${API}/organizers`)
        .send({ organizer: `Arts ${tok}` });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'slug',
        'global_id',
        'global_id_lineage',
      ]);
      expect(res.body).toMatchObject({
        author: String(users.admin.id),
        status: 'publish',
        url: `${t.baseUrl}/organizer/arts-${tok}/`,
        organizer: `Arts ${tok}`,
        global_id: `127.0.0.1?id=${res.body.id}`,
        global_id_lineage: [`127.0.0.1?id=${res.body.id}`],
      });
    });

    it('gives every key in order on a single read, with the Person JSON-LD', async () => {
      const tok = uid();
      const created = await create({
        organizer: `Hudson Arts ${tok}`,
        description: 'Community arts collective.',
        phone: '+1 518-555-0199',
        website: 'https://hudsonarts.example',
        email: 'info@hudsonarts.example',
        image: 'https://cdn.example.org/logo.png',
      });
      const res = await http(t).get(`${API}/organizers/${created.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'description',
        'slug',
        'image',
        'phone',
        'website',
        'email',
        'json_ld',
        'global_id',
        'global_id_lineage',
      ]);
      expect(res.body.description).toBe('<p>Community arts collective.</p>');
      expect(res.body.image).toStrictEqual({ url: 'https://cdn.example.org/logo.png', id: expect.any(Number), extension: 'png' });
      expect(res.body.json_ld).toStrictEqual({
        '@type': 'Person',
        name: `Hudson Arts ${tok}`,
        description: 'Community arts collective.',
        image: 'https://cdn.example.org/logo.png',
        url: 'https://hudsonarts.example',
        telephone: '+1 518-555-0199',
        email: 'info@hudsonarts.example',
        sameAs: 'https://hudsonarts.example',
      });
      const bare = await create({ organizer: `Bare ${tok}` });
      expect((await http(t).get(`${API}/organizers/${bare.id}`)).body.json_ld).toStrictEqual({
        '@type': 'Person',
        name: `Bare ${tok}`,
        description: '',
        url: '',
        telephone: '',
        email: '',
        sameAs: '',
      });
    });
  });

  describe('create and update (endpoints.md §5.2, §5.3)', () => {
    it('requires `organizer` and validates the shared fields; email is any text', async () => {
      const missing = await as('admin').post(`${API}/organizers`).send({ email: 'x' });
      expectError(missing, 400, 'rest_missing_callback_param');
      expect(missing.body.data.params).toEqual(['organizer']);
      expectInvalidParams(await as('admin').post(`${API}/organizers`).send({ organizer: '' }), 'organizer');
      expectInvalidParams(
        await as('admin').post(`${API}/organizers`).send({ organizer: 'X', website: 'foo', author: 'foo', date: 'foo', status: 'gone' }),
        'website',
        'author',
        'date',
        'status',
      );
      expect((await create({ organizer: `Mail ${uid()}`, email: 'not an address' })).email).toBe('not an address');
      expectError(await http(t).post(`${API}/organizers`).send({ organizer: 'X' }), 401, 'rest_forbidden');
      expectError(await as('subscriber').post(`${API}/organizers`).send({ organizer: 'X' }), 403, 'rest_forbidden');
      expect((await create({ organizer: `Co ${uid()}`, status: 'publish' }, 'contributor')).status).toBe('pending');
    });

    it('reuses duplicates by name and description (spec examples)', async () => {
      const tok = uid();
      const first = await create({ organizer: `An organizer ${tok}`, description: 'An organizer description' });
      expect((await create({ organizer: `an organizer ${tok}`, email: 'new@example.org' })).id).toBe(first.id);
      const again = await create({ organizer: `an organizer ${tok}`, description: 'an organizer description' });
      expect(again).toMatchObject({ id: first.id, email: 'new@example.org' });
      expect((await create({ organizer: `An organizer ${tok}`, description: 'other' })).id).not.toBe(first.id);
    });

    it('updates partially after checking the id, then the permission', async () => {
      expectInvalidParams(await http(t).patch(`${API}/organizers/999999`).send({ email: 'x' }), 'id');
      const o = await create({ organizer: `Upd ${uid()}`, phone: '1' });
      expectError(await as('author').patch(`${API}/organizers/${o.id}`).send({ email: 'x' }), 403, 'rest_forbidden');
      const res = await as('editor').patch(`${API}/organizers/${o.id}`).send({ email: 'x@y.z' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: o.id, phone: '1', email: 'x@y.z' });
      expectInvalidParams(await as('admin').put(`${API}/organizers/${o.id}`).send({ organizer: ' ' }), 'organizer');
    });
  });

  describe('read and delete (endpoints.md §5.3)', () => {
    it('uses the organizer error codes', async () => {
      expectInvalidParams(await http(t).get(`${API}/organizers/999999`), 'id');
      const venue = await as('admin')
        .post(`${API}/venues`)
        .send({ venue: `Not an organizer ${uid()}` });
      expectInvalidParams(await http(t).get(`${API}/organizers/${venue.body.id}`), 'id');
      const draft = await create({ organizer: `Hidden ${uid()}`, status: 'draft' });
      expectError(await http(t).get(`${API}/organizers/${draft.id}`), 403, 'organizer-not-accessible');
      expectError(await as('author').get(`${API}/organizers/${draft.id}`), 403, 'organizer-not-accessible');
      expectInvalidParams(await http(t).get(`${API}/organizers/by-slug/no-such-${uid()}`), 'slug');
      expect((await http(t).get(`${API}/organizers/by-slug/${(await create({ organizer: `Slug ${uid()}` })).slug}`)).status).toBe(200);
    });

    it('trashes, removes the organizer from every event, then answers 410', async () => {
      const tok = uid();
      const o = await create({ organizer: `Leaving ${tok}` });
      const other = await create({ organizer: `Staying ${tok}` });
      const linked = await event({ organizer: [o.id, other.id] });
      expect((await readEventLinks(t, users.admin.authorization, linked.id)).organizerIds).toEqual([o.id, other.id]);
      expectError(await as('author').delete(`${API}/organizers/${o.id}`), 403, 'rest_forbidden');

      const res = await as('admin').delete(`${API}/organizers/by-slug/leaving-${tok}`);

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: o.id, status: 'trash', slug: `leaving-${tok}__trashed` });
      expect((await readEventLinks(t, users.admin.authorization, linked.id)).organizerIds).toEqual([other.id]);
      expectError(await as('admin').delete(`${API}/organizers/${o.id}`), 410, 'organizer-is-in-trash');
    });
  });

  describe('list (endpoints.md §5.1, resources.md §8)', () => {
    it('answers the organizers envelope, pages, and 404 beyond the last page', async () => {
      const tok = uid();
      const a = await create({ organizer: `Listed ${tok} a`, date: '2021-01-01 00:00:00' });
      const b = await create({ organizer: `Listed ${tok} b`, date: '2022-01-01 00:00:00' });
      const res = await http(t).get(`${API}/organizers?search=${tok}&per_page=1`);
      expect(Object.keys(res.body)).toEqual(['organizers', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect(idsOf(res.body.organizers)).toEqual([b.id]);
      expect(res.body.rest_url.startsWith(`${root}/organizers/?`)).toBe(true);
      expect(queryOf(res.body.rest_url)).toEqual({ page: '1', per_page: '1', search: tok });
      expect(res.headers['x-tec-total']).toBe('2');
      expect(res.headers['x-tec-totalpages']).toBe('2');
      const second = await http(t).get(`${API}/organizers?search=${tok}&per_page=1&page=2`);
      expect(idsOf(second.body.organizers)).toEqual([a.id]);
      expect(queryOf(second.body.previous_rest_url)).toEqual({ per_page: '1', search: tok });
      expectError(await http(t).get(`${API}/organizers?search=${tok}&per_page=1&page=3`), 404, 'organizer-archive-page-not-found');
    });

    it('searches name, description, excerpt, phone, email and website — not other fields', async () => {
      const tok = uid();
      const byEmail = await create({ organizer: `Mailer ${tok}`, email: `desk-${tok}@example.org` });
      const byWebsite = await create({ organizer: `Web ${tok}`, website: `https://site-${tok}.example/path` });
      const byDescription = await create({ organizer: `Desc ${tok}`, description: `Runs the <b>jazz</b> club ${tok}` });
      expect(await listIds(`search=${encodeURIComponent(`desk ${tok} example`)}`)).toEqual([byEmail.id]);
      expect(await listIds(`search=${encodeURIComponent(`site-${tok}.example`)}`)).toEqual([byWebsite.id]);
      expect(await listIds(`search=${encodeURIComponent(`jazz club ${tok}`)}`)).toEqual([byDescription.id]);
      expect(await listIds(`search=${encodeURIComponent(`mailer desk-${tok}`)}`)).toEqual([]);
    });

    it('filters by event, has_events and only_with_upcoming through event_organizers', async () => {
      const tok = uid();
      const upcoming = await create({ organizer: `Ev ${tok} upcoming` });
      const past = await create({ organizer: `Ev ${tok} past` });
      const draftOnly = await create({ organizer: `Ev ${tok} draft` });
      const none = await create({ organizer: `Ev ${tok} none` });
      const e1 = (await event({ organizer: [past.id, upcoming.id], ...at('2000-06-01 00:00:00') })).id;
      await event({ organizer: [upcoming.id], ...at('2099-06-01 00:00:00') });
      await event({ organizer: [draftOnly.id], status: 'draft', ...at('2099-01-01 10:00:00') });

      expect(sortedIds(await listIds(`search=${tok}&event=${e1}`))).toEqual(sortedIds([upcoming.id, past.id]));
      expectInvalidParams(await http(t).get(`${API}/organizers?event=${none.id}`), 'event');
      expect(sortedIds(await listIds(`search=${tok}&has_events=1`))).toEqual(sortedIds([upcoming.id, past.id]));
      expect(sortedIds(await listIds(`search=${tok}&has_events=0`))).toEqual(sortedIds([draftOnly.id, none.id]));
      expect(await listIds(`search=${tok}&only_with_upcoming=true&has_events=true`)).toEqual([upcoming.id]);
      // the same organizer linked to several events appears once
      expect((await listIds(`search=${tok}`)).length).toBe(4);
    });

    it('applies the status parameter and visibility of auth.md §4', async () => {
      const tok = uid();
      const pub = await create({ organizer: `Vis ${tok} pub` });
      const mine = await create({ organizer: `Vis ${tok} mine`, status: 'draft' }, 'author');
      const theirs = await create({ organizer: `Vis ${tok} theirs`, status: 'draft' });
      expect(await listIds(`search=${tok}`)).toEqual([pub.id]);
      expectInvalidParams(await as('subscriber').get(`${API}/organizers?status=draft`), 'status');
      expect(sortedIds(await listIds(`search=${tok}`, 'author'))).toEqual(sortedIds([pub.id, mine.id]));
      expect(sortedIds(await listIds(`search=${tok}&status=draft`, 'editor'))).toEqual(sortedIds([mine.id, theirs.id]));
    });
  });

  describe('services for the events module', () => {
    const reads = () => t.app.get<LinkedItemReads<OrganizerEntity>>(ORGANIZER_TOKENS.reads);
    const writes = () => t.app.get<LinkedItemWrites<OrganizerEntity>>(ORGANIZER_TOKENS.writes);
    const admin = () => ({ id: users.admin.id, login: 'admin', role: 'administrator' as const });

    it('prepareCreate + createPrepared name the `organizer` parameter for invalid nested data and reuse duplicates', async () => {
      const tok = uid();
      // As event writes do: every check before the transaction, the write inside it.
      const inTx = async (input: Record<string, unknown>) => {
        const prepared = await writes().prepareCreate(admin(), input, true, OUTER);
        return t.app.get(UnitOfWork).run((tx, changes) => writes().createPrepared(admin(), prepared, tx, changes));
      };
      await expect(inTx({ email: 'no name' })).rejects.toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { organizer: 'The linked venue or organizer data is not valid.' } },
      });
      const made = await inTx({ organizer: `Nested ${tok}`, phone: '42' });
      expect(made).toMatchObject({ reused: false, entity: { name: `Nested ${tok}`, phone: '42', status: 'publish' } });
      expect(await inTx({ organizer: `NESTED ${tok}` })).toMatchObject({ reused: true, entity: { id: made.entity.id } });
      expect((await getOk(t, `${API}/organizers/${made.entity.id}`, users.admin.authorization)).slug).toBe(`nested-${tok}`);
    });

    it('embeds by id and knows which ids are organizers', async () => {
      const o = await create({ organizer: `Emb ${uid()}`, email: 'e@x.org' });
      expect(await reads().existingIds([o.id, 999999])).toEqual(new Set([o.id]));
      const embedded = (await reads().embed([o.id], { jsonLd: true })).get(o.id);
      expect(embedded).toMatchObject({ id: o.id, email: 'e@x.org', json_ld: { '@type': 'Person', email: 'e@x.org' } });
      expect(Object.keys(embedded ?? {}).slice(-3)).toEqual(['json_ld', 'global_id', 'global_id_lineage']);
    });
  });
});
