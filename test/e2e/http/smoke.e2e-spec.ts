import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('creates and lists a category as an administrator', async () => {
    const admin = await t.userHeader('admin', 'administrator');
    const created = await http(t, admin.authorization).post(`${API}/categories`).send({ name: 'Music' });
    expect(created.status).toBe(201);
    const list = await http(t).get(`${API}/categories?hide_empty=false`);
    expect(list.status).toBe(200);
    expect(list.headers['x-tec-total']).toBe('1');
    expect(list.body.categories[0].name).toBe('Music');
  });
});
