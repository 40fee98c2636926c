// Restore from the trash: an update giving a status to a trashed event, venue or organizer, by id
// and by slug (spec beyond.md #2, endpoints.md §3, §4.6, §4.8, §5.3, auth.md §2).
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createCategory, createNamed, ItemRoute, makeUsers, NAME_FIELD, readTerm, uid } from '../../support/api';
import { expectError, expectStatus } from '../../support/expect';

type Users = Awaited<ReturnType<typeof makeUsers>>;

type Kind = ItemRoute;
const KINDS: Kind[] = ['events', 'venues', 'organizers'];
/** POST, PUT and PATCH are the same partial update (endpoints.md §0): each restores. */
const METHODS = ['post', 'put', 'patch'] as const;

describe('restore from the trash (beyond.md #2)', () => {
  let t: TestApp;
  let users: Users;
  const as = (caller?: Caller) => http(t, caller?.authorization);

  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
  }, 30_000);
  afterAll(async () => t?.close());

  /** A new item of `kind` by `caller` (administrator by default) with a slug of its own. */
  async function make(kind: Kind, fields: Record<string, unknown> = {}, caller: Caller = users.admin) {
    const slug = `back-${uid()}`;
    return createNamed(t, caller, kind, 'Back', { slug, ...fields });
  }

  /** DELETE (to the trash) as `caller`; returns the trash slug. */
  async function trash(kind: Kind, id: number, caller: Caller = users.admin): Promise<string> {
    const res = await as(caller).delete(`${API}/${kind}/${id}`);
    expectStatus(res, 200);
    expect(res.body.status).toBe('trash');
    return res.body.slug as string;
  }

  /** The ids an anonymous reader's list shows for this token (events over every date). */
  async function listedIds(kind: Kind, token: string): Promise<number[]> {
    const dates = kind === 'events' ? 'start_date=2000-01-01&end_date=2100-01-01&' : '';
    const res = await as().get(`${API}/${kind}?${dates}search=${token}`);
    expectStatus(res, 200);
    return (res.body[kind] as { id: number }[]).map((item) => item.id);
  }

  describe.each(KINDS)('%s', (kind) => {
    it.each(METHODS)('%s by id: the item leaves the trash with its slug, and lists show it again', async (method) => {
      const item = await make(kind);
      const trashSlug = await trash(kind, item.id);
      expect(trashSlug).toBe(`${item.slug}__trashed`);
      expect(await listedIds(kind, item.token)).toEqual([]); // read (and cached) before the restore

      const res = await as(users.admin)[method](`${API}/${kind}/${item.id}`).send({ status: 'publish' });

      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: item.id, status: 'publish', slug: item.slug });
      expect(await listedIds(kind, item.token)).toEqual([item.id]);
      const read = await as().get(`${API}/${kind}/by-slug/${item.slug}`);
      expectStatus(read, 200);
      expect(read.body.id).toBe(item.id);
    });

    it('by slug (the trash slug): restored as a draft, suffix removed', async () => {
      const item = await make(kind);
      const trashSlug = await trash(kind, item.id);

      const res = await as(users.admin).post(`${API}/${kind}/by-slug/${trashSlug}`).send({ status: 'draft' });

      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: item.id, status: 'draft', slug: item.slug });
      const read = await as(users.admin).get(`${API}/${kind}/by-slug/${item.slug}`);
      expectStatus(read, 200);
      expect(read.body).toMatchObject({ id: item.id, status: 'draft' });
    });

    it('when another item took the slug meanwhile, the restored one gets the first free variant', async () => {
      const item = await make(kind);
      await trash(kind, item.id);
      const taker = await make(kind, { slug: item.slug });
      expect(taker.slug).toBe(item.slug);

      const res = await as(users.admin).patch(`${API}/${kind}/${item.id}`).send({ status: 'publish' });

      expectStatus(res, 200);
      expect(res.body.status).toBe('publish');
      expect(res.body.slug).toBe(`${item.slug}-2`);
      const read = await as().get(`${API}/${kind}/by-slug/${item.slug}`);
      expect(read.body.id).toBe(taker.id);
    });

    it('an update without a status leaves the item in the trash, under its trash slug', async () => {
      const item = await make(kind);
      const trashSlug = await trash(kind, item.id);
      const res = await as(users.admin)
        .post(`${API}/${kind}/${item.id}`)
        .send({ [NAME_FIELD[kind]]: `Renamed ${item.token}` });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ status: 'trash', slug: trashSlug });
      expect(await listedIds(kind, item.token)).toEqual([]);
    });

    it('a restored item can be trashed again (no 410), and the trash is judged by the new status', async () => {
      const item = await make(kind, { status: 'draft' }, users.contributor);
      await trash(kind, item.id, users.contributor);
      expectStatus(await as(users.contributor).post(`${API}/${kind}/${item.id}`).send({ status: 'draft' }), 200);
      expect(await trash(kind, item.id, users.contributor)).toBe(`${item.slug}__trashed`);
    });
  });

  describe('permissions (auth.md §2: edit that item, with a status the caller may use)', () => {
    it.each(KINDS)('%s: anonymous 401, subscriber 403; the item stays in the trash', async (kind) => {
      const item = await make(kind);
      await trash(kind, item.id);
      expectError(await as().post(`${API}/${kind}/${item.id}`).send({ status: 'publish' }), 401, 'rest_forbidden');
      expectError(await as(users.subscriber).post(`${API}/${kind}/${item.id}`).send({ status: 'publish' }), 403, 'rest_forbidden');
      const read = await as(users.admin).post(`${API}/${kind}/${item.id}`).send({});
      expect(read.body.status).toBe('trash');
    });

    it.each(KINDS)("%s: a contributor may not restore another's item, nor an own item trashed after it was published", async (kind) => {
      const others = await make(kind, { status: 'draft' });
      await trash(kind, others.id);
      expectError(await as(users.contributor).post(`${API}/${kind}/${others.id}`).send({ status: 'draft' }), 403, 'rest_forbidden');

      const own = await make(kind, {}, users.contributor);
      expectStatus(await as(users.admin).post(`${API}/${kind}/${own.id}`).send({ status: 'publish' }), 200);
      await trash(kind, own.id);
      expectError(await as(users.contributor).post(`${API}/${kind}/${own.id}`).send({ status: 'draft' }), 403, 'rest_forbidden');
    });

    it.each(KINDS)('%s: a contributor restores an own draft; asking for publish gives pending (endpoints.md §3 rule 3)', async (kind) => {
      const own = await make(kind, { status: 'draft' }, users.contributor);
      await trash(kind, own.id, users.contributor);
      const res = await as(users.contributor).post(`${API}/${kind}/${own.id}`).send({ status: 'publish' });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ status: 'pending', slug: own.slug });
    });

    it.each(KINDS)("%s: an author restores an own published item; an editor an administrator's", async (kind) => {
      const own = await make(kind, {}, users.author);
      await trash(kind, own.id, users.author);
      expect((await as(users.author).put(`${API}/${kind}/${own.id}`).send({ status: 'publish' })).body).toMatchObject({ status: 'publish', slug: own.slug });
      const admins = await make(kind);
      await trash(kind, admins.id);
      expectStatus(await as(users.editor).patch(`${API}/${kind}/${admins.id}`).send({ status: 'private' }), 200);
      expectError(await as(users.author2).post(`${API}/${kind}/${own.id}`).send({ status: 'publish' }), 403, 'rest_forbidden');
    });

    it.each(KINDS)('%s: trash is not a status a write may give (only DELETE trashes)', async (kind) => {
      const item = await make(kind);
      const res = await as(users.admin).post(`${API}/${kind}/${item.id}`).send({ status: 'trash' });
      expectError(res, 400, 'rest_invalid_param');
    });
  });

  it('a restored published event counts in its terms again', async () => {
    const category = await createCategory(t, users.admin.authorization, { name: `Cat ${uid()}` });
    const event = await make('events', { categories: [category.id] });
    expect((await readTerm(t, 'categories', category.id)).count).toBe(1);
    await trash('events', event.id);
    expect((await readTerm(t, 'categories', category.id)).count).toBe(0);
    expectStatus(await as(users.admin).post(`${API}/events/${event.id}`).send({ status: 'draft' }), 200);
    expect((await readTerm(t, 'categories', category.id)).count).toBe(0);
    expectStatus(await as(users.admin).post(`${API}/events/${event.id}`).send({ status: 'publish' }), 200);
    expect((await readTerm(t, 'categories', category.id)).count).toBe(1);
  });
});
