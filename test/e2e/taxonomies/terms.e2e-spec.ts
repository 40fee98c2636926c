// The category and tag routes, for what the two taxonomies share (spec endpoints.md §6,
// resources.md §4 and §8, auth.md §5, errors.md): "Categories and tags behave identically except
// that only categories have `parent`" — and tags need the editor role to write (auth.md §5).
// What only categories do (parents, descendants) is in categories.e2e-spec.ts; what only tags do
// (ignoring `parent`) is in tags.e2e-spec.ts.
import { createTestApp, TestApp } from '../../support/test-app';
import { API, basicAuth, http, JSON_TYPE, queryOf, rootOf } from '../../support/http';
import { Caller, createEvent, createTerm, createVenue, listIdsOf, makeUsers, readTerm, TermBody, TermRoute, uid, updateEvent } from '../../support/api';
import { expectError, expectInvalidParams, idsOf } from '../../support/expect';

type Who = 'admin' | 'editor' | 'author' | 'contributor' | 'subscriber';

interface Taxonomy {
  route: TermRoute;
  taxonomy: 'category' | 'tag';
  /** The other kind, for "an id of the wrong kind" and "kinds are separate" checks. */
  other: TermRoute;
  /** Keys of a term, in order (resources.md §4). */
  keys: string[];
  /** Members a new top-level term has beyond the shared ones. */
  topLevel: Record<string, unknown>;
  /** The public URL of a top-level term with this slug. */
  url: (baseUrl: string, slug: string) => string;
  /** Callers who may create, update and delete terms of this kind, least privileged first (auth.md §5). */
  managers: Who[];
  /** Logged-in callers who may not (403). */
  refused: Who[];
}

const TAXONOMIES: Taxonomy[] = [
  {
    route: 'categories',
    taxonomy: 'category',
    other: 'tags',
    keys: ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls'],
    topLevel: { parent: 0 },
    url: (baseUrl, slug) => `${baseUrl}/events/category/${slug}/`,
    managers: ['author', 'editor', 'admin'],
    refused: ['subscriber', 'contributor'],
  },
  {
    route: 'tags',
    taxonomy: 'tag',
    other: 'categories',
    keys: ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'],
    topLevel: {},
    url: (baseUrl, slug) => `${baseUrl}/tag/${slug}/`,
    managers: ['editor', 'admin'],
    refused: ['subscriber', 'contributor', 'author'],
  },
];

describe.each(TAXONOMIES)('$route', (tx) => {
  let t: TestApp;
  let root: string;
  let users: Record<Who, Caller>;
  /** Who renames and deletes in the update/delete tests: an administrator and the least privileged manager. */
  const writers = [...new Set<Who>(['admin', tx.managers[0]])];

  beforeAll(async () => {
    t = await createTestApp();
    root = rootOf(t);
    users = await makeUsers(t);
  }, 30_000); // a fresh app (migrations) and users with scrypt-hashed passwords: slow on a busy machine
  afterAll(async () => t?.close());

  const as = (who?: Who) => http(t, who && users[who].authorization);
  const term = (body: Record<string, unknown>) => createTerm(t, users.admin.authorization, tx.route, body);
  const otherTerm = (body: Record<string, unknown>) => createTerm(t, users.admin.authorization, tx.other, body);
  const read = (id: number) => readTerm(t, tx.route, id);
  const list = (query: string) => http(t).get(`${API}/${tx.route}?${query}`);
  const listIds = (query: string) => listIdsOf(t, tx.route, query);
  /** A published event (or one with `status`) carrying these terms, made through POST /events. */
  const eventWith = async (ids: number[], opts: { status?: string; others?: number[] } = {}) => {
    const fields = { [tx.route]: ids, status: opts.status ?? 'publish', ...(opts.others ? { [tx.other]: opts.others } : {}) };
    return (await createEvent(t, users.admin.authorization, fields)).id;
  };
  const updated = (eventId: number, fields: Record<string, unknown>) => updateEvent(t, users.admin.authorization, eventId, fields);

  describe('representation', () => {
    it('gives a new term the keys of resources.md §4, in order, without urls.up', async () => {
      const tok = uid();
      const created = await term({ name: `Film ${tok}`, description: 'Moving <b>pictures</b> under the <i>sky</i>' });

      const res = await http(t).get(`${API}/${tx.route}/${created.id}`);

      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(tx.keys);
      expect(res.body).toStrictEqual({
        id: created.id,
        count: 0,
        description: 'Moving <b>pictures</b> under the <i>sky</i>',
        name: `Film ${tok}`,
        slug: `film-${tok}`,
        taxonomy: tx.taxonomy,
        ...tx.topLevel,
        meta: [],
        url: tx.url(t.baseUrl, `film-${tok}`),
        urls: { self: `${root}/${tx.route}/${created.id}`, collection: `${root}/${tx.route}` },
      });
      expect(created).toStrictEqual(res.body);
    });

    it('answers errors as JSON with the same Content-Type', async () => {
      const notFound = await http(t).get(`${API}/${tx.route}/999999`);
      expectError(notFound, 400, 'rest_invalid_param');
      expect(notFound.headers['content-type']).toBe(JSON_TYPE);

      const noRoute = await http(t).get(`${API}/${tx.route}/abc`);
      expectError(noRoute, 404, 'rest_no_route');
      expect(noRoute.headers['content-type']).toBe(JSON_TYPE);
    });
  });

  describe('list envelope and links', () => {
    let tok: string;
    let terms: TermBody[];
    beforeAll(async () => {
      tok = uid();
      terms = [];
      for (const name of ['Alpha', 'Beta', 'Gamma']) terms.push(await term({ name: `${name} ${tok}` }));
    });
    const scoped = (extra: string) => list(`search=${tok}&hide_empty=false&${extra}`);

    it('puts next_rest_url last on a first page and mirrors total and total_pages in X-TEC headers', async () => {
      const res = await scoped('per_page=1');

      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', tx.route, 'next_rest_url']);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(3);
      expect(res.headers['x-tec-total']).toBe('3');
      expect(res.headers['x-tec-totalpages']).toBe('3');
      expect(idsOf(res.body[tx.route])).toEqual([terms[0].id]);
      expect(Object.keys(res.body[tx.route][0])).toEqual(tx.keys);
    });

    it('gives a middle page both links, next before previous', async () => {
      const res = await scoped('per_page=1&page=2');

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', tx.route, 'next_rest_url', 'previous_rest_url']);
      expect(idsOf(res.body[tx.route])).toEqual([terms[1].id]);
    });

    it('gives the last page previous_rest_url only', async () => {
      const res = await scoped('per_page=1&page=3');

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', tx.route, 'previous_rest_url']);
      expect(idsOf(res.body[tx.route])).toEqual([terms[2].id]);
    });

    it('omits both links when everything fits on one page', async () => {
      const res = await scoped('per_page=3');

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', tx.route]);
      expect(res.body.total_pages).toBe(1);
      expect(idsOf(res.body[tx.route])).toEqual(idsOf(terms));
    });

    it('writes only the supplied parameters into rest_url, and links differ only in page', async () => {
      const res = await scoped('per_page=1&page=2');

      const base = `${root}/${tx.route}/`;
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
      const res = await http(t).get(`${API}/${tx.route}`);

      expect(res.status).toBe(200);
      expect(res.body.rest_url).toBe(`${root}/${tx.route}/`);
    });

    it('answers the list on the path with a trailing slash', async () => {
      const res = await http(t).get(`${API}/${tx.route}/?search=${tok}&hide_empty=false`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body[tx.route])).toEqual(idsOf(terms));
    });

    it.each([
      ['per_page=1&page=7', 3, '6'],
      ['per_page=2&page=4', 2, '3'],
    ])('answers a page beyond the last (%s) with 200, an empty array and previous_rest_url', async (paging, totalPages, previous) => {
      const res = await scoped(paging);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', tx.route, 'previous_rest_url']);
      expect(res.body[tx.route]).toEqual([]);
      expect(res.body.total).toBe(3);
      expect(res.body.total_pages).toBe(totalPages);
      expect(queryOf(res.body.previous_rest_url).page).toBe(previous);
    });

    it('reports total 0 and total_pages 0 when nothing matches', async () => {
      const res = await list(`search=${tok}nomatch&hide_empty=false`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', tx.route]);
      expect(res.body).toMatchObject({ total: 0, total_pages: 0, [tx.route]: [] });
      expect(res.headers['x-tec-total']).toBe('0');
      expect(res.headers['x-tec-totalpages']).toBe('0');
    });
  });

  describe('per_page', () => {
    let tok: string;
    let terms: TermBody[];
    beforeAll(async () => {
      tok = uid();
      terms = [];
      for (let i = 0; i <= 50; i++) terms.push(await term({ name: `${tok} ${String(i).padStart(2, '0')}` }));
    }, 30_000);

    it('defaults to 10', async () => {
      const res = await list(`search=${tok}&hide_empty=false`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body[tx.route])).toEqual(idsOf(terms.slice(0, 10)));
      expect(res.body.total).toBe(51);
      expect(res.body.total_pages).toBe(6);
    });

    it.each(['100', '500'])('is clamped to 50 (per_page=%s)', async (perPage) => {
      const first = await list(`search=${tok}&hide_empty=false&per_page=${perPage}`);

      expect(first.status).toBe(200);
      expect(idsOf(first.body[tx.route])).toEqual(idsOf(terms.slice(0, 50)));
      expect(first.body.total).toBe(51);
      expect(first.body.total_pages).toBe(2);
      expect(first.headers['x-tec-totalpages']).toBe('2');
      expect(queryOf(first.body.next_rest_url).page).toBe('2');

      const second = await list(`search=${tok}&hide_empty=false&per_page=${perPage}&page=2`);
      expect(second.status).toBe(200);
      expect(idsOf(second.body[tx.route])).toEqual([terms[50].id]);
      expect(second.body).not.toHaveProperty('next_rest_url');
    });

    it('accepts exactly 50', async () => {
      const res = await list(`search=${tok}&hide_empty=false&per_page=50`);

      expect(res.status).toBe(200);
      expect(res.body[tx.route]).toHaveLength(50);
      expect(res.body.total_pages).toBe(2);
    });
  });

  describe('page and per_page validation', () => {
    const BAD = ['foo', '0', '-1', '1.5', 'foo%20bar'];

    it.each(BAD)('rejects page=%s', async (bad) => {
      expectInvalidParams(await list(`page=${bad}`), 'page');
    });

    it.each(BAD)('rejects per_page=%s', async (bad) => {
      expectInvalidParams(await list(`per_page=${bad}`), 'per_page');
    });

    it.each(BAD)('rejects page=%s and per_page=%s together', async (bad) => {
      expectInvalidParams(await list(`page=${bad}&per_page=${bad}`), 'page', 'per_page');
    });

    it('reports a bad page and a bad per_page together', async () => {
      const res = await list('page=foo&per_page=0');

      expectInvalidParams(res, 'page', 'per_page');
    });

    it('accepts page=3.0 as page 3', async () => {
      const tok = uid();
      const terms: TermBody[] = [];
      for (const name of ['1st', '2nd', '3rd']) terms.push(await term({ name: `${tok} ${name}` }));

      const res = await list(`search=${tok}&hide_empty=false&per_page=1&page=3.0`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body[tx.route])).toEqual([terms[2].id]);
    });

    it('accepts per_page=3.0 as 3', async () => {
      const tok = uid();
      const terms: TermBody[] = [];
      for (const name of ['1st', '2nd', '3rd', '4th']) terms.push(await term({ name: `${tok} ${name}` }));

      const res = await list(`search=${tok}&hide_empty=false&per_page=3.0`);

      expect(res.status).toBe(200);
      expect(idsOf(res.body[tx.route])).toEqual(idsOf(terms.slice(0, 3)));
      expect(res.body.total_pages).toBe(2);
    });
  });

  describe('hide_empty', () => {
    let used: TermBody;
    let empty: TermBody;
    beforeAll(async () => {
      const tok = uid();
      used = await term({ name: `${tok} Used` });
      empty = await term({ name: `${tok} Empty` });
      await eventWith([used.id]);
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

    it.each(['foo', 'maybe'])('rejects hide_empty=%s', async (value) => {
      expectInvalidParams(await list(`hide_empty=${value}`), 'hide_empty');
    });
  });

  describe('search', () => {
    it('matches the name case-insensitively', async () => {
      const tok = uid();
      const big = await term({ name: `${tok} Big Wave` });
      await term({ name: `${tok} Small Wave` });

      const ids = await listIds(`hide_empty=false&search=${encodeURIComponent(`${tok.toUpperCase()} BIG`)}`);

      expect(ids).toEqual([big.id]);
    });

    it('matches the slug case-insensitively', async () => {
      const tok = uid();
      const bySlug = await term({ name: 'Unrelated words', slug: `${tok}-burrow` });

      const ids = await listIds(`hide_empty=false&search=${tok}-BURROW`);

      expect(ids).toEqual([bySlug.id]);
    });

    it('treats % and _ literally', async () => {
      const tok = uid();
      const percent = await term({ name: `${tok}d%p` });
      await term({ name: `${tok}dxp` });
      const underscore = await term({ name: `${tok}a_b` });
      await term({ name: `${tok}axb` });

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
      tok = uid();
      a = await term({ name: `${tok} A` });
      b = await term({ name: `${tok} B` });
      c = await term({ name: `${tok} C` });
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

    it(`rejects an id of the other kind in include`, async () => {
      const wrongKind = await otherTerm({ name: `${tok} other kind` });

      expectInvalidParams(await list(`include=${a.id},${wrongKind.id}`), 'include');
    });

    it('reports bad include and exclude together', async () => {
      expectInvalidParams(await list('include=2389&exclude=2389'), 'include', 'exclude');
    });
  });

  describe('order and orderby', () => {
    let tok: string;
    const byKey: Record<'A' | 'b' | 'C', TermBody> = {} as never;
    beforeAll(async () => {
      tok = uid();
      // created b, C, A: id order differs from name order; slugs and descriptions give other orders
      byKey.b = await term({ name: `b ${tok}`, slug: `${tok}-yy`, description: 'z' });
      byKey.C = await term({ name: `C ${tok}`, slug: `${tok}-xx`, description: 'a' });
      byKey.A = await term({ name: `A ${tok}`, slug: `${tok}-zz`, description: 'm' });
      await eventWith([byKey.A.id, byKey.C.id]);
      await eventWith([byKey.A.id]);
    });
    const names = (ids: number[]) => ids.map((id) => Object.entries(byKey).find(([, x]) => x.id === id)?.[0] ?? id);

    it.each([
      ['', 'A b C'],
      ['orderby=name', 'A b C'],
      ['orderby=name&order=desc', 'C b A'],
      ['order=desc', 'C b A'],
      ['order=DESC', 'C b A'],
      ['order=ASC', 'A b C'],
      ['order=sideways', 'C b A'],
      ['order=anything', 'C b A'],
      ['orderby=id', 'b C A'],
      ['orderby=id&order=desc', 'A C b'],
      ['orderby=slug', 'C b A'],
      ['orderby=count', 'b C A'],
      ['orderby=count&order=desc', 'A C b'],
      ['orderby=description', 'C A b'],
      ['orderby=term_group', 'A b C'],
      ['orderby=foo', 'A b C'],
      ['orderby=unknown', 'A b C'],
    ])('%s → %s', async (query, expected) => {
      const res = await list(`search=${tok}&hide_empty=false&${query}`);

      expect(res.status).toBe(200);
      expect(names(idsOf(res.body[tx.route])).join(' ')).toBe(expected);
      // ordering must not change the representation of the items
      for (const item of res.body[tx.route]) expect(Object.keys(item)).toEqual(tx.keys);
      expect(res.body[tx.route].map((item: TermBody) => item.slug)).toEqual(expected.split(' ').map((key) => byKey[key as keyof typeof byKey].slug));
    });

    it('orderby=include keeps the order of the include list', async () => {
      const ids = await listIds(`hide_empty=false&orderby=include&include=${byKey.C.id},${byKey.A.id},${byKey.b.id}`);

      expect(names(ids).join(' ')).toBe('C A b');
    });

    it.each(['order=', 'orderby='])('rejects %s', async (query) => {
      expectInvalidParams(await list(query), query.slice(0, -1));
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
      const tok = uid();
      a = await term({ name: `${tok} A` });
      b = await term({ name: `${tok} B` });
      c = await term({ name: `${tok} C` });
      onDraft = await term({ name: `${tok} Draft only` });
      // the event's terms of the other kind must not show in this list
      const wrongKind = await otherTerm({ name: `${tok} other kind` });
      published = await eventWith([a.id, b.id], { others: [wrongKind.id] });
      other = await eventWith([c.id]);
      draft = await eventWith([onDraft.id], { status: 'draft' });
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

    it.each(['post=999999', 'post=foo', 'post=', 'event=999999', 'event=foo', 'event='])('rejects %s', async (query) => {
      expectInvalidParams(await list(query), query.split('=')[0]);
    });

    it.each(['post', 'event'])('rejects an id that is not an event in %s', async (param) => {
      const venue = await createVenue(t, users.admin.authorization, { venue: `Not an event ${uid()}` });

      expectInvalidParams(await list(`${param}=${venue.id}`), param);
    });
  });

  describe('slug filter', () => {
    it('returns only the term with exactly that slug', async () => {
      const tok = uid();
      const exact = await term({ name: `${tok} exact` });
      await term({ name: `${tok} exact more` });

      expect(exact.slug).toBe(`${tok}-exact`);
      expect(await listIds(`hide_empty=false&slug=${tok}-exact`)).toEqual([exact.id]);
      expect(await listIds(`hide_empty=false&slug=${tok}-exa`)).toEqual([]);
      expect(await listIds(`hide_empty=false&slug=${tok}`)).toEqual([]);
    });

    it('rejects an empty slug', async () => {
      expectInvalidParams(await list('slug='), 'slug');
    });
  });

  describe('create', () => {
    it('answers 201 with count 0 for a JSON body', async () => {
      const tok = uid();
      const res = await as('admin')
        .post(`${API}/${tx.route}`)
        .send({ name: `Jazz ${tok}`, description: 'Late sets', colour: 'ignored' });

      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual(tx.keys);
      expect(res.body).toMatchObject({ count: 0, name: `Jazz ${tok}`, description: 'Late sets', slug: `jazz-${tok}`, taxonomy: tx.taxonomy, ...tx.topLevel });
      expect(await read(res.body.id)).toStrictEqual(res.body);
    });

    it('accepts a form-encoded body', async () => {
      const tok = uid();
      const res = await as('admin').post(`${API}/${tx.route}`).type('form').send(`name=Form+${tok}&description=From+a+form`);

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: `Form ${tok}`, description: 'From a form', count: 0 });
    });

    it('takes parameters from the query string, the body winning over it', async () => {
      const tok = uid();
      const fromQuery = await as('admin').post(`${API}/${tx.route}?name=Query+${tok}`).send({});
      expect(fromQuery.status).toBe(201);
      expect(fromQuery.body.name).toBe(`Query ${tok}`);

      const json = await as('admin')
        .post(`${API}/${tx.route}?name=Query2+${tok}`)
        .send({ name: `Json ${tok}` });
      expect(json.status).toBe(201);
      expect(json.body.name).toBe(`Json ${tok}`);

      const form = await as('admin').post(`${API}/${tx.route}?name=Query3+${tok}`).type('form').send(`name=Form2+${tok}`);
      expect(form.status).toBe(201);
      expect(form.body.name).toBe(`Form2 ${tok}`);
    });

    it('ignores unknown body parameters', async () => {
      const tok = uid();
      const res = await as('admin')
        .post(`${API}/${tx.route}`)
        .send({ name: `Extra ${tok}`, colour: 'red', count: 99, nested: { a: 1 } });

      expect(res.status).toBe(201);
      expect(res.body.count).toBe(0);
      expect(res.body).not.toHaveProperty('colour');
    });

    it.each([{}, { description: 'No name' }])('answers rest_missing_callback_param with params ["name"] when name is missing: %j', async (body) => {
      const res = await as('admin').post(`${API}/${tx.route}`).send(body);

      expectError(res, 400, 'rest_missing_callback_param');
      expect(res.body.data.params).toEqual(['name']);
    });

    it('treats name: null as missing', async () => {
      const res = await as('admin').post(`${API}/${tx.route}`).send({ name: null });

      expectError(res, 400, 'rest_missing_callback_param');
      expect(res.body.data.params).toEqual(['name']);
    });

    it('reports the missing name before an invalid description', async () => {
      const res = await as('admin').post(`${API}/${tx.route}`).send({ description: '' });

      expectError(res, 400, 'rest_missing_callback_param');
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['an empty description', { description: '' }, 'description'],
      ['an empty slug', { slug: '' }, 'slug'],
    ])('rejects %s', async (_label, fields, param) => {
      const res = await as('admin')
        .post(`${API}/${tx.route}`)
        .send({ name: `Bad ${uid()}`, ...fields });

      expectInvalidParams(res, param);
    });

    it('normalises an explicit slug', async () => {
      const res = await as('admin')
        .post(`${API}/${tx.route}`)
        .send({ name: `Slugged ${uid()}`, slug: 'My Slug!' });

      expect(res.status).toBe(201);
      expect(res.body.slug).toBe('my-slug');
      expect(res.body.url).toBe(tx.url(t.baseUrl, 'my-slug'));
    });

    it('suffixes a generated slug that is taken', async () => {
      const tok = uid();
      const first = await term({ name: `Collide ${tok}` });
      const second = await term({ name: `Collide: ${tok}` });
      const third = await term({ name: `Collide (${tok})` });
      const fourth = await term({ name: `Collide! ${tok}` });

      expect([first.slug, second.slug, third.slug, fourth.slug]).toEqual([`collide-${tok}`, `collide-${tok}-2`, `collide-${tok}-3`, `collide-${tok}-4`]);
    });

    it('refuses an explicit slug that is taken with duplicate_term_slug', async () => {
      const tok = uid();
      await term({ name: `Owner ${tok}`, slug: `${tok}-taken` });

      const res = await as('admin')
        .post(`${API}/${tx.route}`)
        .send({ name: `Other ${tok}`, slug: `${tok}-taken` });

      expectError(res, 400, 'duplicate_term_slug');
    });

    it('allows the slug of a term of the other kind (slugs are unique per kind)', async () => {
      const tok = uid();
      const wrongKind = await otherTerm({ name: `Shared ${tok}` });

      const res = await as('admin')
        .post(`${API}/${tx.route}`)
        .send({ name: `Shared ${tok}`, slug: wrongKind.slug });

      expect(res.status).toBe(201);
      expect(res.body.slug).toBe(wrongKind.slug);
      expect(res.body.id).not.toBe(wrongKind.id);
    });

    it('refuses an existing name, case-insensitively, with term_exists and data.term_id', async () => {
      const tok = uid();
      const existing = await term({ name: `Case Name ${tok}` });

      const res = await as('admin')
        .post(`${API}/${tx.route}`)
        .send({ name: `CASE NAME ${tok.toUpperCase()}` });

      expectError(res, 400, 'term_exists');
      expect(res.body.data.term_id).toBe(existing.id);
    });

    it.each(['{"name": "Broken', '{"name": '])('answers rest_invalid_json for a malformed JSON body: %s', async (body) => {
      const res = await as('admin').post(`${API}/${tx.route}`).set('Content-Type', 'application/json').send(body);

      expectError(res, 400, 'rest_invalid_json');
    });
  });

  describe('permissions', () => {
    const create = (who?: Who) =>
      as(who)
        .post(`${API}/${tx.route}`)
        .send({ name: `Perm ${uid()}` });

    it('answers 401 rest_forbidden to an anonymous create', async () => {
      expectError(await create(), 401, 'rest_forbidden');
    });

    it.each(tx.refused)('answers 403 rest_forbidden to a %s', async (who) => {
      expectError(await create(who), 403, 'rest_forbidden');
    });

    it.each(tx.managers)('lets an %s create, update and delete', async (who) => {
      const created = await create(who);
      expect(created.status).toBe(201);

      const put = await as(who)
        .put(`${API}/${tx.route}/${created.body.id}`)
        .send({ description: `by ${who}` });
      expect(put.status).toBe(200);
      expect(put.body.description).toBe(`by ${who}`);

      const patched = await as(who)
        .patch(`${API}/${tx.route}/${created.body.id}`)
        .send({ description: `patched by ${who}` });
      expect(patched.status).toBe(200);
      expect(patched.body.description).toBe(`patched by ${who}`);

      const deleted = await as(who).delete(`${API}/${tx.route}/${created.body.id}`);
      expect(deleted.status).toBe(200);
    });

    it('refuses updates and deletes of an existing term to callers who may not manage terms of this kind', async () => {
      const existing = await term({ name: `Guarded ${uid()}` });
      const path = `${API}/${tx.route}/${existing.id}`;

      expectError(await as().patch(path).send({ description: 'x' }), 401, 'rest_forbidden');
      expectError(await as().put(path).send({ description: 'x' }), 401, 'rest_forbidden');
      expectError(await as().delete(path), 401, 'rest_forbidden');
      for (const who of tx.refused) {
        expectError(await as(who).patch(path).send({ description: 'x' }), 403, 'rest_forbidden');
        expectError(await as(who).put(path).send({ description: 'x' }), 403, 'rest_forbidden');
        expectError(await as(who).delete(path), 403, 'rest_forbidden');
      }

      expect(await read(existing.id)).toStrictEqual(existing);
    });

    it('answers 401 incorrect_password to a wrong password, even on a public GET', async () => {
      expectError(await http(t, basicAuth('admin', 'not the password')).get(`${API}/${tx.route}`), 401, 'incorrect_password');
      expectError(await http(t, basicAuth('admin', 'wrong')).get(`${API}/${tx.route}`), 401, 'incorrect_password');
    });

    it('answers 401 invalid_username to an unknown login', async () => {
      expectError(await http(t, basicAuth('nobody', 'whatever')).get(`${API}/${tx.route}`), 401, 'invalid_username');
      expectError(await http(t, basicAuth('ghost', 'wrong')).get(`${API}/${tx.route}`), 401, 'invalid_username');
    });

    it('answers 401 invalid_username to a Basic header that does not decode to login:password', async () => {
      const res = await http(t, `Basic ${Buffer.from('no-colon-here').toString('base64')}`).get(`${API}/${tx.route}`);

      expectError(res, 401, 'invalid_username');
    });

    it('treats a non-Basic Authorization scheme as anonymous', async () => {
      expect((await http(t, 'Bearer whatever').get(`${API}/${tx.route}`)).status).toBe(200);
      expectError(
        await http(t, 'Bearer whatever')
          .post(`${API}/${tx.route}`)
          .send({ name: `Bearer ${uid()}` }),
        401,
        'rest_forbidden',
      );
    });

    it('checks credentials before routing', async () => {
      const res = await http(t, basicAuth('admin', 'not the password')).get(`${API}/${tx.route}/abc`);

      expectError(res, 401, 'incorrect_password');
    });

    it('validates before checking permission', async () => {
      expectInvalidParams(await as().post(`${API}/${tx.route}/99999`).send({ name: 'x' }), 'id');
      expectInvalidParams(await as('subscriber').delete(`${API}/${tx.route}/99999`), 'id');
      expectInvalidParams(await as().post(`${API}/${tx.route}`).send({ name: '' }), 'name');
      for (const who of tx.refused) expectInvalidParams(await as(who).post(`${API}/${tx.route}`).send({ name: '' }), 'name');
      expectError(await as('subscriber').post(`${API}/${tx.route}`).send({}), 400, 'rest_missing_callback_param');
    });
  });

  describe('read by id', () => {
    it('answers 200 with the term, also with a trailing slash', async () => {
      const existing = await term({ name: `Readable ${uid()}` });

      const plain = await http(t).get(`${API}/${tx.route}/${existing.id}`);
      const slashed = await http(t).get(`${API}/${tx.route}/${existing.id}/`);

      expect(plain.status).toBe(200);
      expect(plain.body).toStrictEqual(existing);
      expect(slashed.status).toBe(200);
      expect(slashed.body).toStrictEqual(existing);
    });

    it('answers 400 rest_invalid_param for an unknown id', async () => {
      expectInvalidParams(await http(t).get(`${API}/${tx.route}/999999`), 'id');
    });

    it('answers 400 for an id of the other kind', async () => {
      const wrongKind = await otherTerm({ name: `${uid()} other kind` });

      expectInvalidParams(await http(t).get(`${API}/${tx.route}/${wrongKind.id}`), 'id');
    });

    it('answers 404 rest_no_route for a non-digit id', async () => {
      expectError(await http(t).get(`${API}/${tx.route}/abc`), 404, 'rest_no_route');
      expectError(await http(t).get(`${API}/${tx.route}/12abc`), 404, 'rest_no_route');
    });
  });

  describe('update', () => {
    it.each((['post', 'put', 'patch'] as const).flatMap((method) => writers.map((who) => [method, who] as const)))(
      'renames with %s as a partial update (as %s)',
      async (method, who) => {
        const tok = uid();
        const existing = await term({ name: `Old ${tok}`, description: 'keep me' });

        const res = await as(who)
          [method](`${API}/${tx.route}/${existing.id}`)
          .send({ name: `New ${tok}` });

        expect(res.status).toBe(200);
        expect(Object.keys(res.body)).toEqual(tx.keys);
        expect(res.body).toMatchObject({ id: existing.id, name: `New ${tok}`, description: 'keep me', ...tx.topLevel });
        expect(await read(existing.id)).toStrictEqual(res.body);
      },
    );

    it('changes only the description when only the description is sent (form body)', async () => {
      const tok = uid();
      const existing = await term({ name: `Described ${tok}` });

      const res = await as('admin').patch(`${API}/${tx.route}/${existing.id}`).type('form').send('description=Now+described');

      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual({ ...existing, description: 'Now described' });
    });

    it('keeps the path id over an id in the body', async () => {
      const tok = uid();
      const target = await term({ name: `Target ${tok}` });
      const bystander = await term({ name: `Bystander ${tok}` });

      const res = await as('admin')
        .put(`${API}/${tx.route}/${target.id}`)
        .send({ id: bystander.id, name: `Renamed ${tok}` });

      expect(res.status).toBe(200);
      expect(res.body.id).toBe(target.id);
      expect(await read(bystander.id)).toStrictEqual(bystander);
    });

    it('refuses a rename to the name of another term with term_exists', async () => {
      const tok = uid();
      const sibling = await term({ name: `Sibling ${tok}` });
      const existing = await term({ name: `Renamer ${tok}` });

      for (const method of ['put', 'patch'] as const) {
        const res = await as('admin')
          [method](`${API}/${tx.route}/${existing.id}`)
          .send({ name: `sibling ${tok}` });

        expectError(res, 400, 'term_exists');
        expect(res.body.data.term_id).toBe(sibling.id);
        expect((await read(existing.id)).name).toBe(`Renamer ${tok}`);
      }
    });

    it('refuses a slug used by another term with duplicate_term_slug, and keeps its own', async () => {
      const tok = uid();
      const owner = await term({ name: `Slug owner ${tok}` });
      const existing = await term({ name: `Slug taker ${tok}` });

      expectError(await as('admin').patch(`${API}/${tx.route}/${existing.id}`).send({ slug: owner.slug }), 400, 'duplicate_term_slug');
      expect((await read(existing.id)).slug).toBe(existing.slug);

      const same = await as('admin').patch(`${API}/${tx.route}/${existing.id}`).send({ slug: existing.slug });
      expect(same.status).toBe(200);
      expect(same.body.slug).toBe(existing.slug);
    });

    it('normalises a new slug and changes the url with it', async () => {
      const tok = uid();
      const existing = await term({ name: `Reslug ${tok}` });

      const res = await as('admin')
        .patch(`${API}/${tx.route}/${existing.id}`)
        .send({ slug: `New Slug ${tok}!` });

      expect(res.status).toBe(200);
      expect(res.body.slug).toBe(`new-slug-${tok}`);
      expect(res.body.url).toBe(tx.url(t.baseUrl, `new-slug-${tok}`));

      const moved = await as('admin')
        .put(`${API}/${tx.route}/${existing.id}`)
        .send({ slug: `${tok}-moved` });
      expect(moved.status).toBe(200);
      expect(moved.body.url).toBe(tx.url(t.baseUrl, `${tok}-moved`));
    });

    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['an empty description', { description: '' }, 'description'],
      ['an empty slug', { slug: '' }, 'slug'],
    ])('rejects %s', async (_label, fields, param) => {
      const existing = await term({ name: `Valid ${uid()}` });

      expectInvalidParams(await as('admin').patch(`${API}/${tx.route}/${existing.id}`).send(fields), param);
    });

    it('answers 400 for an unknown id', async () => {
      expectInvalidParams(await as('admin').put(`${API}/${tx.route}/999999`).send({ name: 'Ghost' }), 'id');
    });

    it('answers rest_invalid_json for a malformed JSON body', async () => {
      const existing = await term({ name: `Jsonless ${uid()}` });

      const res = await as('admin').patch(`${API}/${tx.route}/${existing.id}`).set('Content-Type', 'application/json').send('{nope');

      expectError(res, 400, 'rest_invalid_json');
    });
  });

  describe('delete', () => {
    it.each(writers)('answers 200 with the term as it was, count included, and removes it from events (as %s)', async (who) => {
      const tok = uid();
      const doomed = await term({ name: `Doomed ${tok}`, description: 'soon gone' });
      const survivor = await term({ name: `Survivor ${tok}` });
      const event = await eventWith([doomed.id, survivor.id]);
      const before = await read(doomed.id);
      expect(before.count).toBe(1);

      const res = await as(who).delete(`${API}/${tx.route}/${doomed.id}`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(tx.keys);
      expect(res.body).toStrictEqual(before);
      expectInvalidParams(await http(t).get(`${API}/${tx.route}/${doomed.id}`), 'id');
      expectInvalidParams(await as(who).delete(`${API}/${tx.route}/${doomed.id}`), 'id');
      expect(await listIds(`post=${event}`)).toEqual([survivor.id]);
      expect((await read(survivor.id)).count).toBe(1);
    });

    it.each([
      ['put', ''],
      ['patch', ''],
      ['delete', ''],
      ['post', '/abc'],
      ['patch', '/abc'],
      ['get', '/1/extra'],
    ] as const)(`answers 404 rest_no_route to %s /${tx.route}%s`, async (method, suffix) => {
      expectError(await as('admin')[method](`${API}/${tx.route}${suffix}`), 404, 'rest_no_route');
    });
  });

  describe('counts', () => {
    it('counts published events only', async () => {
      const counted = await term({ name: `Counted ${uid()}` });
      await eventWith([counted.id]);
      const draft = await eventWith([counted.id], { status: 'draft' });

      expect((await read(counted.id)).count).toBe(1);

      await eventWith([counted.id]);
      expect((await read(counted.id)).count).toBe(2);

      await updated(draft, { status: 'publish' });
      expect((await read(counted.id)).count).toBe(3);

      await updated(draft, { status: 'draft' });
      expect((await read(counted.id)).count).toBe(2);
    });

    it('follows the publication of an event, and hide_empty with it', async () => {
      const flipping = await term({ name: `Flipping ${uid()}` });
      const event = await eventWith([flipping.id], { status: 'draft' });
      expect((await read(flipping.id)).count).toBe(0);
      expect(await listIds(`include=${flipping.id}`)).toEqual([]);

      await updated(event, { status: 'publish' });
      const published = await list(`include=${flipping.id}`);
      expect(idsOf(published.body[tx.route])).toEqual([flipping.id]);
      expect(published.body[tx.route][0].count).toBe(1);

      await updated(event, { status: 'draft' });
      expect((await read(flipping.id)).count).toBe(0);
      expect(await listIds(`include=${flipping.id}`)).toEqual([]);
    });

    it('moves the count when an event gets other terms', async () => {
      const tok = uid();
      const before = await term({ name: `Before ${tok}` });
      const after = await term({ name: `After ${tok}` });
      const event = await eventWith([before.id]);

      await updated(event, { [tx.route]: [after.id] });

      expect((await read(before.id)).count).toBe(0);
      expect((await read(after.id)).count).toBe(1);
      expect(await listIds(`include=${before.id},${after.id}`)).toEqual([after.id]);
    });

    it('does not count terms of the other kind on the same event', async () => {
      const tok = uid();
      const mine = await term({ name: `Mine ${tok}` });
      const wrongKind = await otherTerm({ name: `Theirs ${tok}` });
      await eventWith([mine.id], { others: [wrongKind.id] });

      expect((await read(mine.id)).count).toBe(1);
      expect((await readTerm(t, tx.other, wrongKind.id)).count).toBe(1);
    });
  });
});
