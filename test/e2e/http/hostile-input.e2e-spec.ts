// Input that used to answer 500 or an error outside the errors.md shape.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { makeUsers } from '../../support/api';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';

/** A raw HTTP/1.1 request (what supertest cannot send: oversized headers), answered status and body. */
function raw(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('hostile input: a 4xx in the errors.md shape, never a 500', () => {
  let t: TestApp;
  let admin: string;
  let port: number;
  const event = { title: 'Hostile', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00' };

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await makeUsers(t)).admin.authorization;
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => t?.close());

  describe('bodies', () => {
    it('JSON nested thousands deep → 400 rest_invalid_request', async () => {
      const deep = `{"title":${'['.repeat(2500)}${']'.repeat(2500)}}`;
      const res = await http(t, admin).post(`${API}/events`).set('Content-Type', 'application/json').send(deep);
      expectError(res, 400, 'rest_invalid_request');
    });

    it('a body over the limit → 413 rest_payload_too_large', async () => {
      const res = await http(t, admin)
        .post(`${API}/events`)
        .send({ ...event, description: 'x'.repeat(1_100_000) });
      expectError(res, 413, 'rest_payload_too_large');
    });
  });

  describe('URLs and headers', () => {
    it('malformed percent-encoding → 400 rest_invalid_request', async () => {
      expectError(await http(t).get(`${API}/events/by-slug/%zz`), 400, 'rest_invalid_request');
    });

    it('a path segment over the router limit keeps its status, in the errors.md shape', async () => {
      const res = await http(t).get(`${API}/events/by-slug/${'a'.repeat(600)}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.data?.status).toBe(res.status);
      expect(typeof res.body.code).toBe('string');
    });

    it('a URL over 16 KB → 431 rest_invalid_request with a body', async () => {
      const res = await raw(port, `${API}/events?search=${'a'.repeat(20_000)}`);
      expect(res.status).toBe(431);
      expect(res.body).toMatchObject({ code: 'rest_invalid_request', data: { status: 431 } });
    });

    it('headers over 16 KB → 431 rest_invalid_request with a body', async () => {
      const res = await raw(port, `${API}/events`, { 'X-Padding': 'p'.repeat(20_000) });
      expect(res.status).toBe(431);
      expect(res.body).toMatchObject({ code: 'rest_invalid_request', data: { status: 431 } });
    });
  });

  describe('date arithmetic', () => {
    it.each(['8640000000001', '+9999999 years', '-9999999 years', 'now +99999999999 days'])('%s as a list filter → 400 rest_invalid_param', async (value) => {
      expectInvalidParams(await http(t).get(`${API}/events?start_date=${encodeURIComponent(value)}`), 'start_date');
    });

    it.each(['8640000000001', '+9999999 years'])('%s as a write field → 400 rest_invalid_param, nothing written', async (value) => {
      const res = await http(t, admin)
        .post(`${API}/events`)
        .send({ ...event, title: `Never ${value}`, start_date: value });
      expectInvalidParams(res, 'start_date');
      expect((await http(t, admin).get(`${API}/events?search=${encodeURIComponent('Never')}`)).body.total ?? 0).toBe(0);
    });
  });

  describe('values longer than their column (MariaDB answered "Data too long")', () => {
    it('a 300-character organizer phone → 400', async () => {
      expectInvalidParams(
        await http(t, admin)
          .post(`${API}/organizers`)
          .send({ organizer: 'Long phone', phone: '1'.repeat(300) }),
        'phone',
      );
    });

    it('a 65-character venue zip and a 256-character city → 400 naming both', async () => {
      expectInvalidParams(
        await http(t, admin)
          .post(`${API}/venues`)
          .send({ venue: 'Long zip', zip: '9'.repeat(65), city: 'c'.repeat(256) }),
        'zip',
        'city',
      );
    });

    it('a 200 KB category name → 400', async () => {
      expectInvalidParams(
        await http(t, admin)
          .post(`${API}/categories`)
          .send({ name: 'n'.repeat(200_000) }),
        'name',
      );
    });

    it('a new category named in an event write longer than a name may be → 400 on categories', async () => {
      expectInvalidParams(
        await http(t, admin)
          .post(`${API}/events`)
          .send({ ...event, categories: ['k'.repeat(201)] }),
        'categories',
      );
    });

    it('escaping cannot push a contributor value past its column: checked as stored', async () => {
      const contributor = (await t.userHeader('hostile-contrib', 'contributor')).authorization;
      // 255 characters as sent; each `<` that opens no tag is stored escaped (`&lt;`), four times longer.
      const res = await http(t, contributor)
        .post(`${API}/venues`)
        .send({ venue: 'Escaped', address: `${'< '.repeat(127)}<` });
      expectInvalidParams(res, 'address');
    });

    it('a title at the limit of its column is stored', async () => {
      const res = await http(t, admin)
        .post(`${API}/events`)
        .send({ ...event, title: 't'.repeat(65_535) });
      expectStatus(res, 201);
    });
  });

  describe('odd text', () => {
    it('a title made of every private-use character is stored as sent', async () => {
      let title = '';
      for (let code = 0xe000; code <= 0xf8ff; code++) title += String.fromCharCode(code);
      const contributor = (await t.userHeader('pua-contrib', 'contributor')).authorization;
      const res = await http(t, contributor)
        .post(`${API}/events`)
        .send({ ...event, title });
      expectStatus(res, 201);
      expect(res.body.title).toBe(title);
    });

    it('lone surrogates (valid JSON, not UTF-8) become U+FFFD', async () => {
      const res = await http(t, admin)
        .post(`${API}/events`)
        .set('Content-Type', 'application/json')
        .send(`{"title":"A\\ud800B\\udc00C","start_date":"2031-01-01","end_date":"2031-01-01"}`);
      expectStatus(res, 201);
      expect(res.body.title).toBe('A\ufffdB\ufffdC');
    });
  });
});
