// What only categories do: the hierarchy (`parent`, descendants, nested URLs) — spec endpoints.md
// §6, resources.md §4. What categories share with tags is tested for both in terms.e2e-spec.ts.
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, rootOf } from '../../support/http';
import { Caller, createCategory, createTag, listIdsOf, makeUsers, readTerm, uid } from '../../support/api';
import { expectError, expectInvalidParams } from '../../support/expect';

const TERM_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls'];

describe('categories: the hierarchy', () => {
  let t: TestApp;
  let root: string;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    root = rootOf(t);
    ({ admin } = await makeUsers(t));
  }, 30_000); // a fresh app (migrations) and users with scrypt-hashed passwords: slow on a busy machine
  afterAll(async () => t?.close());

  const cat = (body: Record<string, unknown>) => createCategory(t, admin.authorization, body);
  const tag = (body: Record<string, unknown>) => createTag(t, admin.authorization, body);
  const read = (id: number) => readTerm(t, 'categories', id);
  const list = (query: string) => http(t).get(`${API}/categories?${query}`);
  const listIds = (query: string) => listIdsOf(t, 'categories', query);
  const post = (body: Record<string, unknown>) => http(t, admin.authorization).post(`${API}/categories`).send(body);
  const patch = (id: number, body: Record<string, unknown>) => http(t, admin.authorization).patch(`${API}/categories/${id}`).send(body);

  describe('representation', () => {
    it('gives a child category its parent, urls.up and a nested url', async () => {
      const tok = uid();
      const parent = await cat({ name: `Music ${tok}` });
      const child = await cat({ name: `Chamber ${tok}`, parent: parent.id });

      const res = await http(t).get(`${API}/categories/${child.id}`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body.parent).toBe(parent.id);
      expect(res.body.description).toBe('');
      expect(res.body.url).toBe(`${t.baseUrl}/events/category/music-${tok}/chamber-${tok}/`);
      expect(res.body.urls).toStrictEqual({
        self: `${root}/categories/${child.id}`,
        collection: `${root}/categories`,
        up: `${root}/categories/${parent.id}`,
      });
      expect(child).toStrictEqual(res.body);
    });
  });

  describe('order and orderby', () => {
    it('orderby=parent sorts by the parent id', async () => {
      const tok = uid();
      const firstParent = await cat({ name: `${tok} P1` });
      const secondParent = await cat({ name: `${tok} P2` });
      const underSecond = await cat({ name: `${tok} a`, parent: secondParent.id });
      const underFirst = await cat({ name: `${tok} b`, parent: firstParent.id });

      const res = await list(`hide_empty=false&orderby=parent&include=${underSecond.id},${underFirst.id}`);

      expect(res.status).toBe(200);
      expect(res.body.categories).toStrictEqual([underFirst, underSecond]);
    });

    it('breaks name ties by id', async () => {
      // the same name twice needs two levels: at one level it would be refused (term_exists)
      const tok = uid();
      const first = await cat({ name: `${tok} Same` });
      const other = await cat({ name: `${tok} Zed` });
      const second = await cat({ name: `${tok} SAME`, parent: other.id });

      expect(await listIds(`search=${tok}&hide_empty=false`)).toEqual([first.id, second.id, other.id]);
    });
  });

  describe('parent filter', () => {
    let top: { id: number };
    let childA: { id: number };
    let childB: { id: number };
    beforeAll(async () => {
      const tok = uid();
      top = await cat({ name: `${tok} Top` });
      childA = await cat({ name: `${tok} Child A`, parent: top.id });
      childB = await cat({ name: `${tok} Child B`, parent: top.id });
      await cat({ name: `${tok} Grandchild`, parent: childA.id });
    });

    it('returns direct children only', async () => {
      expect(await listIds(`hide_empty=false&parent=${top.id}`)).toEqual([childA.id, childB.id]);
    });

    it.each(['parent=', 'parent=foo', 'parent=999999'])('rejects %s', async (query) => {
      expectInvalidParams(await list(query), 'parent');
    });

    it('rejects a tag id as parent', async () => {
      const aTag = await tag({ name: `${uid()} parent tag` });

      expectInvalidParams(await list(`parent=${aTag.id}`), 'parent');
    });
  });

  describe('create', () => {
    it.each([
      ['an empty parent', { parent: '' }],
      ['a non-numeric parent', { parent: 'foo' }],
      ['an unknown parent', { parent: '2389' }],
    ])('rejects %s', async (_label, fields) => {
      expectInvalidParams(await post({ name: `Bad ${uid()}`, ...fields }), 'parent');
    });

    it('rejects a tag id as parent', async () => {
      const aTag = await tag({ name: `${uid()} tag` });

      expectInvalidParams(await post({ name: `Bad ${uid()}`, parent: aTag.id }), 'parent');
    });

    it('refuses the same name under the same parent', async () => {
      const tok = uid();
      const parent = await cat({ name: `Parent ${tok}` });
      const existing = await cat({ name: `Kid ${tok}`, parent: parent.id });

      const res = await post({ name: `kid ${tok}`, parent: parent.id });

      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(existing.id);
    });

    it('allows the same name under a different parent', async () => {
      const tok = uid();
      const topLevel = await cat({ name: `Shared ${tok}` });
      const parent = await cat({ name: `Holder ${tok}` });

      const res = await post({ name: `Shared ${tok}`, parent: String(parent.id) });

      expect(res.status).toBe(201);
      expect(res.body.parent).toBe(parent.id);
      expect(res.body.id).not.toBe(topLevel.id);
      expect(res.body.slug).toBe(`shared-${tok}-2`);
    });
  });

  describe('update', () => {
    it('allows a change of case of its own name and a name used at another level', async () => {
      const tok = uid();
      await cat({ name: `Elsewhere ${tok}` });
      const parent = await cat({ name: `Level ${tok}` });
      const term = await cat({ name: `Mine ${tok}`, parent: parent.id });

      const recased = await patch(term.id, { name: `MINE ${tok}` });
      expect(recased.status).toBe(200);
      expect(recased.body.name).toBe(`MINE ${tok}`);

      const reused = await patch(term.id, { name: `Elsewhere ${tok}` });
      expect(reused.status).toBe(200);
      expect(reused.body.name).toBe(`Elsewhere ${tok}`);
    });

    it.each([
      ['an empty parent', { parent: '' }],
      ['an unknown parent', { parent: 2389 }],
    ])('rejects %s', async (_label, fields) => {
      const term = await cat({ name: `Valid ${uid()}` });

      expectInvalidParams(await patch(term.id, fields), 'parent');
    });

    it('refuses itself as parent', async () => {
      const term = await cat({ name: `Selfish ${uid()}` });

      expectInvalidParams(await patch(term.id, { parent: term.id }), 'parent');
    });

    it('refuses a descendant as parent', async () => {
      const tok = uid();
      const top = await cat({ name: `Root ${tok}` });
      const mid = await cat({ name: `Mid ${tok}`, parent: top.id });
      const leaf = await cat({ name: `Leaf ${tok}`, parent: mid.id });

      expectInvalidParams(await patch(top.id, { parent: mid.id }), 'parent');
      expectInvalidParams(await patch(top.id, { parent: leaf.id }), 'parent');
      expect((await read(top.id)).parent).toBe(0);
    });

    it('moves a category under a parent, changing its url and adding urls.up', async () => {
      const tok = uid();
      const parent = await cat({ name: `Home ${tok}` });
      const term = await cat({ name: `Mover ${tok}` });

      const res = await http(t, admin.authorization).post(`${API}/categories/${term.id}`).send({ parent: parent.id });

      expect(res.status).toBe(200);
      expect(res.body.parent).toBe(parent.id);
      expect(res.body.url).toBe(`${t.baseUrl}/events/category/home-${tok}/mover-${tok}/`);
      expect(res.body.urls.up).toBe(`${root}/categories/${parent.id}`);
      expect(await read(term.id)).toStrictEqual(res.body);
    });
  });

  describe('delete', () => {
    it('re-attaches the children of a deleted category to its parent', async () => {
      const tok = uid();
      const grand = await cat({ name: `Grand ${tok}` });
      const middle = await cat({ name: `Middle ${tok}`, parent: grand.id });
      const kid = await cat({ name: `Kid ${tok}`, parent: middle.id });

      expect((await http(t, admin.authorization).delete(`${API}/categories/${middle.id}`)).status).toBe(200);

      const after = await read(kid.id);
      expect(after.parent).toBe(grand.id);
      expect(after.urls.up).toBe(`${root}/categories/${grand.id}`);
      expect(after.url).toBe(`${t.baseUrl}/events/category/grand-${tok}/kid-${tok}/`);
    });

    it('makes the children of a deleted top-level category top-level', async () => {
      const tok = uid();
      const top = await cat({ name: `Top ${tok}` });
      const kid = await cat({ name: `Kid ${tok}`, parent: top.id });

      expect((await http(t, admin.authorization).delete(`${API}/categories/${top.id}`)).status).toBe(200);

      const after = await read(kid.id);
      expect(after.parent).toBe(0);
      expect(after.urls).not.toHaveProperty('up');
      expect(after.url).toBe(`${t.baseUrl}/events/category/kid-${tok}/`);
    });
  });
});
