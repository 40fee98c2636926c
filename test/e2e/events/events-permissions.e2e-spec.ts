// Who may create, read, edit and delete events (spec auth.md §1–§3, endpoints.md §3, §4.2, §4.8, §4.9).
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createEvent, eventInput, makeUsers, readEvent, trashEvent } from '../../support/api';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';

describe('events: permissions', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;

  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
  });
  afterAll(async () => t?.close());

  const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  const as = (caller?: Caller) => http(t, caller?.authorization);

  describe('create (auth.md §2)', () => {
    it('anonymous callers are 401 rest_forbidden, subscribers 403 rest_forbidden', async () => {
      expectError(await as().post(`${API}/events`).send(eventInput()), 401, 'rest_forbidden');
      expectError(await as(users.subscriber).post(`${API}/events`).send(eventInput()), 403, 'rest_forbidden');
    });

    it('contributors and above may create', async () => {
      for (const caller of [users.contributor, users.author, users.editor, users.admin]) {
        expectStatus(await as(caller).post(`${API}/events`).send(eventInput()), 201);
      }
    });

    it('parameter validation comes before the permission check', async () => {
      expectError(await as().post(`${API}/events`).send({}), 400, 'rest_missing_callback_param');
      expectInvalidParams(
        await as(users.subscriber)
          .post(`${API}/events`)
          .send(eventInput({ featured: 'yes' })),
        'featured',
      );
    });

    it('wrong credentials are 401 before anything else', async () => {
      expectError(await http(t, basic('nobody', 'whatever-pass')).post(`${API}/events`).send({}), 401, 'invalid_username');
      expectError(await http(t, basic('admin', 'wrong-password')).get(`${API}/events/1`), 401, 'incorrect_password');
    });
  });

  describe('read (auth.md §2, endpoints.md §4.2)', () => {
    it('own non-published events are readable by their author, whatever the role', async () => {
      for (const caller of [users.contributor, users.author]) {
        const ev = await createEvent(t, caller.authorization, { status: 'draft' });
        expectStatus(await as(caller).get(`${API}/events/${ev.id}`), 200);
      }
      const priv = await createEvent(t, users.author.authorization, { status: 'private' });
      expectStatus(await as(users.author).get(`${API}/events/${priv.id}`), 200);
    });

    it("others' private events are readable by editors and administrators only", async () => {
      const priv = await createEvent(t, users.author.authorization, { status: 'private' });

      for (const caller of [undefined, users.subscriber, users.contributor, users.author2]) {
        expectError(await as(caller).get(`${API}/events/${priv.id}`), 403, 'event-not-accessible');
      }
      for (const caller of [users.editor, users.admin]) {
        expectStatus(await as(caller).get(`${API}/events/${priv.id}`), 200);
      }
    });

    it('published events are readable by everyone', async () => {
      const ev = await createEvent(t, users.author.authorization);
      for (const caller of [undefined, users.subscriber, users.contributor, users.author2]) {
        expectStatus(await as(caller).get(`${API}/events/${ev.id}`), 200);
      }
    });
  });

  describe('edit and delete (auth.md §2)', () => {
    it('a contributor may edit and delete own draft and pending events', async () => {
      for (const status of ['draft', 'pending']) {
        const ev = await createEvent(t, users.contributor.authorization, { status });
        expectStatus(await as(users.contributor).patch(`${API}/events/${ev.id}`).send({ excerpt: 'mine' }), 200);
        expectStatus(await as(users.contributor).delete(`${API}/events/${ev.id}`), 200);
      }
    });

    it('a contributor may neither edit nor delete an own event once published or scheduled', async () => {
      for (const body of [{ status: 'publish' }, { status: 'future', date: '2040-01-01 00:00:00' }]) {
        const ev = await createEvent(t, users.contributor.authorization);
        const promoted = await as(users.editor).put(`${API}/events/${ev.id}`).send(body);
        expect(promoted.body.status).toBe(body.status);

        expectError(await as(users.contributor).put(`${API}/events/${ev.id}`).send({ excerpt: 'x' }), 403, 'rest_forbidden');
        expectError(await as(users.contributor).delete(`${API}/events/${ev.id}`), 403, 'rest_forbidden');
      }
    });

    it('for a trashed event "published" refers to the status before the trash', async () => {
      const ev = await createEvent(t, users.contributor.authorization);
      await as(users.editor).put(`${API}/events/${ev.id}`).send({ status: 'publish' });
      await trashEvent(t, users.editor.authorization, ev.id);

      expectError(await as(users.contributor).put(`${API}/events/${ev.id}`).send({ excerpt: 'x' }), 403, 'rest_forbidden');

      const draft = await createEvent(t, users.contributor.authorization);
      await trashEvent(t, users.contributor.authorization, draft.id);
      expectStatus(await as(users.contributor).put(`${API}/events/${draft.id}`).send({ excerpt: 'x' }), 200);
    });

    it("an author may edit and delete own events in any status, not others'", async () => {
      const own = await createEvent(t, users.author.authorization);
      const others = await createEvent(t, users.author2.authorization, { status: 'draft' });

      expectStatus(await as(users.author).put(`${API}/events/${own.id}`).send({ excerpt: 'x' }), 200);
      expectError(await as(users.author).put(`${API}/events/${others.id}`).send({ excerpt: 'x' }), 403, 'rest_forbidden');
      expectError(await as(users.author).delete(`${API}/events/${others.id}`), 403, 'rest_forbidden');
      expectStatus(await as(users.author).delete(`${API}/events/${own.id}`), 200);
    });

    it("editors and administrators may edit and delete anyone's events", async () => {
      for (const caller of [users.editor, users.admin]) {
        const ev = await createEvent(t, users.author.authorization, { status: 'pending' });
        const res = await as(caller).put(`${API}/events/${ev.id}`).send({ excerpt: 'edited' });
        expectStatus(res, 200);
        expect(res.body.status).toBe('pending');
        expectStatus(await as(caller).delete(`${API}/events/${ev.id}`), 200);
      }
      const byAdmin = await createEvent(t, users.admin.authorization);
      expectStatus(await as(users.editor).delete(`${API}/events/${byAdmin.id}`), 200);
    });

    it('subscribers may not edit or delete', async () => {
      const ev = await createEvent(t, users.admin.authorization);

      expectError(await as(users.subscriber).put(`${API}/events/${ev.id}`).send({ excerpt: 'x' }), 403, 'rest_forbidden');
      expectError(await as(users.subscriber).delete(`${API}/events/${ev.id}`), 403, 'rest_forbidden');
      expect((await readEvent(t, ev.id)).excerpt).toBe('');
    });

    it('a refused edit changes nothing', async () => {
      const ev = await createEvent(t, users.admin.authorization);

      expectError(await as(users.author).put(`${API}/events/${ev.id}`).send({ title: 'Hijacked' }), 403, 'rest_forbidden');
      expect((await readEvent(t, ev.id)).title).toBe(ev.title);
    });
  });
});
