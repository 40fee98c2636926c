// The tag routes (spec endpoints.md §6, resources.md §4 and §8, auth.md, errors.md).
// Tags behave like categories except that they have no `parent` and need the editor role to write.
import { createTestApp, TestApp } from '../support/test-app';
import { API, http, queryOf } from '../support/http';
import {
  apiRoot,
  basicAuth,
  createTerm,
  expectError,
  expectInvalidParams,
  idsOf,
  readTerm,
  reassign,
  seedEvent,
  seedVenueId,
  setPublished,
  TermBody,
  token,
} from '../support/terms';

const TERM_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'];
const JSON_TYPE = 'application/json; charset=UTF-8';

describe('tags', () => {
  let t: TestApp;
  let root: string;
  const users: Record<'admin' | 'editor' | 'author' | 'contributor' | 'subscriber', string> = {} as never;

  beforeAll(async () => {
    t = await createTestApp();
    root = apiRoot(t);
    users.admin = (await t.userHeader('admin', 'administrator')).authorization;
    users.editor = (await t.userHeader('ed', 'editor')).authorization;
    users.author = (await t.userHeader('au', 'author')).authorization;
    users.contributor = (await t.userHeader('co', 'contributor')).authorization;
    users.subscriber = (await t.userHeader('su', 'subscriber')).authorization;
  });
  afterAll(async () => t?.close());

  const tag = (body: Record<string, unknown>) => createTerm(t, users.admin, 'tags', body);
  const cat = (body: Record<string, unknown>) => createTerm(t, users.admin, 'categories', body);
  const list = (query: string) => http(t).get(`${API}/tags?${query}`);
  const listIds = async (query: string) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    return idsOf(res.body.tags);
  };

  describe('representation', () => {
    it('gives a tag the keys of resources.md §4, in order, without parent and urls.up', async () => {
      const tok = token();
      const created = await tag({ name: `Outdoor ${tok}`, description: 'Under the <i>sky</i>' });

      const res = await http(t).get(`${API}/tags/${created.id}`);

      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body).toStrictEqual({
        id: created.id,
        count: 0,
        description: 'Under the <i>sky</i>',
        name: `Outdoor ${tok}`,
        slug: `outdoor-${tok}`,
        taxonomy: 'tag',
        meta: [],
        url: `${t.baseUrl}/tag/outdoor-${tok}/`,
        urls: { self: `${root}/tags/${created.id}`, collection: `${root}/tags` },
      });
      expect(created).toStrictEqual(res.body);
    });

    it('ignores a parent sent with a new tag', async () => {
      const res = await http(t, users.admin).post(`${API}/tags`).send({ name: `Orphan ${token()}`, parent: 'foo' });

      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body.urls).not.toHaveProperty('up');
    });

    it('answers errors as JSON with the same Content-Type', async () => {
      const res = await http(t).get(`${API}/tags/999999`);

      expectError(res, 400, 'rest_invalid_param');
      expect(res.headers['content-type']).toBe(JSON_TYPE);
    });
  });

  describe('list envelope and links', () => {
    let tok: string;
    let terms: TermBody[];
    beforeAll(async () => {
      tok = token();
      terms = [];
      for (const name of ['Alpha', 'Beta', 'Gamma']) terms.push(await tag({ name: `${name} ${tok}` }));
    });
    const scoped = (extra: string) => list(`search=${tok}&hide_empty=false&${extra}`);

    it('orders the envelope keys rest_url, total, total_pages, tags, next_rest_url and sets X-TEC headers', async () => {
      const res = await scoped('per_page=1');

      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags', 'next_rest_url']);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(3);
      expect(res.headers['x-tec-total']).toBe('3');
      expect(res.headers['x-tec-totalpages']).toBe('3');
      expect(idsOf(res.body.tags)).toEqual([terms[0].id]);
      expect(Object.keys(res.body.tags[0])).toEqual(TERM_KEYS);
    });

    it('gives a middle page both links and the last page previous_rest_url only', async () => {
      const middle = await scoped('per_page=1&page=2');
      expect(Object.keys(middle.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags', 'next_rest_url', 'previous_rest_url']);
      expect(idsOf(middle.body.tags)).toEqual([terms[1].id]);

      const last = await scoped('per_page=1&page=3');
      expect(Object.keys(last.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags', 'previous_rest_url']);
      expect(idsOf(last.body.tags)).toEqual([terms[2].id]);
    });

    it('writes only the supplied parameters into rest_url and changes only page in the links', async () => {
      const res = await scoped('per_page=1&page=2');

      for (const link of [res.body.rest_url, res.body.next_rest_url, res.body.previous_rest_url]) {
        const url = new URL(link);
        expect(`${url.origin}${url.pathname}`).toBe(`${root}/tags/`);
      }
      const supplied = { search: tok, hide_empty: 'false', per_page: '1' };
      expect(queryOf(res.body.rest_url)).toEqual({ ...supplied, page: '2' });
      expect(queryOf(res.body.next_rest_url)).toEqual({ ...supplied, page: '3' });
      expect(queryOf(res.body.previous_rest_url)).toEqual(supplied);

      const last = await scoped('per_page=1&page=3');
      expect(queryOf(last.body.previous_rest_url)).toEqual({ ...supplied, page: '2' });
    });

    it('writes rest_url without any query when no parameter was given', async () => {
      const res = await http(t).get(`${API}/tags`);

      expect(res.status).toBe(200);
      expect(res.body.rest_url).toBe(`${root}/tags/`);
    });

    it('answers a page beyond the last with 200, an empty array and previous_rest_url', async () => {
      const res = await scoped('per_page=2&page=4');

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags', 'previous_rest_url']);
      expect(res.body).toMatchObject({ tags: [], total: 3, total_pages: 2 });
      expect(queryOf(res.body.previous_rest_url).page).toBe('3');
    });

    it('reports total 0 and total_pages 0 when nothing matches', async () => {
      const res = await list(`search=${tok}nomatch&hide_empty=false`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags']);
      expect(res.body).toMatchObject({ tags: [], total: 0, total_pages: 0 });
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });

    it('ignores a parent parameter', async () => {
      expect(await listIds(`search=${tok}&hide_empty=false&parent=foo`)).toEqual(idsOf(terms));
    });
  });

  describe('per_page', () => {
    let tok: string;
    let terms: TermBody[];
    beforeAll(async () => {
      tok = token();
      terms = [];
      for (let i = 0; i <= 50; i++) terms.push(await tag({ name: `${tok} ${String(i).padStart(2, '0')}` }));
    });

    it('defaults to 10', async () => {
      const res = await list(`search=${tok}&hide_empty=false`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body.tags)).toEqual(idsOf(terms.slice(0, 10)));
      expect(res.body.total_pages).toBe(6);
    });

    it('is clamped to 50', async () => {
      const first = await list(`search=${tok}&hide_empty=false&per_page=500`);
      expect(first.status).toBe(200);
      expect(idsOf(first.body.tags)).toEqual(idsOf(terms.slice(0, 50)));
      expect(first.body).toMatchObject({ total: 51, total_pages: 2 });
      expect(first.headers['x-tec-totalpages']).toBe('2');

      const second = await list(`search=${tok}&hide_empty=false&per_page=500&page=2`);
      expect(idsOf(second.body.tags)).toEqual([terms[50].id]);
    });
  });

  describe('page and per_page validation', () => {
    it.each(['foo', '0', '-1', '1.5'])('rejects page=%s and per_page=%s together', async (bad) => {
      expectInvalidParams(await list(`page=${bad}&per_page=${bad}`), 'page', 'per_page');
    });

    it('accepts per_page=3.0 as 3', async () => {
      const tok = token();
      const terms: TermBody[] = [];
      for (const name of ['1st', '2nd', '3rd', '4th']) terms.push(await tag({ name: `${tok} ${name}` }));

      const res = await list(`search=${tok}&hide_empty=false&per_page=3.0`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body.tags)).toEqual(idsOf(terms.slice(0, 3)));
      expect(res.body.total_pages).toBe(2);
    });
  });

  describe('hide_empty', () => {
    let used: TermBody;
    let empty: TermBody;
    beforeAll(async () => {
      const tok = token();
      used = await tag({ name: `${tok} Used` });
      empty = await tag({ name: `${tok} Empty` });
      await seedEvent(t, { tag: [used.id] });
    });

    it('hides tags without published events by default', async () => {
      expect(await listIds(`include=${used.id},${empty.id}`)).toEqual([used.id]);
    });

    it.each(['false', '0'])('shows them with hide_empty=%s', async (value) => {
      expect(await listIds(`include=${used.id},${empty.id}&hide_empty=${value}`)).toEqual([empty.id, used.id]);
    });

    it('rejects hide_empty=maybe', async () => {
      expectInvalidParams(await list('hide_empty=maybe'), 'hide_empty');
    });
  });

  describe('search', () => {
    it('matches the name or the slug, case-insensitively', async () => {
      const tok = token();
      const byName = await tag({ name: `${tok} Red Kite` });
      const bySlug = await tag({ name: 'Some bird', slug: `${tok}-osprey` });

      expect(await listIds(`hide_empty=false&search=${encodeURIComponent(`${tok.toUpperCase()} RED`)}`)).toEqual([byName.id]);
      expect(await listIds(`hide_empty=false&search=${tok}-OSPREY`)).toEqual([bySlug.id]);
    });

    it('treats % and _ literally', async () => {
      const tok = token();
      const percent = await tag({ name: `${tok}d%p` });
      await tag({ name: `${tok}dxp` });
      const underscore = await tag({ name: `${tok}a_b` });
      await tag({ name: `${tok}axb` });

      expect(await listIds(`hide_empty=false&search=${encodeURIComponent(`${tok}d%p`)}`)).toEqual([percent.id]);
      expect(await listIds(`hide_empty=false&search=${tok}a_b`)).toEqual([underscore.id]);
    });
  });

  describe('include, exclude and slug', () => {
    let tok: string;
    let a: TermBody;
    let b: TermBody;
    let c: TermBody;
    beforeAll(async () => {
      tok = token();
      a = await tag({ name: `${tok} A` });
      b = await tag({ name: `${tok} B` });
      c = await tag({ name: `${tok} C` });
    });

    it.each([
      ['a comma list', (x: number, y: number) => `include=${x},${y}`],
      ['an encoded comma list', (x: number, y: number) => `include=${x}%2C${y}`],
      ['repeated brackets', (x: number, y: number) => `include[]=${x}&include[]=${y}`],
      ['indexed brackets', (x: number, y: number) => `include[0]=${x}&include[1]=${y}`],
    ])('include as %s returns only those tags', async (_form, query) => {
      expect(await listIds(`hide_empty=false&${query(a.id, c.id)}`)).toEqual([a.id, c.id]);
    });

    it('leaves out excluded tags', async () => {
      expect(await listIds(`hide_empty=false&search=${tok}&exclude=${b.id}`)).toEqual([a.id, c.id]);
    });

    it.each(['exclude=2389', 'exclude=', 'include=2389'])('rejects %s', async (query) => {
      expectInvalidParams(await list(query), query.split('=')[0]);
    });

    it('rejects a category id in include', async () => {
      const aCategory = await cat({ name: `${tok} category` });

      expectInvalidParams(await list(`include=${a.id},${aCategory.id}`), 'include');
    });

    it('filters on an exact slug', async () => {
      expect(await listIds(`hide_empty=false&slug=${b.slug}`)).toEqual([b.id]);
      expect(await listIds(`hide_empty=false&slug=${tok}`)).toEqual([]);
    });
  });

  describe('order and orderby', () => {
    let tok: string;
    const term: Record<'A' | 'b' | 'C', TermBody> = {} as never;
    beforeAll(async () => {
      tok = token();
      term.b = await tag({ name: `b ${tok}`, slug: `${tok}-yy` });
      term.C = await tag({ name: `C ${tok}`, slug: `${tok}-xx` });
      term.A = await tag({ name: `A ${tok}`, slug: `${tok}-zz` });
      await seedEvent(t, { tag: [term.A.id, term.C.id] });
      await seedEvent(t, { tag: [term.A.id] });
    });
    const names = (tags: TermBody[]) => tags.map((x) => Object.entries(term).find(([, y]) => y.id === x.id)?.[0] ?? x.id).join(' ');

    it.each([
      ['', 'A b C'],
      ['order=desc', 'C b A'],
      ['order=DESC', 'C b A'],
      ['order=anything', 'C b A'],
      ['orderby=id', 'b C A'],
      ['orderby=slug', 'C b A'],
      ['orderby=count', 'b C A'],
      ['orderby=unknown', 'A b C'],
    ])('%s → %s', async (query, expected) => {
      const res = await list(`search=${tok}&hide_empty=false&${query}`);

      expect(res.status).toBe(200);
      expect(names(res.body.tags)).toBe(expected);
      for (const item of res.body.tags) expect(Object.keys(item)).toEqual(TERM_KEYS);
    });

    it('orderby=include keeps the order of the include list', async () => {
      const res = await list(`hide_empty=false&orderby=include&include=${term.C.id},${term.A.id},${term.b.id}`);

      expect(names(res.body.tags)).toBe('C A b');
    });
  });

  describe('post and event filters', () => {
    let a: TermBody;
    let b: TermBody;
    let onDraft: TermBody;
    let first: number;
    let second: number;
    let draft: number;
    beforeAll(async () => {
      const tok = token();
      a = await tag({ name: `${tok} A` });
      b = await tag({ name: `${tok} B` });
      onDraft = await tag({ name: `${tok} Draft only` });
      const aCategory = await cat({ name: `${tok} category` });
      first = await seedEvent(t, { tag: [a.id], category: [aCategory.id] });
      second = await seedEvent(t, { tag: [b.id] });
      draft = await seedEvent(t, { tag: [onDraft.id] }, false);
    });

    it('returns only the tags of that event, ignoring hide_empty', async () => {
      expect(await listIds(`post=${first}`)).toEqual([a.id]);
      expect(await listIds(`event=${second}`)).toEqual([b.id]);
      expect(await listIds(`post=${draft}`)).toEqual([onDraft.id]);
    });

    it('lets event win over post', async () => {
      expect(await listIds(`post=${first}&event=${second}`)).toEqual([b.id]);
    });

    it.each(['post=999999', 'post=foo', 'post=', 'event=foo'])('rejects %s', async (query) => {
      expectInvalidParams(await list(query), query.split('=')[0]);
    });

    it('rejects an id that is not an event', async () => {
      expectInvalidParams(await list(`event=${await seedVenueId(t)}`), 'event');
    });
  });

  describe('create', () => {
    it('answers 201 with count 0 for a JSON body', async () => {
      const tok = token();
      const res = await http(t, users.admin).post(`${API}/tags`).send({ name: `Family ${tok}`, description: 'All ages', colour: 'ignored' });

      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body).toMatchObject({ count: 0, name: `Family ${tok}`, slug: `family-${tok}`, description: 'All ages', taxonomy: 'tag' });
      expect(await readTerm(t, 'tags', res.body.id)).toStrictEqual(res.body);
    });

    it('accepts a form-encoded body', async () => {
      const tok = token();
      const res = await http(t, users.admin).post(`${API}/tags`).type('form').send(`name=Free+${tok}`);

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: `Free ${tok}`, count: 0 });
    });

    it('answers rest_missing_callback_param with params ["name"] when name is missing', async () => {
      const res = await http(t, users.admin).post(`${API}/tags`).send({});

      expectError(res, 400, 'rest_missing_callback_param');
      expect(res.body.data.params).toEqual(['name']);
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['an empty description', { description: '' }, 'description'],
      ['an empty slug', { slug: '' }, 'slug'],
    ])('rejects %s', async (_label, fields, param) => {
      expectInvalidParams(await http(t, users.admin).post(`${API}/tags`).send({ name: `Bad ${token()}`, ...fields }), param);
    });

    it('normalises an explicit slug', async () => {
      const res = await http(t, users.admin).post(`${API}/tags`).send({ name: `Slugged ${token()}`, slug: 'My Slug!' });

      expect(res.status).toBe(201);
      expect(res.body.slug).toBe('my-slug');
      expect(res.body.url).toBe(`${t.baseUrl}/tag/my-slug/`);
    });

    it('suffixes a generated slug that is taken', async () => {
      const tok = token();
      const first = await tag({ name: `Collide ${tok}` });
      const second = await tag({ name: `Collide! ${tok}` });

      expect([first.slug, second.slug]).toEqual([`collide-${tok}`, `collide-${tok}-2`]);
    });

    it('refuses an explicit slug that is taken with duplicate_term_slug', async () => {
      const tok = token();
      await tag({ name: `Owner ${tok}`, slug: `${tok}-taken` });

      expectError(await http(t, users.admin).post(`${API}/tags`).send({ name: `Other ${tok}`, slug: `${tok}-taken` }), 400, 'duplicate_term_slug');
    });

    it('allows the slug of a category (slugs are unique per kind)', async () => {
      const tok = token();
      const aCategory = await cat({ name: `Shared ${tok}` });

      const res = await http(t, users.admin).post(`${API}/tags`).send({ name: `Shared ${tok}`, slug: aCategory.slug });

      expect(res.status).toBe(201);
      expect(res.body.slug).toBe(aCategory.slug);
      expect(res.body.id).not.toBe(aCategory.id);
    });

    it('refuses an existing name, case-insensitively, with term_exists and data.term_id', async () => {
      const tok = token();
      const existing = await tag({ name: `Twin ${tok}` });

      const res = await http(t, users.admin).post(`${API}/tags`).send({ name: `TWIN ${tok.toUpperCase()}` });

      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(existing.id);
    });

    it('answers rest_invalid_json for a malformed JSON body', async () => {
      const res = await http(t, users.admin).post(`${API}/tags`).set('Content-Type', 'application/json').send('{"name": ');

      expectError(res, 400, 'rest_invalid_json');
    });
  });

  describe('permissions', () => {
    const create = (authorization?: string) => http(t, authorization).post(`${API}/tags`).send({ name: `Perm ${token()}` });

    it('answers 401 rest_forbidden to an anonymous create', async () => {
      expectError(await create(), 401, 'rest_forbidden');
    });

    it.each(['subscriber', 'contributor', 'author'] as const)('answers 403 rest_forbidden to a %s', async (role) => {
      expectError(await create(users[role]), 403, 'rest_forbidden');
    });

    it.each(['editor', 'admin'] as const)('lets an %s create, update and delete', async (role) => {
      const created = await create(users[role]);
      expect(created.status).toBe(201);

      const updated = await http(t, users[role]).patch(`${API}/tags/${created.body.id}`).send({ description: `by ${role}` });
      expect(updated.status).toBe(200);
      expect(updated.body.description).toBe(`by ${role}`);

      expect((await http(t, users[role]).delete(`${API}/tags/${created.body.id}`)).status).toBe(200);
    });

    it('refuses an author the update and delete of a tag', async () => {
      const term = await tag({ name: `Guarded ${token()}` });

      expectError(await http(t, users.author).put(`${API}/tags/${term.id}`).send({ description: 'x' }), 403, 'rest_forbidden');
      expectError(await http(t, users.author).delete(`${API}/tags/${term.id}`), 403, 'rest_forbidden');
      expectError(await http(t).delete(`${API}/tags/${term.id}`), 401, 'rest_forbidden');
      expect(await readTerm(t, 'tags', term.id)).toStrictEqual(term);
    });

    it('answers 401 for bad credentials on a public GET', async () => {
      expectError(await http(t, basicAuth('admin', 'wrong')).get(`${API}/tags`), 401, 'incorrect_password');
      expectError(await http(t, basicAuth('ghost', 'wrong')).get(`${API}/tags`), 401, 'invalid_username');
    });

    it('validates before checking permission', async () => {
      expectInvalidParams(await http(t, users.subscriber).delete(`${API}/tags/999999`), 'id');
      expectInvalidParams(await http(t).post(`${API}/tags/999999`).send({ name: 'x' }), 'id');
      expectInvalidParams(await http(t, users.author).post(`${API}/tags`).send({ name: '' }), 'name');
    });
  });

  describe('read by id', () => {
    it('answers 200 with the tag, also with a trailing slash', async () => {
      const term = await tag({ name: `Readable ${token()}` });

      const slashed = await http(t).get(`${API}/tags/${term.id}/`);

      expect(slashed.status).toBe(200);
      expect(slashed.body).toStrictEqual(term);
    });

    it('answers 400 for an unknown id and for a category id', async () => {
      const aCategory = await cat({ name: `Not a tag ${token()}` });

      expectInvalidParams(await http(t).get(`${API}/tags/999999`), 'id');
      expectInvalidParams(await http(t).get(`${API}/tags/${aCategory.id}`), 'id');
    });

    it('answers 404 rest_no_route for a non-digit id', async () => {
      expectError(await http(t).get(`${API}/tags/abc`), 404, 'rest_no_route');
    });
  });

  describe('update', () => {
    it.each(['post', 'put', 'patch'] as const)('renames with %s as a partial update', async (method) => {
      const tok = token();
      const term = await tag({ name: `Old ${tok}`, description: 'keep me' });

      const res = await http(t, users.editor)[method](`${API}/tags/${term.id}`).send({ name: `New ${tok}` });

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body).toMatchObject({ id: term.id, name: `New ${tok}`, description: 'keep me' });
      expect(await readTerm(t, 'tags', term.id)).toStrictEqual(res.body);
    });

    it('refuses a name used by another tag with term_exists', async () => {
      const tok = token();
      const other = await tag({ name: `Taken ${tok}` });
      const term = await tag({ name: `Free ${tok}` });

      const res = await http(t, users.admin).patch(`${API}/tags/${term.id}`).send({ name: `taken ${tok}` });

      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(other.id);
    });

    it('refuses a slug used by another tag with duplicate_term_slug', async () => {
      const tok = token();
      const other = await tag({ name: `Slug owner ${tok}` });
      const term = await tag({ name: `Slug taker ${tok}` });

      expectError(await http(t, users.admin).patch(`${API}/tags/${term.id}`).send({ slug: other.slug }), 400, 'duplicate_term_slug');
      expect((await readTerm(t, 'tags', term.id)).slug).toBe(term.slug);
    });

    it('changes the url with the slug', async () => {
      const tok = token();
      const term = await tag({ name: `Moving ${tok}` });

      const res = await http(t, users.admin).put(`${API}/tags/${term.id}`).send({ slug: `${tok}-moved` });

      expect(res.status).toBe(200);
      expect(res.body.url).toBe(`${t.baseUrl}/tag/${tok}-moved/`);
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['an empty description', { description: '' }, 'description'],
    ])('rejects %s', async (_label, fields, param) => {
      const term = await tag({ name: `Valid ${token()}` });

      expectInvalidParams(await http(t, users.admin).patch(`${API}/tags/${term.id}`).send(fields), param);
    });

    it('answers 400 for an unknown id', async () => {
      expectInvalidParams(await http(t, users.admin).put(`${API}/tags/999999`).send({ name: 'Ghost' }), 'id');
    });
  });

  describe('delete', () => {
    it('answers 200 with the tag as it was, count included, and removes it from events', async () => {
      const tok = token();
      const doomed = await tag({ name: `Doomed ${tok}` });
      const survivor = await tag({ name: `Survivor ${tok}` });
      const event = await seedEvent(t, { tag: [doomed.id, survivor.id] });
      const before = await readTerm(t, 'tags', doomed.id);
      expect(before.count).toBe(1);

      const res = await http(t, users.editor).delete(`${API}/tags/${doomed.id}`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body).toStrictEqual(before);
      expectInvalidParams(await http(t).get(`${API}/tags/${doomed.id}`), 'id');
      expect(await listIds(`post=${event}`)).toEqual([survivor.id]);
    });

    it.each([
      ['put', '/tags'],
      ['delete', '/tags'],
      ['patch', '/tags/abc'],
    ] as const)('answers 404 rest_no_route to %s %s', async (method, path) => {
      expectError(await http(t, users.admin)[method](`${API}${path}`), 404, 'rest_no_route');
    });
  });

  describe('counts', () => {
    it('counts published events only and follows publication changes', async () => {
      const term = await tag({ name: `Counted ${token()}` });
      await seedEvent(t, { tag: [term.id] });
      const draft = await seedEvent(t, { tag: [term.id] }, false);
      expect((await readTerm(t, 'tags', term.id)).count).toBe(1);

      await setPublished(t, draft, true);
      expect((await readTerm(t, 'tags', term.id)).count).toBe(2);

      await setPublished(t, draft, false);
      expect((await readTerm(t, 'tags', term.id)).count).toBe(1);
    });

    it('moves the count when an event gets other tags', async () => {
      const tok = token();
      const before = await tag({ name: `Before ${tok}` });
      const after = await tag({ name: `After ${tok}` });
      const event = await seedEvent(t, { tag: [before.id] });

      await reassign(t, event, 'tag', [after.id], true);

      expect((await readTerm(t, 'tags', before.id)).count).toBe(0);
      expect((await readTerm(t, 'tags', after.id)).count).toBe(1);
      expect(await listIds(`include=${before.id},${after.id}`)).toEqual([after.id]);
    });
  });
});
