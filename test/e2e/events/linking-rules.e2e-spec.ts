// What an event write may link: venues and organizers the caller may read
// and that are not in the trash; and trash slugs that stay until an item is restored.
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createEvent, createOrganizer, createVenue, eventInput, makeUsers, trashEvent, uid } from '../../support/api';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';

describe('linking rules and trash slugs', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
    admin = users.admin;
  });
  afterAll(async () => t?.close());

  const trashed = async (route: 'venues' | 'organizers', body: Record<string, unknown>) => {
    const item = route === 'venues' ? await createVenue(t, admin.authorization, body) : await createOrganizer(t, admin.authorization, body);
    expectStatus(await http(t, admin.authorization).delete(`${API}/${route}/${item.id}`), 200);
    return item.id;
  };

  it.each(['POST', 'PATCH'])('a trashed venue cannot be linked by id (%s): 400, nothing written', async (method) => {
    const venue = await trashed('venues', { venue: `Gone hall ${uid()}` });
    const existing = await createEvent(t, admin.authorization);
    const title = `Linked ${uid()}`;
    const send = method === 'POST' ? http(t, admin.authorization).post(`${API}/events`) : http(t, admin.authorization).patch(`${API}/events/${existing.id}`);
    const res = await send.send(eventInput({ title, venue: venue }));
    expectInvalidParams(res, 'venue');
    const found = await http(t, admin.authorization).get(`${API}/events?search=${encodeURIComponent(title)}&status=publish,draft`);
    expect(found.body.total ?? 0).toBe(0);
  });

  it('a trashed venue or organizer named as {id} is invalid-linked-post-id', async () => {
    const venue = await trashed('venues', { venue: `Gone hall ${uid()}` });
    const organizer = await trashed('organizers', { organizer: `Gone host ${uid()}` });
    expectError(
      await http(t, admin.authorization)
        .post(`${API}/events`)
        .send(eventInput({ venue: { id: venue } })),
      400,
      'invalid-linked-post-id',
    );
    expectError(
      await http(t, admin.authorization)
        .post(`${API}/events`)
        .send(eventInput({ organizer: [{ id: organizer }] })),
      400,
      'invalid-linked-post-id',
    );
    expectInvalidParams(
      await http(t, admin.authorization)
        .post(`${API}/events`)
        .send(eventInput({ organizer: [organizer] })),
      'organizer',
    );
  });

  it("an author cannot link another user's draft venue; its owner and an editor can", async () => {
    const draft = await createVenue(t, users.author2.authorization, { venue: `Draft hall ${uid()}`, status: 'draft' });
    expectInvalidParams(
      await http(t, users.author.authorization)
        .post(`${API}/events`)
        .send(eventInput({ venue: draft.id })),
      'venue',
    );
    expectStatus(
      await http(t, users.author2.authorization)
        .post(`${API}/events`)
        .send(eventInput({ venue: draft.id })),
      201,
    );
    expectStatus(
      await http(t, users.editor.authorization)
        .post(`${API}/events`)
        .send(eventInput({ venue: draft.id })),
      201,
    );
  });

  it('a trashed venue is never embedded for anonymous readers: trashing unlinks it, relinking is refused', async () => {
    const venue = await createVenue(t, admin.authorization, { venue: `Soon gone ${uid()}` });
    const event = await createEvent(t, admin.authorization, { venue: venue.id });
    expectStatus(await http(t, admin.authorization).delete(`${API}/venues/${venue.id}`), 200);
    const read = await http(t).get(`${API}/events/${event.id}`);
    expect(JSON.stringify(read.body.venue ?? [])).not.toContain('"trash"');
    expectInvalidParams(await http(t, admin.authorization).post(`${API}/events/${event.id}`).send({ venue: venue.id }), 'venue');
  });

  it('updating a trashed event with a slug keeps a trash slug; restoring takes it back when free', async () => {
    const slug = `kept-${uid()}`;
    const event = await createEvent(t, admin.authorization, { slug });
    await trashEvent(t, admin.authorization, event.id);
    const renamed = await http(t, admin.authorization)
      .post(`${API}/events/${event.id}`)
      .send({ slug: `${slug}-new` });
    expectStatus(renamed, 200);
    expect(renamed.body.status).toBe('trash');
    expect(renamed.body.slug).toBe(`${slug}-new__trashed`);
    // A live event may now take the name the trashed one asked for.
    const other = await createEvent(t, admin.authorization, { slug: `${slug}-new` });
    expect(other.slug).toBe(`${slug}-new`);
    const restored = await http(t, admin.authorization).post(`${API}/events/${event.id}`).send({ status: 'publish' });
    expectStatus(restored, 200);
    expect(restored.body.slug).toBe(`${slug}-new-2`);
  });

  it.each(['venues', 'organizers'] as const)('updating a trashed %s with a slug keeps a trash slug', async (route) => {
    const name = route === 'venues' ? { venue: `Trash named ${uid()}` } : { organizer: `Trash named ${uid()}` };
    const id = await trashed(route, name);
    const slug = `moved-${uid()}`;
    const res = await http(t, admin.authorization).post(`${API}/${route}/${id}`).send({ slug });
    expectStatus(res, 200);
    expect(res.body.status).toBe('trash');
    expect(res.body.slug).toBe(`${slug}__trashed`);
  });
});
