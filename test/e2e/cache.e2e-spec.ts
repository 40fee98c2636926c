import { createTestApp, TestApp } from '../support/test-app';
import { API, http } from '../support/http';

/** Cached totals and presented events must never outlive a write (issue #6, item 4). */
describe('read caches follow every write', () => {
  let t: TestApp;
  let admin: string;
  const list = async () => (await http(t).get(`${API}/events?start_date=2030-01-01&end_date=2030-12-31`)).body;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  it('a created, updated and trashed event shows on the next read', async () => {
    expect((await list()).total).toBe(0);
    const made = await http(t, admin).post(`${API}/events`).send({ title: 'First', start_date: '2030-05-01 10:00', end_date: '2030-05-01 11:00', categories: ['Music'], venue: { venue: 'Hall' } });
    expect(made.status).toBe(201);
    let body = await list();
    expect(body.total).toBe(1);
    expect(body.events[0].title).toBe('First');

    await http(t, admin).patch(`${API}/events/${made.body.id}`).send({ title: 'Renamed' });
    expect((await list()).events[0].title).toBe('Renamed');

    await http(t, admin).delete(`${API}/events/${made.body.id}`);
    body = await list();
    expect(body.total).toBe(0);
    expect(body.events).toEqual([]);
  });

  it('renaming an embedded category or venue shows in the cached event', async () => {
    const made = await http(t, admin).post(`${API}/events`).send({ title: 'Embedded', start_date: '2030-06-01 10:00', end_date: '2030-06-01 11:00', categories: ['Jazz'], venue: { venue: 'Old hall' } });
    let item = (await list()).events[0];
    expect(item.categories[0].name).toBe('Jazz');
    await http(t, admin).patch(`${API}/categories/${item.categories[0].id}`).send({ name: 'Bebop' });
    item = (await list()).events[0];
    expect(item.categories[0].name).toBe('Bebop');
    await http(t, admin).patch(`${API}/venues/${made.body.venue.id}`).send({ venue: 'New hall' });
    expect((await list()).events[0].venue.venue).toBe('New hall');
    await http(t, admin).delete(`${API}/venues/${made.body.venue.id}`);
    expect((await list()).events[0].venue).toEqual([]);
  });
});
