import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';

/**
 * Many event writes at once (more than the MySQL connection pool holds): none may wait for a
 * second connection while its transaction holds one, and two writes creating the same new term
 * by name must both succeed with one term.
 */
describe('concurrent event writes', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  it('24 creates at once, naming terms by id and one new category by name, all succeed', async () => {
    const tag = await http(t, admin).post(`${API}/tags`).send({ name: 'Existing tag' });
    const writes = Array.from({ length: 24 }, (_, i) =>
      http(t, admin)
        .post(`${API}/events`)
        .send({
          title: `Concurrent ${i}`,
          start_date: '2030-02-01 10:00',
          end_date: '2030-02-01 11:00',
          tags: [tag.body.id],
          categories: ['Brand new category'],
          venue: { venue: `Concurrent hall ${i % 3}` },
          organizer: [{ organizer: `Concurrent host ${i % 2}` }],
        }),
    );
    const results = await Promise.all(writes);
    expect(results.map((r) => r.status)).toEqual(Array(24).fill(201));
    const categories = await http(t).get(`${API}/categories?search=brand+new&hide_empty=false`);
    expect(categories.body.total).toBe(1);
    expect(categories.body.categories[0].count).toBe(24);
    const tags = await http(t).get(`${API}/tags/${tag.body.id}`);
    expect(tags.body.count).toBe(24);
  });
});
