// Updating and deleting events (spec endpoints.md §4.8, §4.9; resources.md §9).
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createEvent, createOrganizer, createVenue, EventBody, makeUsers, readEvent, trashEvent, uid } from '../../support/api';
import { expectEventKeys, nextSecond } from '../../support/events';
import { expectError, expectInvalidParams, expectStatus } from '../../support/expect';

type Method = 'post' | 'put' | 'patch';

describe('events: update and delete', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
    admin = users.admin;
  });
  afterAll(async () => t?.close());

  const send = (method: Method, caller: Caller | undefined, path: string, body: Record<string, unknown>) =>
    http(t, caller?.authorization)[method](`${API}${path}`).send(body);

  /** Everything except the fields an update always touches. */
  const stable = (ev: EventBody) => {
    const { modified: _m, modified_utc: _mu, ...rest } = ev;
    return rest;
  };

  describe('partial update (§4.8)', () => {
    const routes: [Method, 'id' | 'slug'][] = [
      ['post', 'id'],
      ['put', 'id'],
      ['patch', 'id'],
      ['post', 'slug'],
      ['put', 'slug'],
      ['patch', 'slug'],
    ];

    it.each(routes)('%s by %s changes only the given field, flags, all_day and cost included', async (method, by) => {
      const tok = uid();
      const venue = await createVenue(t, admin.authorization, { venue: `Kept venue ${tok}` });
      const organizer = await createOrganizer(t, admin.authorization, { organizer: `Kept org ${tok}` });
      const created = await createEvent(t, admin.authorization, {
        title: `Before ${tok}`,
        description: 'Kept description',
        excerpt: 'Kept excerpt',
        start_date: '2030-03-01 00:00:00',
        end_date: '2030-03-02 23:59:59',
        all_day: true,
        timezone: 'Europe/Berlin',
        cost: '$15',
        website: 'https://kept.example.org',
        show_map: true,
        show_map_link: true,
        hide_from_listings: true,
        sticky: true,
        featured: true,
        categories: [`Kept cat ${tok}`],
        tags: [`keptag${tok}`],
        venue: venue.id,
        organizer: [organizer.id],
        status: 'draft',
      });
      const path = by === 'id' ? `/events/${created.id}` : `/events/by-slug/${created.slug}`;

      const res = await send(method, admin, path, { title: `After ${tok}` });

      expectStatus(res, 200);
      expectEventKeys(res.body);
      expect(stable(res.body)).toStrictEqual({ ...stable(created), title: `After ${tok}` });
      // a single read embeds the venue and organizers with their JSON-LD; the update response does not
      const { json_ld: _ld, ...read } = await readEvent(t, created.id, admin.authorization);
      const { json_ld: _venueLd, ...readVenue } = read.venue as Record<string, unknown>;
      const readOrganizers = read.organizer.map(({ json_ld: _orgLd, ...rest }) => rest);
      expect({ ...read, venue: readVenue, organizer: readOrganizers }).toStrictEqual(res.body);
    });

    it('sets the flags that are given, false included', async () => {
      const created = await createEvent(t, admin.authorization, { featured: true, sticky: true });

      const res = await send('patch', admin, `/events/${created.id}`, { featured: false, show_map: '1' });

      expectStatus(res, 200);
      expect(res.body).toMatchObject({ featured: false, sticky: true, show_map: true, show_map_link: false });
    });

    it('changes cost and removes it with an empty value', async () => {
      const created = await createEvent(t, admin.authorization, { cost: '$15' });

      const changed = await send('put', admin, `/events/${created.id}`, { cost: ['10$', '20$'] });
      expect(changed.body.cost).toBe('10$ – 20$');
      const cleared = await send('put', admin, `/events/${created.id}`, { cost: '' });
      expectStatus(cleared, 200);
      expect(cleared.body.cost).toBe('');
    });

    it('validates the fields that are given, before looking the event up', async () => {
      const created = await createEvent(t, admin.authorization);

      expectInvalidParams(await send('put', admin, `/events/${created.id}`, { title: '' }), 'title');
      expectInvalidParams(await send('put', admin, `/events/${created.id}`, { start_date: 'foo', featured: 'yes' }), 'start_date', 'featured');
      expectInvalidParams(await send('put', admin, `/events/${created.id}`, { status: 'trash' }), 'status');
      expectInvalidParams(await send('put', admin, '/events/999999', { start_date: 'foo' }), 'start_date');
    });

    it('an unknown id is 404 rest-event-not-found, an unknown slug 400, a venue id 400 rest-invalid-event-id', async () => {
      const venue = await createVenue(t, admin.authorization, { venue: `Update target ${uid()}` });
      for (const method of ['post', 'put', 'patch'] as const) {
        expectError(await send(method, admin, '/events/999999', { title: 'x' }), 404, 'rest-event-not-found');
        expectInvalidParams(await send(method, admin, `/events/by-slug/nothing-${uid()}`, { title: 'x' }), 'slug');
        expectError(await send(method, admin, `/events/${venue.id}`, { title: 'x' }), 400, 'rest-invalid-event-id');
      }
    });

    it('the path id wins over an id in the body', async () => {
      const a = await createEvent(t, admin.authorization);
      const b = await createEvent(t, admin.authorization);

      const res = await send('put', admin, `/events/${a.id}`, { id: b.id, title: `Path wins ${uid()}` });

      expectStatus(res, 200);
      expect(res.body.id).toBe(a.id);
      expect((await readEvent(t, b.id)).title).toBe(b.title);
    });

    it('sets modified to now and leaves date alone', async () => {
      const created = await createEvent(t, admin.authorization, { date: '2024-01-01 10:00:00' });
      await nextSecond();

      const res = await send('post', admin, `/events/${created.id}`, { excerpt: 'changed' });

      expectStatus(res, 200);
      expect(res.body.modified_utc > created.modified_utc).toBe(true);
      expect(res.body.date).toBe('2024-01-01 10:00:00');
      expect(res.body.date_utc).toBe('2024-01-01 10:00:00');
    });

    it('an omitted status is left unchanged, for editors and contributors alike', async () => {
      const draft = await createEvent(t, users.editor.authorization, { status: 'draft' });
      const edited = await send('put', users.editor, `/events/${draft.id}`, { title: `Still draft ${uid()}` });
      expectStatus(edited, 200);
      expect(edited.body.status).toBe('draft');

      const pending = await createEvent(t, users.contributor.authorization, { status: 'pending' });
      const byContributor = await send('put', users.contributor, `/events/${pending.id}`, { title: `Still pending ${uid()}` });
      expectStatus(byContributor, 200);
      expect(byContributor.body.status).toBe('pending');

      const published = await createEvent(t, admin.authorization);
      const byAdmin = await send('patch', admin, `/events/${published.id}`, { title: `Still published ${uid()}` });
      expect(byAdmin.body.status).toBe('publish');
    });

    it('a given status follows the status rules (§3)', async () => {
      const draft = await createEvent(t, users.contributor.authorization);
      const asked = await send('put', users.contributor, `/events/${draft.id}`, { status: 'publish' });
      expectStatus(asked, 200);
      expect(asked.body.status).toBe('pending');

      const ev = await createEvent(t, users.editor.authorization, { status: 'draft' });
      const published = await send('put', users.editor, `/events/${ev.id}`, { status: 'publish' });
      expect(published.body.status).toBe('publish');
      const scheduled = await send('put', users.editor, `/events/${ev.id}`, { status: 'publish', date: '2040-05-05 10:00:00' });
      expect(scheduled.body.status).toBe('future');
    });

    it('a trashed event may be updated and stays in the trash unless a status is given', async () => {
      const created = await createEvent(t, admin.authorization);
      await trashEvent(t, admin.authorization, created.id);
      const tok = uid();

      const res = await send('put', admin, `/events/${created.id}`, { title: `Edited in trash ${tok}` });

      expectStatus(res, 200);
      expect(res.body.status).toBe('trash');
      expect(res.body.title).toBe(`Edited in trash ${tok}`);

      const restored = await send('put', admin, `/events/${created.id}`, { status: 'draft' });
      expectStatus(restored, 200);
      expect(restored.body.status).toBe('draft');
    });
  });

  describe('update permissions (auth.md §2, §3)', () => {
    it('anonymous callers are 401 rest_forbidden, even for an unknown id; subscribers 403', async () => {
      const ev = await createEvent(t, admin.authorization);
      expectError(await send('put', undefined, `/events/${ev.id}`, { title: 'x' }), 401, 'rest_forbidden');
      expectError(await send('put', undefined, '/events/999999', { title: 'x' }), 401, 'rest_forbidden');
      expectError(await send('put', users.subscriber, `/events/${ev.id}`, { title: 'x' }), 403, 'rest_forbidden');
      expectError(await send('put', users.subscriber, '/events/999999', { title: 'x' }), 403, 'rest_forbidden');
    });

    it('a contributor may edit an own draft or pending event, not an own published one', async () => {
      const draft = await createEvent(t, users.contributor.authorization);
      expectStatus(await send('put', users.contributor, `/events/${draft.id}`, { title: `Own draft ${uid()}` }), 200);

      const published = await send('put', users.editor, `/events/${draft.id}`, { status: 'publish' });
      expect(published.body.status).toBe('publish');
      expect(published.body.author).toBe(String(users.contributor.id));
      expectError(await send('put', users.contributor, `/events/${draft.id}`, { title: 'x' }), 403, 'rest_forbidden');
      expectError(await send('patch', users.contributor, `/events/by-slug/${draft.slug}`, { title: 'x' }), 403, 'rest_forbidden');
    });

    it("contributors and authors may not edit others' events; editors may", async () => {
      const adminEvent = await createEvent(t, admin.authorization);
      const authorDraft = await createEvent(t, users.author2.authorization, { status: 'draft' });

      expectError(await send('put', users.contributor, `/events/${adminEvent.id}`, { title: 'x' }), 403, 'rest_forbidden');
      expectError(await send('put', users.author, `/events/${adminEvent.id}`, { title: 'x' }), 403, 'rest_forbidden');
      expectError(await send('put', users.author, `/events/${authorDraft.id}`, { title: 'x' }), 403, 'rest_forbidden');

      const tok = uid();
      const byEditor = await send('put', users.editor, `/events/${adminEvent.id}`, { title: `Edited by editor ${tok}` });
      expectStatus(byEditor, 200);
      expect(byEditor.body.title).toBe(`Edited by editor ${tok}`);
      expect(byEditor.body.author).toBe(String(admin.id));
    });

    it('an author may edit an own published event', async () => {
      const ev = await createEvent(t, users.author.authorization);
      expect(ev.status).toBe('publish');
      expectStatus(await send('patch', users.author, `/events/${ev.id}`, { title: `Own published ${uid()}` }), 200);
    });

    it('an author may not reassign an event to another user; an editor may', async () => {
      const ev = await createEvent(t, users.author.authorization);
      expectError(await send('put', users.author, `/events/${ev.id}`, { author: users.author2.id }), 403, 'rest_cannot_edit_others');

      const res = await send('put', users.editor, `/events/${ev.id}`, { author: users.author2.id });
      expectStatus(res, 200);
      expect(res.body.author).toBe(String(users.author2.id));
    });
  });

  describe('delete (§4.9)', () => {
    it('moves the event to the trash and answers it with status trash and a __trashed slug', async () => {
      const venue = await createVenue(t, admin.authorization, { venue: `Trash venue ${uid()}` });
      const created = await createEvent(t, admin.authorization, { venue: venue.id });

      const res = await http(t, admin.authorization).delete(`${API}/events/${created.id}`);

      expectStatus(res, 200);
      expectEventKeys(res.body);
      expect(res.body.status).toBe('trash');
      expect(res.body.slug).toBe(`${created.slug}__trashed`);
      expect(res.body.id).toBe(created.id);
      expect((res.body.venue as { id: number }).id).toBe(venue.id);
    });

    it('then reading is 403 event-no-longer-available and deleting again 410 event-is-in-trash', async () => {
      const created = await createEvent(t, admin.authorization);
      await trashEvent(t, admin.authorization, created.id);

      expectError(await http(t).get(`${API}/events/${created.id}`), 403, 'event-no-longer-available');
      expectError(await http(t, admin.authorization).delete(`${API}/events/${created.id}`), 410, 'event-is-in-trash');
      expectError(await http(t, admin.authorization).delete(`${API}/events/by-slug/${created.slug}__trashed`), 410, 'event-is-in-trash');
    });

    it('deletes by slug', async () => {
      const created = await createEvent(t, admin.authorization);

      const res = await http(t, admin.authorization).delete(`${API}/events/by-slug/${created.slug}`);

      expectStatus(res, 200);
      expect(res.body).toMatchObject({ id: created.id, status: 'trash', slug: `${created.slug}__trashed` });
    });

    it('ignores force', async () => {
      const created = await createEvent(t, admin.authorization);
      const res = await http(t, admin.authorization).delete(`${API}/events/${created.id}?force=false`);
      expectStatus(res, 200);
      expect(res.body.status).toBe('trash');
    });

    it('an unknown id is 404, an unknown slug 400, a venue id 400 rest-invalid-event-id', async () => {
      const venue = await createVenue(t, admin.authorization, { venue: `Delete target ${uid()}` });

      expectError(await http(t, admin.authorization).delete(`${API}/events/999999`), 404, 'rest-event-not-found');
      expectInvalidParams(await http(t, admin.authorization).delete(`${API}/events/by-slug/nothing-${uid()}`), 'slug');
      expectError(await http(t, admin.authorization).delete(`${API}/events/${venue.id}`), 400, 'rest-invalid-event-id');
    });

    it('anonymous callers are 401, subscribers 403, even for unknown ids', async () => {
      const created = await createEvent(t, admin.authorization);

      expectError(await http(t).delete(`${API}/events/${created.id}`), 401, 'rest_forbidden');
      expectError(await http(t).delete(`${API}/events/999999`), 401, 'rest_forbidden');
      expectError(await http(t, users.subscriber.authorization).delete(`${API}/events/${created.id}`), 403, 'rest_forbidden');
      expect((await readEvent(t, created.id)).status).toBe('publish');
    });

    it('a contributor may delete an own draft but not an own published event', async () => {
      const draft = await createEvent(t, users.contributor.authorization);
      expectStatus(await http(t, users.contributor.authorization).delete(`${API}/events/${draft.id}`), 200);

      const other = await createEvent(t, users.contributor.authorization);
      expectStatus(await send('put', users.editor, `/events/${other.id}`, { status: 'publish' }), 200);
      expectError(await http(t, users.contributor.authorization).delete(`${API}/events/${other.id}`), 403, 'rest_forbidden');
      expect((await readEvent(t, other.id)).status).toBe('publish');
    });

    it("authors may not delete others' events; editors may delete an administrator's", async () => {
      const adminEvent = await createEvent(t, admin.authorization);

      expectError(await http(t, users.author.authorization).delete(`${API}/events/${adminEvent.id}`), 403, 'rest_forbidden');
      expectError(await http(t, users.contributor.authorization).delete(`${API}/events/${adminEvent.id}`), 403, 'rest_forbidden');
      const res = await http(t, users.editor.authorization).delete(`${API}/events/${adminEvent.id}`);
      expectStatus(res, 200);
      expect(res.body.status).toBe('trash');
      expectStatus(await http(t, users.author.authorization).delete(`${API}/events/${(await createEvent(t, users.author.authorization)).id}`), 200);
    });

    it('frees the slug for a new event', async () => {
      const title = `Reusable ${uid()}`;
      const first = await createEvent(t, admin.authorization, { title });
      await trashEvent(t, admin.authorization, first.id);

      const second = await createEvent(t, admin.authorization, { title });

      expect(second.slug).toBe(first.slug);
    });
  });
});
