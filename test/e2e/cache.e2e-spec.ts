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

  it('a write that moves an event re-orders the cached page, and a new match joins the count', async () => {
    const window = `${API}/events?start_date=2031-01-01&end_date=2031-12-31&per_page=2`;
    const page = async () => {
      const body = (await http(t).get(window)).body;
      return { total: body.total, titles: body.events.map((e: { title: string }) => e.title) };
    };
    const a = await http(t, admin).post(`${API}/events`).send({ title: 'A', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00' });
    const b = await http(t, admin).post(`${API}/events`).send({ title: 'B', start_date: '2031-02-01 10:00', end_date: '2031-02-01 11:00' });
    expect(await page()).toEqual({ total: 2, titles: ['B', 'A'] });
    await http(t, admin).patch(`${API}/events/${b.body.id}`).send({ start_date: '2031-04-01 10:00', end_date: '2031-04-01 11:00' });
    expect(await page()).toEqual({ total: 2, titles: ['A', 'B'] });
    await http(t, admin).post(`${API}/events`).send({ title: 'C', start_date: '2031-01-15 10:00', end_date: '2031-01-15 11:00' });
    expect(await page()).toEqual({ total: 3, titles: ['C', 'A'] });
    await http(t, admin).delete(`${API}/events/${a.body.id}`);
    expect(await page()).toEqual({ total: 2, titles: ['C', 'B'] });
  });

  it('filter lookups follow term writes: a new category, a new child category', async () => {
    const inWindow = (query: string) => http(t).get(`${API}/events?start_date=2032-01-01&end_date=2032-12-31&${query}`);
    expect((await inWindow('categories=brass')).status).toBe(400);
    const brass = await http(t, admin).post(`${API}/categories`).send({ name: 'Brass' });
    expect(brass.status).toBe(201);
    await http(t, admin).post(`${API}/events`).send({ title: 'Band', start_date: '2032-02-01 10:00', end_date: '2032-02-01 11:00', categories: [brass.body.id] });
    expect((await inWindow('categories=brass')).body.events.map((e: { title: string }) => e.title)).toEqual(['Band']);
    const tuba = await http(t, admin).post(`${API}/categories`).send({ name: 'Tuba', parent: brass.body.id });
    await http(t, admin).post(`${API}/events`).send({ title: 'Solo', start_date: '2032-01-15 10:00', end_date: '2032-01-15 11:00', categories: [tuba.body.id] });
    expect((await inWindow('categories=brass')).body.events.map((e: { title: string }) => e.title)).toEqual(['Solo', 'Band']);
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
