import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('authentication (spec auth.md §1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_ADMIN_LOGIN: 'boot', CALENDAR_ADMIN_PASSWORD: 'abcd efgh ijkl mnop' });
  });
  afterAll(async () => t.close());

  it('the bootstrap administrator can write, whitespace in the password ignored', async () => {
    const res = await http(t, basic('boot', 'abcdefghijklmnop')).post(`${API}/tags`).send({ name: 'Boot tag' });
    expect(res.status).toBe(201);
    const spaced = await http(t, basic('boot', 'abcd efgh ijkl mnop')).post(`${API}/tags`).send({ name: 'Spaced' });
    expect(spaced.status).toBe(201);
  });

  it('an unknown login is 401 invalid_username, even on public routes and unknown paths', async () => {
    for (const path of [`${API}/categories`, '/no/such/path']) {
      const res = await http(t, basic('nobody', 'whatever-pass')).get(path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'invalid_username', message: expect.any(String), data: { status: 401 } });
    }
  });

  it('a wrong password is 401 incorrect_password', async () => {
    const res = await http(t, basic('boot', 'wrong-password')).get(`${API}/tags`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('incorrect_password');
  });

  it('an undecodable Basic value is 401 invalid_username', async () => {
    for (const header of ['Basic !!!', 'Basic ' + Buffer.from('no-colon').toString('base64'), 'Basic']) {
      const res = await http(t, header).get(`${API}/tags`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_username');
    }
  });

  it('another scheme is an anonymous reader', async () => {
    const read = await http(t, 'Bearer abc').get(`${API}/tags`);
    expect(read.status).toBe(200);
    const write = await http(t, 'Bearer abc').post(`${API}/tags`).send({ name: 'x' });
    expect(write.status).toBe(401);
    expect(write.body.code).toBe('rest_forbidden');
  });

  it('each user gets the rights of its role', async () => {
    const author = await t.userHeader('writer', 'author');
    expect((await http(t, author.authorization).post(`${API}/categories`).send({ name: 'By author' })).status).toBe(201);
    const res = await http(t, author.authorization).post(`${API}/tags`).send({ name: 'By author' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'rest_forbidden', message: expect.any(String), data: { status: 403 } });
  });
});

describe('HTTP conventions (spec README §1–§2, §9)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  it('unknown paths and methods are 404 rest_no_route with the error shape', async () => {
    for (const [method, path] of [
      ['get', `${API}/nothing`],
      ['put', `${API}/tags`],
      ['delete', `${API}/categories`],
      ['get', `${API}/tags/abc`],
      ['get', `${API}/tags/-1`],
    ] as const) {
      const res = await http(t)[method](path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(res.body).toEqual({ code: 'rest_no_route', message: expect.any(String), data: { status: 404 } });
    }
  });

  it('a trailing slash is ignored', async () => {
    expect((await http(t).get(`${API}/tags/`)).status).toBe(200);
    expect((await http(t).get(`${API}/`)).status).toBe(200);
  });

  it('malformed JSON is 400 rest_invalid_json; an empty JSON body is no parameters', async () => {
    const bad = await http(t, admin).post(`${API}/tags`).set('Content-Type', 'application/json').send('{"name": ');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'rest_invalid_json', message: expect.any(String), data: { status: 400 } });
    const empty = await http(t, admin).post(`${API}/tags`).set('Content-Type', 'application/json').send('');
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('rest_missing_callback_param');
  });

  it('route matching comes before JSON parsing', async () => {
    const res = await http(t, admin).post(`${API}/nothing`).set('Content-Type', 'application/json').send('{bad');
    expect(res.status).toBe(404);
  });

  it('accepts form bodies and query-string parameters on writes, the body winning', async () => {
    const form = await http(t, admin).post(`${API}/tags`).type('form').send('name=Form+tag&description=From+a+form');
    expect(form.status).toBe(201);
    expect(form.body).toMatchObject({ name: 'Form tag', description: 'From a form' });
    const query = await http(t, admin).post(`${API}/tags?name=Query+name&description=q`).send({ name: 'Body name' });
    expect(query.status).toBe(201);
    expect(query.body).toMatchObject({ name: 'Body name', description: 'q' });
  });

  it('null in JSON means "not given"', async () => {
    const res = await http(t, admin).post(`${API}/tags`).send({ name: 'Nullish', description: null, slug: null });
    expect(res.status).toBe(201);
    expect(res.body.description).toBe('');
  });

  it('unknown parameters are ignored', async () => {
    const res = await http(t, admin).post(`${API}/tags?foo=1`).send({ name: 'Unknown params', colour: 'red' });
    expect(res.status).toBe(201);
    expect((await http(t).get(`${API}/tags?bar=baz`)).status).toBe(200);
  });

  it('wrong types are 400, never 500', async () => {
    for (const body of [{ name: 42 }, { name: ['a'] }, { name: { a: 1 } }, { name: true }, { name: 'ok', slug: 5 }]) {
      const res = await http(t, admin).post(`${API}/tags`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    const arrayBody = await http(t, admin).post(`${API}/tags`).send([1, 2]);
    expect(arrayBody.status).toBe(400);
    const huge = await http(t).get(`${API}/tags?page=1e400&per_page=99999999999999999999999`);
    expect(huge.status).toBe(400);
    expect(Object.keys(huge.body.data.params)).toEqual(['page']);
    const hugeId = await http(t).get(`${API}/tags/99999999999999999999999`);
    expect(hugeId.status).toBe(400);
  });

  it('echoes a request id', async () => {
    const res = await http(t).get(`${API}/tags`).set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect((await http(t).get(`${API}/tags`)).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
