// CORS (spec beyond.md #8): pre-flights, the allowed and exposed headers, CALENDAR_CORS_ORIGINS.
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const preflight = (t: TestApp, path: string, origin = 'https://widget.example') =>
  t.app
    .getHttpAdapter()
    .getInstance()
    .inject({
      method: 'OPTIONS',
      url: path,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,if-match' },
    });

describe('CORS, by default (any origin)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('cors-admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  it.each([`${API}/events`, `${API}/events/12`, `${API}/categories`, `${API}/venues/by-slug/x`, `${API}/`])(
    'answers the pre-flight of %s with 204 and what may be sent',
    async (path) => {
      const res = await preflight(t, path);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
      expect(String(res.headers['access-control-allow-headers']).split(/,\s*/)).toEqual([
        'Authorization',
        'Content-Type',
        'If-Match',
        'If-None-Match',
        'X-Request-Id',
      ]);
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.body).toBe('');
    },
  );

  it('a bare OPTIONS (no Origin) is answered 204 too', async () => {
    const res = await t.app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: 'OPTIONS', url: `${API}/events` });
    expect(res.statusCode).toBe(204);
  });

  it('every answer allows any origin and exposes the headers a client reads: lists, cached answers, writes and errors', async () => {
    const origin = { Origin: 'https://widget.example' };
    const list = await http(t).get(`${API}/categories?hide_empty=false`).set(origin);
    const again = await http(t).get(`${API}/categories?hide_empty=false`).set(origin); // from the response cache
    const created = await http(t, admin).post(`${API}/tags`).set(origin).send({ name: 'From another site' });
    const refused = await http(t).post(`${API}/tags`).set(origin).send({ name: 'Anonymous' });
    expect([list.status, again.status, created.status, refused.status]).toEqual([200, 200, 201, 401]);
    for (const res of [list, again, created, refused]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-expose-headers']).split(/,\s*/)).toEqual(['X-TEC-Total', 'X-TEC-TotalPages', 'ETag', 'Link', 'X-Request-Id']);
    }
    expect(list.headers.vary ?? '').not.toMatch(/origin/i); // `*` does not vary
  });
});

describe('CORS for listed origins (CALENDAR_CORS_ORIGINS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_CORS_ORIGINS: 'https://a.example, https://b.example:8443' });
  });
  afterAll(async () => t.close());

  it('echoes a listed origin with Vary: Origin, and allows no other', async () => {
    const listed = await http(t).get(`${API}/events`).set('Origin', 'https://b.example:8443');
    expect(listed.headers['access-control-allow-origin']).toBe('https://b.example:8443');
    expect(listed.headers.vary).toMatch(/origin/i);
    const other = await http(t).get(`${API}/events`).set('Origin', 'https://evil.example');
    expect(other.status).toBe(200); // CORS is the browser's to enforce: the answer simply does not allow it
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(t, `${API}/events`, 'https://a.example')).headers['access-control-allow-origin']).toBe('https://a.example');
    expect((await preflight(t, `${API}/events`, 'https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS off (CALENDAR_CORS_ORIGINS set empty)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_CORS_ORIGINS: '' });
  });
  afterAll(async () => t.close());

  it('sends no CORS header, and OPTIONS is an unknown route', async () => {
    const res = await http(t).get(`${API}/events`).set('Origin', 'https://widget.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const options = await preflight(t, `${API}/events`);
    expect(options.statusCode).toBe(404);
    expect(JSON.parse(options.body).code).toBe('rest_no_route');
  });
});
