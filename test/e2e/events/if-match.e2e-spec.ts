// Optimistic concurrency (spec beyond.md #4): updates and deletes of every resource honour
// If-Match with the tag of the item's single GET for the same caller; a stale tag answers
// 412 rest_precondition_failed and changes nothing; a successful update answers the new ETag.
import type { FastifyInstance } from 'fastify';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

interface Resource {
  name: string;
  /** Creates one item and returns the URL of its single routes (by id or by slug). */
  make: (n: number) => Promise<string>;
  /** An update body and the field it changes. */
  change: (n: number) => Record<string, string>;
  field: string;
}

describe('If-Match on updates and deletes', () => {
  let t: TestApp;
  let fastify: FastifyInstance;
  let admin: string;

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) =>
    fastify.inject({ method, url, headers: { authorization: admin, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers }, payload });

  const created = async (path: string, body: object): Promise<{ id: number; slug: string }> => {
    const res = await http(t, admin).post(`${API}/${path}`).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };

  const resources: Resource[] = [
    {
      name: 'event by id',
      make: async (n) =>
        `${API}/events/${(await created('events', { title: `Match ${n}`, start_date: '2050-01-02 10:00', end_date: '2050-01-02 11:00', venue: { venue: `Match hall ${n}` } })).id}`,
      change: (n) => ({ title: `Match ${n} renamed` }),
      field: 'title',
    },
    {
      name: 'event by slug',
      make: async (n) =>
        `${API}/events/by-slug/${(await created('events', { title: `Slug match ${n}`, start_date: '2050-01-03 10:00', end_date: '2050-01-03 11:00' })).slug}`,
      change: (n) => ({ title: `Slug match ${n} renamed` }),
      field: 'title',
    },
    {
      name: 'venue by id',
      make: async (n) => `${API}/venues/${(await created('venues', { venue: `Venue match ${n}` })).id}`,
      change: (n) => ({ venue: `Venue match ${n} renamed` }),
      field: 'venue',
    },
    {
      name: 'venue by slug',
      make: async (n) => `${API}/venues/by-slug/${(await created('venues', { venue: `Venue slug match ${n}` })).slug}`,
      change: () => ({ city: 'Lyon' }),
      field: 'city',
    },
    {
      name: 'organizer by id',
      make: async (n) => `${API}/organizers/${(await created('organizers', { organizer: `Organizer match ${n}` })).id}`,
      change: (n) => ({ organizer: `Organizer match ${n} renamed` }),
      field: 'organizer',
    },
    {
      name: 'organizer by slug',
      make: async (n) => `${API}/organizers/by-slug/${(await created('organizers', { organizer: `Organizer slug match ${n}` })).slug}`,
      change: () => ({ phone: '555-0100' }),
      field: 'phone',
    },
    {
      name: 'category',
      make: async (n) => `${API}/categories/${(await created('categories', { name: `Category match ${n}` })).id}`,
      change: (n) => ({ name: `Category match ${n} renamed` }),
      field: 'name',
    },
    {
      name: 'tag',
      make: async (n) => `${API}/tags/${(await created('tags', { name: `Tag match ${n}` })).id}`,
      change: (n) => ({ name: `Tag match ${n} renamed` }),
      field: 'name',
    },
  ];

  beforeAll(async () => {
    t = await createTestApp();
    fastify = t.app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    admin = (await t.userHeader('match-admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  describe.each(resources.map((r, i) => [r.name, r, i] as const))('%s', (_name, resource, n) => {
    it('a stale tag is refused with 412 and nothing changes; the current one goes through and answers the new tag', async () => {
      const url = await resource.make(n);
      const read = await send('GET', url);
      expect(read.statusCode).toBe(200);
      const tag = read.headers.etag as string;
      expect(tag).toMatch(/^"[^"]+"$/);

      for (const stale of ['"stale"', `W/${tag}`]) {
        const refused = await send('POST', url, { 'if-match': stale }, resource.change(n));
        expect([stale, refused.statusCode]).toEqual([stale, 412]);
        expect(JSON.parse(refused.payload)).toMatchObject({ code: 'rest_precondition_failed', data: { status: 412 } });
      }
      expect((await send('GET', url)).payload).toBe(read.payload);

      const done = await send('POST', url, { 'if-match': `"other", ${tag}` }, resource.change(n));
      expect(done.statusCode).toBe(200);
      expect(JSON.parse(done.payload)[resource.field]).toBe(resource.change(n)[resource.field]);
      const after = await send('GET', url);
      expect(done.headers.etag).toBe(after.headers.etag);
      expect(after.headers.etag).not.toBe(tag);

      // The tag just replaced is stale now, for PUT and PATCH as for POST, and for DELETE.
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        const again = await send(method, url, { 'if-match': tag }, method === 'DELETE' ? undefined : resource.change(n));
        expect([method, again.statusCode]).toEqual([method, 412]);
      }
      expect((await send('GET', url)).headers.etag).toBe(after.headers.etag);
    });

    it('accepts the tag of a coded variant, and *; a delete with the current tag goes through', async () => {
      const url = await resource.make(n + 100);
      const coded = await send('GET', url, { 'accept-encoding': 'br' });
      const plain = await send('GET', url);
      const tag = coded.headers['content-encoding'] === 'br' ? (coded.headers.etag as string) : (plain.headers.etag as string);
      expect((await send('PATCH', url, { 'if-match': tag }, resource.change(n + 100))).statusCode).toBe(200);
      expect((await send('PATCH', url, { 'if-match': '*' }, resource.change(n + 200))).statusCode).toBe(200);
      const current = (await send('GET', url)).headers.etag as string;
      const removed = await send('DELETE', url, { 'if-match': current });
      expect(removed.statusCode).toBe(200);
    });
  });

  it.each([0, 2, 4])('a permanent delete (?force=true) honours If-Match too: %s', async (i) => {
    const url = await resources[i].make(500 + i);
    const tag = (await send('GET', url)).headers.etag as string;
    const refused = await send('DELETE', `${url}?force=true`, { 'if-match': '"stale"' });
    expect(refused.statusCode).toBe(412);
    expect((await send('GET', url)).statusCode).toBe(200);
    const removed = await send('DELETE', `${url}?force=true`, { 'if-match': tag });
    expect(removed.statusCode).toBe(200);
    expect(JSON.parse(removed.payload).deleted).toBe(true);
  });

  it('without If-Match nothing is checked', async () => {
    const url = await resources[0].make(999);
    expect((await send('POST', url, {}, { title: 'Unconditional' })).statusCode).toBe(200);
  });

  it('an item the caller may not read matches no tag (but *)', async () => {
    const author = await t.userHeader('match-author', 'author');
    const draft = await http(t, admin)
      .post(`${API}/events`)
      .send({ title: 'Hidden draft', status: 'draft', start_date: '2050-02-01 10:00', end_date: '2050-02-01 11:00' });
    expect(draft.status).toBe(201);
    const url = `${API}/events/${draft.body.id}`;
    const tag = (await send('GET', url)).headers.etag as string;
    // the author may not edit another's draft at all: the permission answers first
    const res = await fastify.inject({
      method: 'POST',
      url,
      headers: { authorization: author.authorization, 'if-match': tag, 'content-type': 'application/json' },
      payload: { title: 'x' },
    });
    expect(res.statusCode).toBe(403);
  });
});
