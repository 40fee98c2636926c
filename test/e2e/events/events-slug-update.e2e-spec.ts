// An update that changes the slug stores it (found by the OpenAPI fuzz test: the UPDATE was
// built from the columns read before the free slug was chosen, so the old slug stayed).
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

describe('event updates that change the slug', () => {
  let t: TestApp;
  let admin: string;
  const event = (title: string) => ({ title, start_date: '2031-02-01 10:00', end_date: '2031-02-01 11:00' });

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('slugger', 'administrator')).authorization;
  });
  afterAll(async () => t?.close());

  it('a new slug is stored, and the old one no longer finds the event', async () => {
    const created = (await http(t, admin).post(`${API}/events`).send(event('Old Name'))).body;
    const updated = await http(t, admin).post(`${API}/events/${created.id}`).send({ slug: 'new-name' });
    expect(updated.status).toBe(200);
    expect(updated.body.slug).toBe('new-name');
    expect((await http(t, admin).get(`${API}/events/${created.id}`)).body.slug).toBe('new-name');
    expect((await http(t, admin).get(`${API}/events/by-slug/new-name`)).body.id).toBe(created.id);
    expect((await http(t, admin).get(`${API}/events/by-slug/old-name`)).status).toBe(400);
  });

  it('a restored event gets its slug back, stored, while another event holds the trash slug', async () => {
    const first = (await http(t, admin).post(`${API}/events`).send(event('Comeback'))).body;
    await http(t, admin).delete(`${API}/events/${first.id}`);
    const restored = await http(t, admin).post(`${API}/events/${first.id}`).send({ status: 'publish' });
    expect(restored.status).toBe(200);
    expect(restored.body.slug).toBe('comeback');
    expect((await http(t, admin).get(`${API}/events/by-slug/comeback`)).body.id).toBe(first.id);
    // A second event named like the trash slug does not stop an update of the first.
    const second = (
      await http(t, admin)
        .post(`${API}/events`)
        .send({ ...event('Comeback'), slug: 'comeback__trashed' })
    ).body;
    expect(second.slug).toBe('comeback__trashed');
    const again = await http(t, admin).post(`${API}/events/${first.id}`).send({ slug: 'comeback-again' });
    expect(again.status).toBe(200);
    expect((await http(t, admin).get(`${API}/events/${first.id}`)).body.slug).toBe('comeback-again');
  });
});
