// What every answer goes through on its way out (spec beyond.md #3 ETag / conditional GET and
// #11 compression), on fresh and cached answers alike. Raw bodies are read with Fastify's inject,
// which, unlike supertest, does not decode the content coding.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const WINDOW = 'start_date=2049-01-01&end_date=2049-12-31';

describe('ETag, If-None-Match and compression', () => {
  let t: TestApp;
  let fastify: FastifyInstance;
  let admin: string;
  let eventId: number;

  const get = (url: string, headers: Record<string, string> = {}) => fastify.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    t = await createTestApp();
    fastify = t.app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    admin = (await t.userHeader('rep-admin', 'administrator')).authorization;
    for (const day of [1, 2, 3, 4, 5, 6]) {
      const made = await http(t, admin)
        .post(`${API}/events`)
        .send({
          title: `Representation ${day}`,
          description: `<p>${'A long description that makes the list answer well over a kilobyte. '.repeat(5)}</p>`,
          start_date: `2049-03-0${day} 10:00`,
          end_date: `2049-03-0${day} 11:00`,
        });
      expect(made.status).toBe(201);
      eventId = made.body.id;
    }
  });
  afterAll(async () => t.close());

  describe('compression (beyond.md #11)', () => {
    it('sends br when allowed, gzip when only gzip is, the same JSON either way, twice (fresh, then cached)', async () => {
      for (let round = 0; round < 2; round++) {
        const plain = await get(`${API}/events?${WINDOW}`);
        expect(plain.statusCode).toBe(200);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.rawPayload.length).toBeGreaterThan(1024);
        expect(plain.headers.vary).toMatch(/Accept-Encoding/i);

        const br = await get(`${API}/events?${WINDOW}`, { 'accept-encoding': 'gzip, deflate, br' });
        expect(br.headers['content-encoding']).toBe('br');
        expect(br.headers.vary).toMatch(/Accept-Encoding/i);
        expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
        expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
        expect(br.headers['x-tec-total']).toBe('6');

        const gz = await get(`${API}/events?${WINDOW}`, { 'accept-encoding': 'gzip;q=1, br;q=0' });
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
      }
    });

    it('honours q-values and refusals', async () => {
      const gzPreferred = await get(`${API}/events?${WINDOW}`, { 'accept-encoding': 'br;q=0.5, gzip;q=0.9' });
      expect(gzPreferred.headers['content-encoding']).toBe('gzip');
      const none = await get(`${API}/events?${WINDOW}`, { 'accept-encoding': 'identity, *;q=0' });
      expect(none.headers['content-encoding']).toBeUndefined();
      const star = await get(`${API}/events?${WINDOW}`, { 'accept-encoding': '*' });
      expect(star.headers['content-encoding']).toBe('br');
    });

    it('leaves answers of 1 KB or less alone', async () => {
      const error = await get(`${API}/events?page=zero`, { 'accept-encoding': 'br, gzip' });
      const category = await http(t, admin).post(`${API}/categories`).send({ name: 'Small' });
      const small = await get(`${API}/categories/${category.body.id}`, { 'accept-encoding': 'br, gzip' });
      for (const res of [small, error]) {
        expect(res.rawPayload.length).toBeLessThanOrEqual(1024);
        expect(res.headers['content-encoding']).toBeUndefined();
      }
      expect(error.statusCode).toBe(400);
      expect(JSON.parse(error.payload).code).toBe('rest_invalid_param');
    });

    it('compresses authenticated answers too (they are never cached)', async () => {
      const res = await get(`${API}/events?${WINDOW}`, { 'accept-encoding': 'gzip', authorization: admin });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(res.rawPayload).toString()).events).toHaveLength(6);
    });
  });

  describe('ETag and 304 (beyond.md #3)', () => {
    const routes = () => [
      `${API}/events?${WINDOW}`,
      `${API}/events/${eventId}`,
      `${API}/venues`,
      `${API}/organizers`,
      `${API}/categories`,
      `${API}/tags`,
      `${API}/`,
      `${API}/doc`,
      `${API}/events.ics?${WINDOW}`,
      `${API}/events/${eventId}.ics`,
    ];

    it('every GET carries a strong tag; If-None-Match with it (or *) answers 304 with no body and the same tag', async () => {
      for (const url of routes()) {
        const first = await get(url);
        expect([url, first.statusCode]).toEqual([url, 200]);
        const tag = first.headers.etag as string;
        expect([url, tag]).toEqual([url, expect.stringMatching(/^"[^"]+"$/)]);
        // the same body, the same tag (also when the second answer comes from the response cache)
        expect((await get(url)).headers.etag).toBe(tag);
        for (const condition of [tag, '*', `"other", ${tag}`, `W/${tag}`]) {
          const again = await get(url, { 'if-none-match': condition });
          expect([url, condition, again.statusCode]).toEqual([url, condition, 304]);
          expect(again.rawPayload.length).toBe(0);
          expect(again.headers.etag).toBe(tag);
        }
        const stale = await get(url, { 'if-none-match': '"not-this-one"' });
        expect([url, stale.statusCode]).toEqual([url, 200]);
      }
    });

    it('the JSON and iCalendar answers of one URL have their own tags, each revalidating only itself', async () => {
      const url = `${API}/events/${eventId}`;
      const json = await get(url);
      const ics = await get(url, { accept: 'text/calendar' });
      expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
      expect(ics.headers.vary).toMatch(/Accept\b/);
      expect(ics.headers.etag).not.toBe(json.headers.etag);
      expect((await get(url, { accept: 'text/calendar', 'if-none-match': ics.headers.etag as string })).statusCode).toBe(304);
      expect((await get(url, { 'if-none-match': ics.headers.etag as string })).statusCode).toBe(200);
    });

    it('tags differ across codings, and a coded tag revalidates only that coding', async () => {
      const url = `${API}/events?${WINDOW}`;
      const plain = await get(url);
      const br = await get(url, { 'accept-encoding': 'br' });
      const gz = await get(url, { 'accept-encoding': 'gzip' });
      const tags = [plain.headers.etag, br.headers.etag, gz.headers.etag];
      expect(new Set(tags).size).toBe(3);
      expect((await get(url, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string })).statusCode).toBe(304);
      expect((await get(url, { 'accept-encoding': 'br', 'if-none-match': plain.headers.etag as string })).statusCode).toBe(200);
    });

    it('the tag changes when the body does', async () => {
      const url = `${API}/events/${eventId}`;
      const before = (await get(url)).headers.etag;
      const updated = await http(t, admin).post(url).send({ title: 'Representation, renamed' });
      expect(updated.status).toBe(200);
      const after = await get(url);
      expect(after.headers.etag).not.toBe(before);
      expect((await get(url, { 'if-none-match': before as string })).statusCode).toBe(200);
      expect(JSON.parse(after.payload).title).toBe('Representation, renamed');
    });

    it('errors carry no tag and never answer 304', async () => {
      const missing = await get(`${API}/events/999999`, { 'if-none-match': '*' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers.etag).toBeUndefined();
    });

    it('a successful update answers with the tag the item’s GET then has, for the same caller', async () => {
      const url = `${API}/events/${eventId}`;
      const updated = await fastify.inject({
        method: 'POST',
        url,
        headers: { authorization: admin, 'content-type': 'application/json' },
        payload: { title: 'Representation, tagged' },
      });
      expect(updated.statusCode).toBe(200);
      const read = await get(url, { authorization: admin });
      expect(updated.headers.etag).toBe(read.headers.etag);
    });
  });
});
