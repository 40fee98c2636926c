// The category routes (spec endpoints.md §6, resources.md §4 and §8, auth.md, errors.md).
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

const TERM_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls'];
const JSON_TYPE = 'application/json; charset=UTF-8';

describe('categories', () => {
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

  const cat = (body: Record<string, unknown>) => createTerm(t, users.admin, 'categories', body);
  const tag = (body: Record<string, unknown>) => createTerm(t, users.admin, 'tags', body);
  const list = (query: string) => http(t).get(`${API}/categories?${query}`);
  const listIds = async (query: string) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    return idsOf(res.body.categories);
  };

  describe('representation', () => {
    it('gives a top-level category the keys of resources.md §4, in order, without urls.up', async () => {
      const tok = token();
      const created = await cat({ name: `Film ${tok}`, description: 'Moving <b>pictures</b>' });

      const res = await http(t).get(`${API}/categories/${created.id}`);

      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body).toStrictEqual({
        id: created.id,
        count: 0,
        description: 'Moving <b>pictures</b>',
        name: `Film ${tok}`,
        slug: `film-${tok}`,
        taxonomy: 'category',
        parent: 0,
        meta: [],
        url: `${t.baseUrl}/events/category/film-${tok}/`,
        urls: { self: `${root}/categories/${created.id}`, collection: `${root}/categories` },
      });
    });

    it('gives a child category its parent, urls.up and a nested url', async () => {
      const tok = token();
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

    it('answers errors as JSON with the same Content-Type', async () => {
      const notFound = await http(t).get(`${API}/categories/999999`);
      expectError(notFound, 400, 'rest_invalid_param');
      expect(notFound.headers['content-type']).toBe(JSON_TYPE);

      const noRoute = await http(t).get(`${API}/categories/abc`);
      expectError(noRoute, 404, 'rest_no_route');
      expect(noRoute.headers['content-type']).toBe(JSON_TYPE);
    });
  });

  describe('list envelope and links', () => {
    let tok: string;
    let terms: TermBody[];
    beforeAll(async () => {
      tok = token();
      terms = [];
      for (const name of ['Alpha', 'Beta', 'Gamma']) terms.push(await cat({ name: `${name} ${tok}` }));
    });
    const scoped = (extra: string) => list(`search=${tok}&hide_empty=false&${extra}`);

    it('puts next_rest_url last on a first page and mirrors total and total_pages in X-TEC headers', async () => {
      const res = await scoped('per_page=1');

      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url']);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(3);
      expect(res.headers['x-tec-total']).toBe('3');
      expect(res.headers['x-tec-totalpages']).toBe('3');
      expect(idsOf(res.body.categories)).toEqual([terms[0].id]);
    });

    it('gives a middle page both links, next before previous', async () => {
      const res = await scoped('per_page=1&page=2');

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url', 'previous_rest_url']);
      expect(idsOf(res.body.categories)).toEqual([terms[1].id]);
    });

    it('gives the last page previous_rest_url only', async () => {
      const res = await scoped('per_page=1&page=3');

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'previous_rest_url']);
      expect(idsOf(res.body.categories)).toEqual([terms[2].id]);
    });

    it('omits both links when everything fits on one page', async () => {
      const res = await scoped('per_page=3');

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
      expect(res.body.total_pages).toBe(1);
      expect(idsOf(res.body.categories)).toEqual(idsOf(terms));
    });

    it('writes only the supplied parameters into rest_url, and links differ only in page', async () => {
      const res = await scoped('per_page=1&page=2');

      const base = `${root}/categories/`;
      for (const link of [res.body.rest_url, res.body.next_rest_url, res.body.previous_rest_url]) {
        const url = new URL(link);
        expect(`${url.origin}${url.pathname}`).toBe(base);
      }
      const supplied = { search: tok, hide_empty: 'false', per_page: '1' };
      expect(queryOf(res.body.rest_url)).toEqual({ ...supplied, page: '2' });
      expect(queryOf(res.body.next_rest_url)).toEqual({ ...supplied, page: '3' });
      // previous page is 1: the page parameter is dropped instead of set to 1
      expect(queryOf(res.body.previous_rest_url)).toEqual(supplied);
    });

    it('keeps page in previous_rest_url when the previous page is above 1', async () => {
      const res = await scoped('per_page=1&page=3');

      expect(queryOf(res.body.previous_rest_url)).toEqual({ search: tok, hide_empty: 'false', per_page: '1', page: '2' });
    });

    it('adds page to next_rest_url when the request had none', async () => {
      const res = await scoped('per_page=2');

      expect(queryOf(res.body.rest_url)).toEqual({ search: tok, hide_empty: 'false', per_page: '2' });
      expect(queryOf(res.body.next_rest_url)).toEqual({ search: tok, hide_empty: 'false', per_page: '2', page: '2' });
    });

    it('writes rest_url without any query when no parameter was given', async () => {
      const res = await http(t).get(`${API}/categories`);

      expect(res.status).toBe(200);
      expect(res.body.rest_url).toBe(`${root}/categories/`);
    });

    it('answers the list on the path with a trailing slash', async () => {
      const res = await http(t).get(`${API}/categories/?search=${tok}&hide_empty=false`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body.categories)).toEqual(idsOf(terms));
    });

    it('answers a page beyond the last with 200, an empty array and previous_rest_url', async () => {
      const res = await scoped('per_page=1&page=7');

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'previous_rest_url']);
      expect(res.body.categories).toEqual([]);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(3);
      expect(queryOf(res.body.previous_rest_url).page).toBe('6');
    });

    it('reports total 0 and total_pages 0 when nothing matches', async () => {
      const res = await list(`search=${tok}nomatch&hide_empty=false`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
      expect(res.body).toMatchObject({ total: 0, total_pages: 0, categories: [] });
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });
  });

  describe('per_page', () => {
    let tok: string;
    let terms: TermBody[];
    beforeAll(async () => {
      tok = token();
      terms = [];
      for (let i = 0; i <= 50; i++) terms.push(await cat({ name: `${tok} ${String(i).padStart(2, '0')}` }));
    });

    it('defaults to 10', async () => {
      const res = await list(`search=${tok}&hide_empty=false`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body.categories)).toEqual(idsOf(terms.slice(0, 10)));
      expect(res.body.total).toBe(51);
      expect(res.body.total_pages).toBe(6);
    });

    it('is clamped to 50', async () => {
      const first = await list(`search=${tok}&hide_empty=false&per_page=100`);

      expect(first.status).toBe(200);
      expect(idsOf(first.body.categories)).toEqual(idsOf(terms.slice(0, 50)));
      expect(first.body.total).toBe(51);
      expect(first.body.total_pages).toBe(2);
      expect(first.headers['x-tec-totalpages']).toBe('2');
      expect(queryOf(first.body.next_rest_url).page).toBe('2');

      const second = await list(`search=${tok}&hide_empty=false&per_page=100&page=2`);
      expect(second.status).toBe(200);
      expect(idsOf(second.body.categories)).toEqual([terms[50].id]);
      expect(second.body).not.toHaveProperty('next_rest_url');
    });

    it('accepts exactly 50', async () => {
      const res = await list(`search=${tok}&hide_empty=false&per_page=50`);

      expect(res.status).toBe(200);
      expect(res.body.categories).toHaveLength(50);
      expect(res.body.total_pages).toBe(2);
    });
  });

  describe('page and per_page validation', () => {
    it.each(['foo', '0', '-1', '1.5', 'foo%20bar'])('rejects page=%s', async (bad) => {
      expectInvalidParams(await list(`page=${bad}`), 'page');
    });

    it.each(['foo', '0', '-1', '1.5', 'foo%20bar'])('rejects per_page=%s', async (bad) => {
      expectInvalidParams(await list(`per_page=${bad}`), 'per_page');
    });

    it('reports a bad page and a bad per_page together', async () => {
      const res = await list('page=foo&per_page=0');

      expectInvalidParams(res, 'page', 'per_page');
    });

    it('accepts page=3.0 as page 3', async () => {
      const tok = token();
      const terms: TermBody[] = [];
      for (const name of ['1st', '2nd', '3rd']) terms.push(await cat({ name: `${tok} ${name}` }));

      const res = await list(`search=${tok}&hide_empty=false&per_page=1&page=3.0`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body.categories)).toEqual([terms[2].id]);
    });
  });

  describe('hide_empty', () => {
    let used: TermBody;
    let empty: TermBody;
    beforeAll(async () => {
      const tok = token();
      used = await cat({ name: `${tok} Used` });
      empty = await cat({ name: `${tok} Empty` });
      await seedEvent(t, { category: [used.id] });
    });
    const only = (extra: string) => listIds(`include=${used.id},${empty.id}${extra}`);

    it('hides terms without published events by default', async () => {
      expect(await only('')).toEqual([used.id]);
    });

    it.each(['true', '1', 'TRUE'])('hides them with hide_empty=%s', async (value) => {
      expect(await only(`&hide_empty=${value}`)).toEqual([used.id]);
    });

    it.each(['false', '0', '', 'False'])('shows them with hide_empty=%s', async (value) => {
      expect(await only(`&hide_empty=${value}`)).toEqual([empty.id, used.id]);
    });

    it('rejects hide_empty=foo', async () => {
      expectInvalidParams(await list('hide_empty=foo'), 'hide_empty');
    });
  });

  describe('search', () => {
    it('matches the name case-insensitively', async () => {
      const tok = token();
      const big = await cat({ name: `${tok} Big Wave` });
      await cat({ name: `${tok} Small Wave` });

      const ids = await listIds(`hide_empty=false&search=${encodeURIComponent(`${tok.toUpperCase()} BIG`)}`);

      expect(ids).toEqual([big.id]);
    });

    it('matches the slug', async () => {
      const tok = token();
      const bySlug = await cat({ name: 'Unrelated words', slug: `${tok}-burrow` });

      const ids = await listIds(`hide_empty=false&search=${tok}-BURROW`);

      expect(ids).toEqual([bySlug.id]);
    });

    it('treats % and _ literally', async () => {
      const tok = token();
      const percent = await cat({ name: `${tok}d%p` });
      await cat({ name: `${tok}dxp` });
      const underscore = await cat({ name: `${tok}a_b` });
      await cat({ name: `${tok}axb` });

      expect(await listIds(`hide_empty=false&search=${encodeURIComponent(`${tok}d%p`)}`)).toEqual([percent.id]);
      expect(await listIds(`hide_empty=false&search=${tok}a_b`)).toEqual([underscore.id]);
    });

    it('rejects an empty search', async () => {
      expectInvalidParams(await list('search='), 'search');
    });
  });

  describe('include and exclude', () => {
    let tok: string;
    let a: TermBody;
    let b: TermBody;
    let c: TermBody;
    beforeAll(async () => {
      tok = token();
      a = await cat({ name: `${tok} A` });
      b = await cat({ name: `${tok} B` });
      c = await cat({ name: `${tok} C` });
    });

    it.each([
      ['a comma list', (x: number, y: number) => `include=${x},${y}`],
      ['a comma list with spaces', (x: number, y: number) => `include=${x},%20${y}`],
      ['an encoded comma list', (x: number, y: number) => `include=${x}%2C${y}`],
      ['repeated brackets', (x: number, y: number) => `include[]=${x}&include[]=${y}`],
      ['indexed brackets', (x: number, y: number) => `include[0]=${x}&include[1]=${y}`],
    ])('include as %s returns only those terms', async (_form, query) => {
      expect(await listIds(`hide_empty=false&${query(a.id, c.id)}`)).toEqual([a.id, c.id]);
    });

    it('accepts a single indexed include', async () => {
      expect(await listIds(`hide_empty=false&include[0]=${b.id}`)).toEqual([b.id]);
    });

    it('leaves out excluded terms', async () => {
      expect(await listIds(`hide_empty=false&search=${tok}&exclude=${b.id}`)).toEqual([a.id, c.id]);
      expect(await listIds(`hide_empty=false&search=${tok}&exclude[]=${a.id}&exclude[]=${b.id}`)).toEqual([c.id]);
    });

    it.each([
      ['exclude=2389', 'exclude'],
      ['exclude=', 'exclude'],
      ['include=2389', 'include'],
      ['include=', 'include'],
      ['include=foo', 'include'],
    ])('rejects %s', async (query, param) => {
      expectInvalidParams(await list(query), param);
    });

    it('rejects a tag id in include', async () => {
      const aTag = await tag({ name: `${tok} tag` });

      expectInvalidParams(await list(`include=${a.id},${aTag.id}`), 'include');
    });

    it('reports bad include and exclude together', async () => {
      expectInvalidParams(await list('include=2389&exclude=2389'), 'include', 'exclude');
    });
  });

  describe('order and orderby', () => {
    let tok: string;
    const term: Record<'A' | 'b' | 'C', TermBody> = {} as never;
    beforeAll(async () => {
      tok = token();
      // created b, C, A: id order differs from name order; slugs and descriptions give other orders
      term.b = await cat({ name: `b ${tok}`, slug: `${tok}-yy`, description: 'z' });
      term.C = await cat({ name: `C ${tok}`, slug: `${tok}-xx`, description: 'a' });
      term.A = await cat({ name: `A ${tok}`, slug: `${tok}-zz`, description: 'm' });
      await seedEvent(t, { category: [term.A.id, term.C.id] });
      await seedEvent(t, { category: [term.A.id] });
    });
    const names = (ids: number[]) => ids.map((id) => Object.entries(term).find(([, x]) => x.id === id)?.[0] ?? id);

    it.each([
      ['', 'A b C'],
      ['orderby=name', 'A b C'],
      ['orderby=name&order=desc', 'C b A'],
      ['order=DESC', 'C b A'],
      ['order=ASC', 'A b C'],
      ['order=sideways', 'C b A'],
      ['orderby=id', 'b C A'],
      ['orderby=id&order=desc', 'A C b'],
      ['orderby=slug', 'C b A'],
      ['orderby=count', 'b C A'],
      ['orderby=count&order=desc', 'A C b'],
      ['orderby=description', 'C A b'],
      ['orderby=term_group', 'A b C'],
      ['orderby=foo', 'A b C'],
    ])('%s → %s', async (query, expected) => {
      const res = await list(`search=${tok}&hide_empty=false&${query}`);

      expect(res.status).toBe(200);
      expect(names(idsOf(res.body.categories)).join(' ')).toBe(expected);
      // ordering must not change the representation of the items
      for (const item of res.body.categories) expect(Object.keys(item)).toEqual(TERM_KEYS);
      expect(res.body.categories.map((item: TermBody) => item.slug)).toEqual(
        expected.split(' ').map((key) => term[key as keyof typeof term].slug),
      );
    });

    it('orderby=parent sorts by the parent id', async () => {
      const tok2 = token();
      const firstParent = await cat({ name: `${tok2} P1` });
      const secondParent = await cat({ name: `${tok2} P2` });
      const underSecond = await cat({ name: `${tok2} a`, parent: secondParent.id });
      const underFirst = await cat({ name: `${tok2} b`, parent: firstParent.id });

      const res = await list(`hide_empty=false&orderby=parent&include=${underSecond.id},${underFirst.id}`);

      expect(res.status).toBe(200);
      expect(res.body.categories).toStrictEqual([underFirst, underSecond]);
    });

    it('orderby=include keeps the order of the include list', async () => {
      const ids = await listIds(`hide_empty=false&orderby=include&include=${term.C.id},${term.A.id},${term.b.id}`);

      expect(names(ids).join(' ')).toBe('C A b');
    });

    it('breaks name ties by id', async () => {
      const tok2 = token();
      const first = await cat({ name: `${tok2} Same` });
      const other = await cat({ name: `${tok2} Zed` });
      const second = await cat({ name: `${tok2} SAME`, parent: other.id });

      expect(await listIds(`search=${tok2}&hide_empty=false`)).toEqual([first.id, second.id, other.id]);
    });

    it.each(['order=', 'orderby='])('rejects %s', async (query) => {
      expectInvalidParams(await list(query), query.slice(0, -1));
    });
  });

  describe('parent filter', () => {
    let top: TermBody;
    let childA: TermBody;
    let childB: TermBody;
    beforeAll(async () => {
      const tok = token();
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
      const aTag = await tag({ name: `${token()} parent tag` });

      expectInvalidParams(await list(`parent=${aTag.id}`), 'parent');
    });
  });

  describe('post and event filters', () => {
    let a: TermBody;
    let b: TermBody;
    let c: TermBody;
    let onDraft: TermBody;
    let published: number;
    let other: number;
    let draft: number;
    beforeAll(async () => {
      const tok = token();
      a = await cat({ name: `${tok} A` });
      b = await cat({ name: `${tok} B` });
      c = await cat({ name: `${tok} C` });
      onDraft = await cat({ name: `${tok} Draft only` });
      const aTag = await tag({ name: `${tok} tag` });
      published = await seedEvent(t, { category: [a.id, b.id], tag: [aTag.id] });
      other = await seedEvent(t, { category: [c.id] });
      draft = await seedEvent(t, { category: [onDraft.id] }, false);
    });

    it('returns only the terms of that event', async () => {
      expect(await listIds(`post=${published}`)).toEqual([a.id, b.id]);
      expect(await listIds(`event=${other}`)).toEqual([c.id]);
    });

    it('ignores hide_empty', async () => {
      expect(await listIds(`post=${draft}`)).toEqual([onDraft.id]);
      expect(await listIds(`post=${draft}&hide_empty=true`)).toEqual([onDraft.id]);
    });

    it('lets event win over post', async () => {
      expect(await listIds(`post=${published}&event=${other}`)).toEqual([c.id]);
    });

    it.each(['post=999999', 'post=foo', 'post='])('rejects %s', async (query) => {
      expectInvalidParams(await list(query), 'post');
    });

    it.each(['event=999999', 'event=foo', 'event='])('rejects %s', async (query) => {
      expectInvalidParams(await list(query), 'event');
    });

    it('rejects an id that is not an event', async () => {
      const venue = await seedVenueId(t);

      expectInvalidParams(await list(`post=${venue}`), 'post');
    });
  });

  describe('slug filter', () => {
    it('returns only the term with exactly that slug', async () => {
      const tok = token();
      const exact = await cat({ name: `${tok} exact` });
      await cat({ name: `${tok} exact more` });

      expect(exact.slug).toBe(`${tok}-exact`);
      expect(await listIds(`hide_empty=false&slug=${tok}-exact`)).toEqual([exact.id]);
      expect(await listIds(`hide_empty=false&slug=${tok}-exa`)).toEqual([]);
    });

    it('rejects an empty slug', async () => {
      expectInvalidParams(await list('slug='), 'slug');
    });
  });

  describe('create', () => {
    it('answers 201 with count 0 for a JSON body', async () => {
      const tok = token();
      const res = await http(t, users.admin).post(`${API}/categories`).send({ name: `Jazz ${tok}`, description: 'Late sets' });

      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body).toMatchObject({ count: 0, name: `Jazz ${tok}`, description: 'Late sets', slug: `jazz-${tok}`, parent: 0, taxonomy: 'category' });
      expect(await readTerm(t, 'categories', res.body.id)).toStrictEqual(res.body);
    });

    it('accepts a form-encoded body', async () => {
      const tok = token();
      const res = await http(t, users.admin)
        .post(`${API}/categories`)
        .type('form')
        .send(`name=Form+${tok}&description=From+a+form`);

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: `Form ${tok}`, description: 'From a form', count: 0 });
    });

    it('takes parameters from the query string, the body winning over it', async () => {
      const tok = token();
      const fromQuery = await http(t, users.admin).post(`${API}/categories?name=Query+${tok}`).send({});
      expect(fromQuery.status).toBe(201);
      expect(fromQuery.body.name).toBe(`Query ${tok}`);

      const json = await http(t, users.admin).post(`${API}/categories?name=Query2+${tok}`).send({ name: `Json ${tok}` });
      expect(json.status).toBe(201);
      expect(json.body.name).toBe(`Json ${tok}`);

      const form = await http(t, users.admin).post(`${API}/categories?name=Query3+${tok}`).type('form').send(`name=Form2+${tok}`);
      expect(form.status).toBe(201);
      expect(form.body.name).toBe(`Form2 ${tok}`);
    });

    it('ignores unknown body parameters', async () => {
      const tok = token();
      const res = await http(t, users.admin)
        .post(`${API}/categories`)
        .send({ name: `Extra ${tok}`, colour: 'red', count: 99, nested: { a: 1 } });

      expect(res.status).toBe(201);
      expect(res.body.count).toBe(0);
      expect(res.body).not.toHaveProperty('colour');
    });

    it('answers rest_missing_callback_param with params ["name"] when name is missing', async () => {
      const res = await http(t, users.admin).post(`${API}/categories`).send({ description: 'No name' });

      expectError(res, 400, 'rest_missing_callback_param');
      expect(res.body.data.params).toEqual(['name']);
    });

    it('treats name: null as missing', async () => {
      const res = await http(t, users.admin).post(`${API}/categories`).send({ name: null });

      expectError(res, 400, 'rest_missing_callback_param');
      expect(res.body.data.params).toEqual(['name']);
    });

    it('reports the missing name before an invalid description', async () => {
      const res = await http(t, users.admin).post(`${API}/categories`).send({ description: '' });

      expectError(res, 400, 'rest_missing_callback_param');
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['an empty description', { description: '' }, 'description'],
      ['an empty slug', { slug: '' }, 'slug'],
      ['an empty parent', { parent: '' }, 'parent'],
      ['a non-numeric parent', { parent: 'foo' }, 'parent'],
      ['an unknown parent', { parent: '2389' }, 'parent'],
    ])('rejects %s', async (_label, fields, param) => {
      const res = await http(t, users.admin)
        .post(`${API}/categories`)
        .send({ name: `Bad ${token()}`, ...fields });

      expectInvalidParams(res, param);
    });

    it('rejects a tag id as parent', async () => {
      const aTag = await tag({ name: `${token()} tag` });

      const res = await http(t, users.admin).post(`${API}/categories`).send({ name: `Bad ${token()}`, parent: aTag.id });

      expectInvalidParams(res, 'parent');
    });

    it('normalises an explicit slug', async () => {
      const res = await http(t, users.admin).post(`${API}/categories`).send({ name: `Slugged ${token()}`, slug: 'My Slug!' });

      expect(res.status).toBe(201);
      expect(res.body.slug).toBe('my-slug');
    });

    it('suffixes a generated slug that is taken', async () => {
      const tok = token();
      const first = await cat({ name: `Collide ${tok}` });
      const second = await cat({ name: `Collide: ${tok}` });
      const third = await cat({ name: `Collide (${tok})` });

      expect([first.slug, second.slug, third.slug]).toEqual([`collide-${tok}`, `collide-${tok}-2`, `collide-${tok}-3`]);
    });

    it('refuses an explicit slug that is taken with duplicate_term_slug', async () => {
      const tok = token();
      await cat({ name: `Owner ${tok}`, slug: `${tok}-taken` });

      const res = await http(t, users.admin).post(`${API}/categories`).send({ name: `Other ${tok}`, slug: `${tok}-taken` });

      expectError(res, 400, 'duplicate_term_slug');
    });

    it('refuses the same name at the same level, case-insensitively, with term_exists and data.term_id', async () => {
      const tok = token();
      const existing = await cat({ name: `Case Name ${tok}` });

      const res = await http(t, users.admin).post(`${API}/categories`).send({ name: `CASE NAME ${tok.toUpperCase()}` });

      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(existing.id);
    });

    it('refuses the same name under the same parent', async () => {
      const tok = token();
      const parent = await cat({ name: `Parent ${tok}` });
      const existing = await cat({ name: `Kid ${tok}`, parent: parent.id });

      const res = await http(t, users.admin).post(`${API}/categories`).send({ name: `kid ${tok}`, parent: parent.id });

      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(existing.id);
    });

    it('allows the same name under a different parent', async () => {
      const tok = token();
      const topLevel = await cat({ name: `Shared ${tok}` });
      const parent = await cat({ name: `Holder ${tok}` });

      const res = await http(t, users.admin).post(`${API}/categories`).send({ name: `Shared ${tok}`, parent: String(parent.id) });

      expect(res.status).toBe(201);
      expect(res.body.parent).toBe(parent.id);
      expect(res.body.id).not.toBe(topLevel.id);
      expect(res.body.slug).toBe(`shared-${tok}-2`);
    });

    it('answers rest_invalid_json for a malformed JSON body', async () => {
      const res = await http(t, users.admin).post(`${API}/categories`).set('Content-Type', 'application/json').send('{"name": "Broken');

      expectError(res, 400, 'rest_invalid_json');
    });
  });

  describe('permissions', () => {
    const create = (authorization?: string) => http(t, authorization).post(`${API}/categories`).send({ name: `Perm ${token()}` });

    it('answers 401 rest_forbidden to an anonymous create', async () => {
      expectError(await create(), 401, 'rest_forbidden');
    });

    it.each(['subscriber', 'contributor'] as const)('answers 403 rest_forbidden to a %s', async (role) => {
      expectError(await create(users[role]), 403, 'rest_forbidden');
    });

    it.each(['author', 'editor', 'admin'] as const)('lets an %s create, update and delete', async (role) => {
      const created = await create(users[role]);
      expect(created.status).toBe(201);

      const updated = await http(t, users[role]).put(`${API}/categories/${created.body.id}`).send({ description: 'by ' + role });
      expect(updated.status).toBe(200);
      expect(updated.body.description).toBe(`by ${role}`);

      const deleted = await http(t, users[role]).delete(`${API}/categories/${created.body.id}`);
      expect(deleted.status).toBe(200);
    });

    it('refuses updates and deletes of an existing category to callers who may not manage categories', async () => {
      const term = await cat({ name: `Guarded ${token()}` });
      const path = `${API}/categories/${term.id}`;

      expectError(await http(t).patch(path).send({ description: 'x' }), 401, 'rest_forbidden');
      expectError(await http(t, users.contributor).patch(path).send({ description: 'x' }), 403, 'rest_forbidden');
      expectError(await http(t).delete(path), 401, 'rest_forbidden');
      expectError(await http(t, users.subscriber).delete(path), 403, 'rest_forbidden');
      expectError(await http(t, users.contributor).delete(path), 403, 'rest_forbidden');

      expect(await readTerm(t, 'categories', term.id)).toStrictEqual(term);
    });

    it('answers 401 incorrect_password to a wrong password, even on a public GET', async () => {
      const res = await http(t, basicAuth('admin', 'not the password')).get(`${API}/categories`);

      expectError(res, 401, 'incorrect_password');
    });

    it('answers 401 invalid_username to an unknown login', async () => {
      const res = await http(t, basicAuth('nobody', 'whatever')).get(`${API}/categories`);

      expectError(res, 401, 'invalid_username');
    });

    it('answers 401 invalid_username to a Basic header that does not decode to login:password', async () => {
      const res = await http(t, `Basic ${Buffer.from('no-colon-here').toString('base64')}`).get(`${API}/categories`);

      expectError(res, 401, 'invalid_username');
    });

    it('treats a non-Basic Authorization scheme as anonymous', async () => {
      expect((await http(t, 'Bearer whatever').get(`${API}/categories`)).status).toBe(200);
      expectError(await http(t, 'Bearer whatever').post(`${API}/categories`).send({ name: `Bearer ${token()}` }), 401, 'rest_forbidden');
    });

    it('checks credentials before routing', async () => {
      const res = await http(t, basicAuth('admin', 'not the password')).get(`${API}/categories/abc`);

      expectError(res, 401, 'incorrect_password');
    });

    it('validates before checking permission', async () => {
      expectInvalidParams(await http(t).post(`${API}/categories/99999`).send({ name: 'x' }), 'id');
      expectInvalidParams(await http(t, users.subscriber).delete(`${API}/categories/99999`), 'id');
      expectInvalidParams(await http(t).post(`${API}/categories`).send({ name: '' }), 'name');
      expectError(await http(t, users.subscriber).post(`${API}/categories`).send({}), 400, 'rest_missing_callback_param');
    });
  });

  describe('read by id', () => {
    it('answers 200 with the category, also with a trailing slash', async () => {
      const term = await cat({ name: `Readable ${token()}` });

      const plain = await http(t).get(`${API}/categories/${term.id}`);
      const slashed = await http(t).get(`${API}/categories/${term.id}/`);

      expect(plain.status).toBe(200);
      expect(plain.body).toStrictEqual(term);
      expect(slashed.status).toBe(200);
      expect(slashed.body).toStrictEqual(term);
    });

    it('answers 400 rest_invalid_param for an unknown id', async () => {
      expectInvalidParams(await http(t).get(`${API}/categories/999999`), 'id');
    });

    it('answers 400 for a tag id', async () => {
      const aTag = await tag({ name: `${token()} tag` });

      expectInvalidParams(await http(t).get(`${API}/categories/${aTag.id}`), 'id');
    });

    it('answers 404 rest_no_route for a non-digit id', async () => {
      expectError(await http(t).get(`${API}/categories/abc`), 404, 'rest_no_route');
      expectError(await http(t).get(`${API}/categories/12abc`), 404, 'rest_no_route');
    });
  });

  describe('update', () => {
    it.each(['post', 'put', 'patch'] as const)('renames with %s as a partial update', async (method) => {
      const tok = token();
      const term = await cat({ name: `Old ${tok}`, description: 'keep me' });

      const res = await http(t, users.admin)[method](`${API}/categories/${term.id}`).send({ name: `New ${tok}` });

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body).toMatchObject({ id: term.id, name: `New ${tok}`, description: 'keep me', parent: 0 });
      expect(await readTerm(t, 'categories', term.id)).toStrictEqual(res.body);
    });

    it('changes only the description when only the description is sent (form body)', async () => {
      const tok = token();
      const term = await cat({ name: `Described ${tok}` });

      const res = await http(t, users.admin).patch(`${API}/categories/${term.id}`).type('form').send('description=Now+described');

      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual({ ...term, description: 'Now described' });
    });

    it('keeps the path id over an id in the body', async () => {
      const tok = token();
      const target = await cat({ name: `Target ${tok}` });
      const bystander = await cat({ name: `Bystander ${tok}` });

      const res = await http(t, users.admin).put(`${API}/categories/${target.id}`).send({ id: bystander.id, name: `Renamed ${tok}` });

      expect(res.status).toBe(200);
      expect(res.body.id).toBe(target.id);
      expect(await readTerm(t, 'categories', bystander.id)).toStrictEqual(bystander);
    });

    it('refuses a rename to a sibling name with term_exists', async () => {
      const tok = token();
      const sibling = await cat({ name: `Sibling ${tok}` });
      const term = await cat({ name: `Renamer ${tok}` });

      const res = await http(t, users.admin).put(`${API}/categories/${term.id}`).send({ name: `sibling ${tok}` });

      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(sibling.id);
      expect((await readTerm(t, 'categories', term.id)).name).toBe(`Renamer ${tok}`);
    });

    it('allows a change of case of its own name and a name used at another level', async () => {
      const tok = token();
      await cat({ name: `Elsewhere ${tok}` });
      const parent = await cat({ name: `Level ${tok}` });
      const term = await cat({ name: `Mine ${tok}`, parent: parent.id });

      const recased = await http(t, users.admin).patch(`${API}/categories/${term.id}`).send({ name: `MINE ${tok}` });
      expect(recased.status).toBe(200);
      expect(recased.body.name).toBe(`MINE ${tok}`);

      const reused = await http(t, users.admin).patch(`${API}/categories/${term.id}`).send({ name: `Elsewhere ${tok}` });
      expect(reused.status).toBe(200);
      expect(reused.body.name).toBe(`Elsewhere ${tok}`);
    });

    it('refuses a slug used by another category with duplicate_term_slug, and keeps its own', async () => {
      const tok = token();
      const owner = await cat({ name: `Slug owner ${tok}` });
      const term = await cat({ name: `Slug taker ${tok}` });

      expectError(await http(t, users.admin).patch(`${API}/categories/${term.id}`).send({ slug: owner.slug }), 400, 'duplicate_term_slug');

      const same = await http(t, users.admin).patch(`${API}/categories/${term.id}`).send({ slug: term.slug });
      expect(same.status).toBe(200);
      expect(same.body.slug).toBe(term.slug);
    });

    it('normalises a new slug', async () => {
      const tok = token();
      const term = await cat({ name: `Reslug ${tok}` });

      const res = await http(t, users.admin).patch(`${API}/categories/${term.id}`).send({ slug: `New Slug ${tok}!` });

      expect(res.status).toBe(200);
      expect(res.body.slug).toBe(`new-slug-${tok}`);
      expect(res.body.url).toBe(`${t.baseUrl}/events/category/new-slug-${tok}/`);
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['an empty description', { description: '' }, 'description'],
      ['an empty slug', { slug: '' }, 'slug'],
      ['an empty parent', { parent: '' }, 'parent'],
      ['an unknown parent', { parent: 2389 }, 'parent'],
    ])('rejects %s', async (_label, fields, param) => {
      const term = await cat({ name: `Valid ${token()}` });

      expectInvalidParams(await http(t, users.admin).patch(`${API}/categories/${term.id}`).send(fields), param);
    });

    it('refuses itself as parent', async () => {
      const term = await cat({ name: `Selfish ${token()}` });

      expectInvalidParams(await http(t, users.admin).patch(`${API}/categories/${term.id}`).send({ parent: term.id }), 'parent');
    });

    it('refuses a descendant as parent', async () => {
      const tok = token();
      const top = await cat({ name: `Root ${tok}` });
      const mid = await cat({ name: `Mid ${tok}`, parent: top.id });
      const leaf = await cat({ name: `Leaf ${tok}`, parent: mid.id });

      expectInvalidParams(await http(t, users.admin).patch(`${API}/categories/${top.id}`).send({ parent: mid.id }), 'parent');
      expectInvalidParams(await http(t, users.admin).patch(`${API}/categories/${top.id}`).send({ parent: leaf.id }), 'parent');
      expect((await readTerm(t, 'categories', top.id)).parent).toBe(0);
    });

    it('moves a category under a parent, changing its url and adding urls.up', async () => {
      const tok = token();
      const parent = await cat({ name: `Home ${tok}` });
      const term = await cat({ name: `Mover ${tok}` });

      const res = await http(t, users.admin).post(`${API}/categories/${term.id}`).send({ parent: parent.id });

      expect(res.status).toBe(200);
      expect(res.body.parent).toBe(parent.id);
      expect(res.body.url).toBe(`${t.baseUrl}/events/category/home-${tok}/mover-${tok}/`);
      expect(res.body.urls.up).toBe(`${root}/categories/${parent.id}`);
      expect(await readTerm(t, 'categories', term.id)).toStrictEqual(res.body);
    });

    it('answers 400 for an unknown id', async () => {
      expectInvalidParams(await http(t, users.admin).put(`${API}/categories/999999`).send({ name: 'Ghost' }), 'id');
    });

    it('answers rest_invalid_json for a malformed JSON body', async () => {
      const term = await cat({ name: `Jsonless ${token()}` });

      const res = await http(t, users.admin).patch(`${API}/categories/${term.id}`).set('Content-Type', 'application/json').send('{nope');

      expectError(res, 400, 'rest_invalid_json');
    });
  });

  describe('delete', () => {
    it('answers 200 with the category as it was, count included, and removes it from events', async () => {
      const tok = token();
      const doomed = await cat({ name: `Doomed ${tok}`, description: 'soon gone' });
      const survivor = await cat({ name: `Survivor ${tok}` });
      const event = await seedEvent(t, { category: [doomed.id, survivor.id] });
      const before = await readTerm(t, 'categories', doomed.id);
      expect(before.count).toBe(1);

      const res = await http(t, users.admin).delete(`${API}/categories/${doomed.id}`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(TERM_KEYS);
      expect(res.body).toStrictEqual(before);
      expectInvalidParams(await http(t).get(`${API}/categories/${doomed.id}`), 'id');
      expectInvalidParams(await http(t, users.admin).delete(`${API}/categories/${doomed.id}`), 'id');
      expect(await listIds(`post=${event}`)).toEqual([survivor.id]);
      expect((await readTerm(t, 'categories', survivor.id)).count).toBe(1);
    });

    it('re-attaches the children of a deleted category to its parent', async () => {
      const tok = token();
      const grand = await cat({ name: `Grand ${tok}` });
      const middle = await cat({ name: `Middle ${tok}`, parent: grand.id });
      const kid = await cat({ name: `Kid ${tok}`, parent: middle.id });

      expect((await http(t, users.admin).delete(`${API}/categories/${middle.id}`)).status).toBe(200);

      const after = await readTerm(t, 'categories', kid.id);
      expect(after.parent).toBe(grand.id);
      expect(after.urls.up).toBe(`${root}/categories/${grand.id}`);
      expect(after.url).toBe(`${t.baseUrl}/events/category/grand-${tok}/kid-${tok}/`);
    });

    it('makes the children of a deleted top-level category top-level', async () => {
      const tok = token();
      const top = await cat({ name: `Top ${tok}` });
      const kid = await cat({ name: `Kid ${tok}`, parent: top.id });

      expect((await http(t, users.admin).delete(`${API}/categories/${top.id}`)).status).toBe(200);

      const after = await readTerm(t, 'categories', kid.id);
      expect(after.parent).toBe(0);
      expect(after.urls).not.toHaveProperty('up');
      expect(after.url).toBe(`${t.baseUrl}/events/category/kid-${tok}/`);
    });

    it.each([
      ['put', '/categories'],
      ['patch', '/categories'],
      ['delete', '/categories'],
      ['post', '/categories/abc'],
      ['get', '/categories/1/extra'],
    ] as const)('answers 404 rest_no_route to %s %s', async (method, path) => {
      expectError(await http(t, users.admin)[method](`${API}${path}`), 404, 'rest_no_route');
    });
  });

  describe('counts', () => {
    it('counts published events only', async () => {
      const term = await cat({ name: `Counted ${token()}` });
      await seedEvent(t, { category: [term.id] });
      await seedEvent(t, { category: [term.id] }, false);

      expect((await readTerm(t, 'categories', term.id)).count).toBe(1);

      await seedEvent(t, { category: [term.id] });
      expect((await readTerm(t, 'categories', term.id)).count).toBe(2);
    });

    it('follows the publication of an event, and hide_empty with it', async () => {
      const term = await cat({ name: `Flipping ${token()}` });
      const event = await seedEvent(t, { category: [term.id] }, false);
      expect((await readTerm(t, 'categories', term.id)).count).toBe(0);
      expect(await listIds(`include=${term.id}`)).toEqual([]);

      await setPublished(t, event, true);
      const published = await list(`include=${term.id}`);
      expect(idsOf(published.body.categories)).toEqual([term.id]);
      expect(published.body.categories[0].count).toBe(1);

      await setPublished(t, event, false);
      expect((await readTerm(t, 'categories', term.id)).count).toBe(0);
      expect(await listIds(`include=${term.id}`)).toEqual([]);
    });

    it('moves the count when an event gets other categories', async () => {
      const tok = token();
      const before = await cat({ name: `Before ${tok}` });
      const after = await cat({ name: `After ${tok}` });
      const event = await seedEvent(t, { category: [before.id] });

      await reassign(t, event, 'category', [after.id], true);

      expect((await readTerm(t, 'categories', before.id)).count).toBe(0);
      expect((await readTerm(t, 'categories', after.id)).count).toBe(1);
    });

    it('does not count tags of the same event', async () => {
      const tok = token();
      const term = await cat({ name: `Cat ${tok}` });
      const aTag = await tag({ name: `Tag ${tok}` });
      await seedEvent(t, { category: [term.id], tag: [aTag.id] });

      expect((await readTerm(t, 'categories', term.id)).count).toBe(1);
      expect((await readTerm(t, 'tags', aTag.id)).count).toBe(1);
    });
  });
});
