// The change feed of sync.md: GET {api_root}/changes from a token, per-caller visibility,
// compaction, the changes a write makes to other items' representations, embed, 400 and 410.
import { DataSource } from 'typeorm';
import { frozenFillChangeLogStates } from '../../../src/database/migrations/shared/frozen-change-log';
import { createEvent, makeUsers, uid } from '../../support/api';
import { Change, changePages } from '../../support/changes';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

/** Every change after `since` as `authorization` sees it, following has_more; and the last token. */
async function follow(t: TestApp, since: string | undefined, authorization?: string, query = ''): Promise<{ changes: Change[]; token: string }> {
  const changes: Change[] = [];
  let token = since ?? '';
  for await (const page of changePages(t, since, authorization, Object.fromEntries(new URLSearchParams(query)))) {
    changes.push(...page.changes);
    token = page.next_sync_token;
  }
  return { changes, token };
}

/** The current end of the feed for this caller. */
const tokenNow = async (t: TestApp, authorization?: string) => (await follow(t, undefined, authorization)).token;
const has = (changes: Change[], type: string, id: number, action?: string) =>
  changes.some((c) => c.type === type && c.id === id && (!action || c.action === action));

describe('GET /changes (sync.md)', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;

  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
  });
  afterAll(async () => t.close());

  it('from the beginning: every item the caller can read, as upserts; anonymous callers see published items only', async () => {
    const published = await createEvent(t, users.admin.authorization, { title: uid('pub') });
    const draft = await createEvent(t, users.admin.authorization, { title: uid('draft'), status: 'draft' });
    const anonymous = await follow(t, undefined);
    expect(has(anonymous.changes, 'event', published.id, 'upsert')).toBe(true);
    expect(has(anonymous.changes, 'event', draft.id)).toBe(false);
    expect(anonymous.changes.every((c) => c.action === 'upsert')).toBe(true);
    const admin = await follow(t, undefined, users.admin.authorization);
    expect(has(admin.changes, 'event', draft.id, 'upsert')).toBe(true);
    const entry = admin.changes.find((c) => c.type === 'event' && c.id === published.id)!;
    expect(entry).toEqual({
      type: 'event',
      id: published.id,
      action: 'upsert',
      modified_utc: published.modified_utc,
      rest_url: `${t.baseUrl}${API}/events/${published.id}`,
    });
  });

  it('after a token: only what changed since, once per item (latest wins), in commit order', async () => {
    const event = await createEvent(t, users.admin.authorization, { title: uid('later') });
    const token = await tokenNow(t);
    for (const title of ['one', 'two', 'three']) {
      expect(
        (
          await http(t, users.admin.authorization)
            .post(`${API}/events/${event.id}`)
            .send({ title: uid(title) })
        ).status,
      ).toBe(200);
    }
    const other = await createEvent(t, users.admin.authorization, { title: uid('other') });
    const { changes, token: next } = await follow(t, token);
    expect(changes.filter((c) => c.type === 'event' && c.id === event.id)).toHaveLength(1);
    const ids = changes.map((c) => `${c.type}:${c.id}`);
    expect(ids.indexOf(`event:${event.id}`)).toBeLessThan(ids.indexOf(`event:${other.id}`));
    const read = await http(t).get(`${API}/events/${event.id}`);
    expect(changes.find((c) => c.id === event.id)!.modified_utc).toBe(read.body.modified_utc);
    // Nothing new: an empty page, and the same token.
    const idle = await http(t).get(`${API}/changes?since=${next}`);
    expect(idle.body).toEqual({ changes: [], next_sync_token: next, has_more: false });
  });

  it('an anonymous page read again after a write shows the write (kept answers are per data version)', async () => {
    const token = await tokenNow(t);
    const url = `${API}/changes?since=${token}`;
    const before = await http(t).get(url);
    expect((await http(t).get(url)).body).toEqual(before.body); // the same answer again (kept)
    expect(before.body.changes).toEqual([]);
    const event = await createEvent(t, users.admin.authorization, { title: uid('fresh') });
    const after = await http(t).get(url);
    expect(has(after.body.changes, 'event', event.id, 'upsert')).toBe(true);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('an item that stops being readable is a delete for those who could read it, and nothing for the others', async () => {
    const event = await createEvent(t, users.author.authorization, { title: uid('vis') });
    const anonToken = await tokenNow(t);
    const adminToken = await tokenNow(t, users.admin.authorization);
    const secret = await createEvent(t, users.admin.authorization, { title: uid('secret'), status: 'draft' });
    expect((await http(t, users.author.authorization).post(`${API}/events/${event.id}`).send({ status: 'draft' })).status).toBe(200);
    expect((await http(t, users.admin.authorization).delete(`${API}/events/${secret.id}`)).status).toBe(200);

    const anon = await follow(t, anonToken);
    expect(has(anon.changes, 'event', event.id, 'delete')).toBe(true);
    expect(has(anon.changes, 'event', secret.id)).toBe(false); // never readable to anonymous callers
    const admin = await follow(t, adminToken, users.admin.authorization);
    expect(has(admin.changes, 'event', event.id, 'upsert')).toBe(true); // still readable by an administrator
    // Made and trashed after the token: the administrator cannot have seen it, so it is not mentioned.
    expect(has(admin.changes, 'event', secret.id)).toBe(false);
    const early = await follow(t, anonToken, users.admin.authorization); // same point, read as the administrator
    expect(has(early.changes, 'event', event.id, 'upsert')).toBe(true);
  });

  it('a permanent delete, a trash and a restore', async () => {
    const venue = await http(t, users.admin.authorization)
      .post(`${API}/venues`)
      .send({ venue: uid('Hall') });
    const organizer = await http(t, users.admin.authorization)
      .post(`${API}/organizers`)
      .send({ organizer: uid('Org') });
    const token = await tokenNow(t);
    expect((await http(t, users.admin.authorization).delete(`${API}/venues/${venue.body.id}?force=true`)).status).toBe(200);
    expect((await http(t, users.admin.authorization).delete(`${API}/organizers/${organizer.body.id}`)).status).toBe(200);
    const removed = await follow(t, token);
    expect(has(removed.changes, 'venue', venue.body.id, 'delete')).toBe(true);
    expect(has(removed.changes, 'organizer', organizer.body.id, 'delete')).toBe(true);
    expect((await http(t, users.admin.authorization).post(`${API}/organizers/${organizer.body.id}`).send({ status: 'publish' })).status).toBe(200);
    const restored = await follow(t, removed.token);
    expect(has(restored.changes, 'organizer', organizer.body.id, 'upsert')).toBe(true);
  });

  it('the migration that added the state columns fills them as every write since keeps them (also for removed items)', async () => {
    const admin = users.admin.authorization;
    const draft = await createEvent(t, admin, { status: 'draft' });
    const trashed = await createEvent(t, admin);
    expect((await http(t, admin).delete(`${API}/events/${trashed.id}`)).status).toBe(200);
    const gone = await createEvent(t, admin);
    expect((await http(t, admin).delete(`${API}/events/${gone.id}?force=true`)).status).toBe(200);
    const tag = await http(t, admin)
      .post(`${API}/tags`)
      .send({ name: uid('kept') });
    const goneTag = await http(t, admin)
      .post(`${API}/tags`)
      .send({ name: uid('gone') });
    expect((await http(t, admin).delete(`${API}/tags/${goneTag.body.id}?force=true`)).status).toBe(200);
    const ds = t.app.get(DataSource);
    const read = () =>
      ds.query('SELECT type, item_id, author_id, status, date_utc, modified_utc FROM change_log ORDER BY type, item_id') as Promise<Record<string, unknown>[]>;
    const written = await read();
    const state = (type: string, id: number) => written.find((r) => r.type === type && Number(r.item_id) === id);
    expect(state('event', draft.id)).toMatchObject({ status: 'draft', modified_utc: expect.any(String) });
    expect(state('event', trashed.id)).toMatchObject({ status: 'trash' });
    expect(state('event', gone.id)).toMatchObject({ status: null, author_id: null });
    expect(state('tag', tag.body.id)).toMatchObject({ status: 'publish', author_id: null });
    expect(state('tag', goneTag.body.id)).toMatchObject({ status: null });
    await ds.query('UPDATE change_log SET author_id = NULL, status = NULL, date_utc = NULL, modified_utc = NULL');
    await frozenFillChangeLogStates(ds);
    expect(await read()).toEqual(written);
  });

  it('a venue, organizer or category change is a change of every event that shows it; an event write is one of its terms (counts)', async () => {
    const category = (
      await http(t, users.admin.authorization)
        .post(`${API}/categories`)
        .send({ name: uid('Cat') })
    ).body;
    const event = await createEvent(t, users.admin.authorization, {
      title: uid('linked'),
      categories: [category.id],
      venue: { venue: uid('Venue') },
      organizer: [{ organizer: uid('Person') }],
    });
    const venueId = (event.venue as { id: number }).id;
    const organizerId = event.organizer[0].id;

    let token = await tokenNow(t);
    expect((await http(t, users.admin.authorization).post(`${API}/venues/${venueId}`).send({ city: 'Bonn' })).status).toBe(200);
    let seen = await follow(t, token);
    expect(has(seen.changes, 'venue', venueId, 'upsert') && has(seen.changes, 'event', event.id, 'upsert')).toBe(true);

    token = seen.token;
    expect(
      (
        await http(t, users.admin.authorization)
          .post(`${API}/categories/${category.id}`)
          .send({ name: uid('Renamed') })
      ).status,
    ).toBe(200);
    seen = await follow(t, token);
    expect(has(seen.changes, 'category', category.id, 'upsert') && has(seen.changes, 'event', event.id, 'upsert')).toBe(true);

    token = seen.token;
    expect((await http(t, users.admin.authorization).delete(`${API}/organizers/${organizerId}`)).status).toBe(200); // trashed: unlinked from the event
    seen = await follow(t, token);
    expect(has(seen.changes, 'organizer', organizerId, 'delete') && has(seen.changes, 'event', event.id, 'upsert')).toBe(true);

    token = seen.token;
    expect((await http(t, users.admin.authorization).delete(`${API}/events/${event.id}?force=true`)).status).toBe(200);
    seen = await follow(t, token);
    expect(has(seen.changes, 'event', event.id, 'delete')).toBe(true);
    expect(has(seen.changes, 'category', category.id, 'upsert')).toBe(true); // its count moved
    const term = await http(t).get(`${API}/categories/${category.id}`);
    expect(term.body.count).toBe(0);
  });

  it('embed=true carries each item exactly as its single GET gives it to the caller; types filters', async () => {
    const token = await tokenNow(t);
    const admin = http(t, users.admin.authorization);
    const tag = (
      await admin
        .post(`${API}/tags`)
        .send({ name: uid('embed-tag') })
        .expect(201)
    ).body;
    const event = await createEvent(t, users.admin.authorization, {
      title: uid('embed'),
      venue: { venue: uid('EmbedHall') },
      organizer: [{ organizer: uid('EmbedOrganizer') }],
      tags: [tag.id],
    });
    const draft = await createEvent(t, users.admin.authorization, { title: uid('embed-draft'), status: 'draft' });
    // Each kind, for a caller who reads drafts and for an anonymous one (whose items come from the single-GET cache).
    for (const authorization of [users.editor.authorization, undefined]) {
      const { changes } = await follow(t, token, authorization, 'embed=true');
      for (const change of changes) {
        const single = await http(t, authorization).get(change.rest_url!.slice(t.baseUrl.length));
        expect(change.item).toEqual(single.body);
      }
      for (const type of ['event', 'venue', 'organizer', 'tag'] as const) expect(changes.some((c) => c.type === type && c.item !== undefined)).toBe(true);
      expect(has(changes, 'event', event.id, 'upsert')).toBe(true);
      expect(has(changes, 'event', draft.id, 'upsert')).toBe(authorization !== undefined);
    }
    const venuesOnly = await follow(t, token, undefined, 'types=venue');
    expect(venuesOnly.changes.length).toBeGreaterThan(0);
    expect(venuesOnly.changes.every((c) => c.type === 'venue')).toBe(true);
  });

  it('refuses what is not a token (400) and bad parameters, in the errors.md shape', async () => {
    for (const query of ['since=42', 'since=s1.%2A%2A', 'types=event,posts', 'per_page=0', 'embed=maybe']) {
      const res = await http(t).get(`${API}/changes?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    const clamped = await http(t).get(`${API}/changes?per_page=9999`);
    expect(clamped.status).toBe(200);
  });
});

describe('GET /changes: tombstones past the retention (CALENDAR_SYNC_RETENTION_DAYS=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_SYNC_RETENTION_DAYS: '0' });
  });
  afterAll(async () => t.close());

  it('a token from before a purged removal answers 410 rest_sync_token_expired; starting over works', async () => {
    const { authorization } = await t.userHeader('retention-admin', 'administrator');
    const venue = await http(t, authorization)
      .post(`${API}/venues`)
      .send({ venue: uid('Gone') });
    const token = await tokenNow(t);
    expect((await http(t, authorization).delete(`${API}/venues/${venue.body.id}?force=true`)).status).toBe(200);
    // With a retention of 0 days the next read purges the tombstone first.
    const res = await http(t).get(`${API}/changes?since=${token}`);
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ code: 'rest_sync_token_expired', message: 'This sync token has expired; start a full sync.', data: { status: 410 } });
    const over = await follow(t, undefined);
    expect(has(over.changes, 'venue', venue.body.id)).toBe(false);
    expect((await http(t).get(`${API}/changes?since=${over.token}`)).status).toBe(200);
  });
});
