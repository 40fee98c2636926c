import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, NAMESPACE, REST_INDEX } from '../../support/http';

describe('index and documentation (spec endpoints.md §1–§2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('GET / (at the alias /wp-json/) is the REST root with the namespace', async () => {
    const res = await http(t).get(REST_INDEX);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(res.body).toMatchObject({ name: expect.any(String), namespaces: [NAMESPACE] });
    expect(Object.keys(res.body.routes)).toContain(`/${NAMESPACE}/categories`);
    expect(res.body._links).toEqual({ help: [{ href: `${t.baseUrl}${API}/doc` }] });
  });

  it('GET {api_root} lists the routes of the namespace', async () => {
    const res = await http(t).get(API);
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe(NAMESPACE);
    expect(res.body.supports).toEqual(['sync-connect']);
    expect(res.body._links).toEqual({ up: [{ href: `${t.baseUrl}${REST_INDEX}` }], ical: [{ href: `${t.baseUrl}${API}/events.ics` }] });
    const routes = res.body.routes;
    for (const path of ['', '/doc', '/categories', '/categories/(?P<id>\\d+)', '/tags', '/tags/(?P<id>\\d+)']) {
      const key = `/${NAMESPACE}${path}`;
      expect(routes).toHaveProperty([key]);
      expect(routes[key].namespace).toBe(NAMESPACE);
    }
    expect(routes[`/${NAMESPACE}`].endpoints[0].args).toEqual({
      namespace: { default: NAMESPACE, required: false },
      context: { default: 'view', required: false },
    });
  });

  it('describes methods, arguments and self links as TEC does', async () => {
    const routes = (await http(t).get(`${API}/`)).body.routes;
    const list = routes[`/${NAMESPACE}/categories`];
    expect(list.methods).toEqual(['GET', 'POST']);
    expect(list._links.self[0].href).toBe(`${t.baseUrl}${API}/categories`);
    const get = list.endpoints.find((e: { methods: string[] }) => e.methods.includes('GET'));
    expect(get.args.page).toMatchObject({ required: false, type: 'integer', default: 1 });
    expect(get.args.hide_empty).toMatchObject({ required: false, type: 'boolean', default: true });
    const post = list.endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(post.args.name).toMatchObject({ required: true, type: 'string' });

    const item = routes[`/${NAMESPACE}/categories/(?P<id>\\d+)`];
    expect(item.methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
    expect(item.endpoints.find((e: { methods: string[] }) => e.methods.includes('PUT')).methods).toEqual(['POST', 'PUT', 'PATCH']);
    expect(item._links).toBeUndefined();
  });

  it('GET {api_root}/doc serves an OpenAPI 3 document generated from the code', async () => {
    const res = await http(t).get(`${API}/doc`);
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.(0|1)\.\d+$/);
    expect(doc.info).toMatchObject({ version: '1.0.0', title: expect.any(String), description: expect.any(String) });
    expect(doc.servers).toEqual([{ url: `${t.baseUrl}${API}/` }]);
    for (const path of ['/doc', '/categories', '/categories/{id}', '/tags', '/tags/{id}']) expect(doc.paths).toHaveProperty([path]);
    expect(Object.keys(doc.paths['/categories/{id}']).sort()).toEqual(['delete', 'get', 'patch', 'post', 'put']);
    for (const schema of ['Event', 'Venue', 'Organizer', 'Term', 'Image', 'ImageSize', 'DateDetails', 'CostDetails']) {
      expect(doc.components.schemas).toHaveProperty([schema]);
    }
    expect(Object.keys(doc.components.schemas.Event.properties).slice(0, 5)).toEqual(['id', 'global_id', 'global_id_lineage', 'author', 'status']);
    const include = doc.paths['/categories'].get.parameters.find((p: { name: string }) => p.name === 'include');
    expect(include).toMatchObject({ in: 'query', style: 'form', explode: false });
  });

  it('serves a browsable documentation page', async () => {
    const res = await http(t).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
