// Event writes: categories and tags, linked venue and organizers, slugs, images
// (spec endpoints.md §4.4–§4.7).
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { Caller, createEvent, createOrganizer, createTerm, createVenue, eventInput, makeUsers, readEvent, trashEvent, uid } from '../../support/api';
import { ImageHost, startImageHost } from '../../support/events';
import { expectError, expectInvalidParams, expectStatus, idsOf } from '../../support/expect';

describe('events: linked terms, venue, organizers, slugs and images', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  let admin: Caller;
  let images: ImageHost;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_ALLOW_PRIVATE_URLS: 'on' }); // the image host of these tests runs on 127.0.0.1
    users = await makeUsers(t);
    admin = users.admin;
    images = await startImageHost();
  });
  afterAll(async () => {
    await images?.close();
    await t?.close();
  });

  const post = (caller: Caller, body: Record<string, unknown>) => http(t, caller.authorization).post(`${API}/events`).send(eventInput(body));
  const update = (caller: Caller, id: number, body: Record<string, unknown>) => http(t, caller.authorization).post(`${API}/events/${id}`).send(body);
  const cat = (name: string, extra: Record<string, unknown> = {}) => createTerm(t, admin.authorization, 'categories', { name, ...extra });
  const tag = (name: string) => createTerm(t, admin.authorization, 'tags', { name });
  const categoriesNamed = async (search: string) => {
    const res = await http(t).get(`${API}/categories?search=${encodeURIComponent(search)}&hide_empty=false&per_page=50`);
    expectStatus(res, 200);
    return res.body.categories as { id: number; name: string; slug: string }[];
  };

  describe('categories and tags (§4.5)', () => {
    it('links categories and tags by id, numeric string or name', async () => {
      const tok = uid();
      const jazz = await cat(`Jazz ${tok}`);
      const blues = await cat(`Blues ${tok}`);
      const outdoor = await tag(`outdoor${tok}`);

      const ev = await createEvent(t, admin.authorization, { categories: [jazz.id, String(blues.id)], tags: [`outdoor${tok}`] });

      expect(idsOf(ev.categories).sort()).toEqual([jazz.id, blues.id].sort());
      expect(idsOf(ev.tags)).toEqual([outdoor.id]);
    });

    it('matches existing terms by name case-insensitively or by slug, without creating new ones', async () => {
      const tok = uid();
      const jazz = await cat(`Jazz Night ${tok}`);

      const byName = await createEvent(t, admin.authorization, { categories: [`jazz NIGHT ${tok}`] });
      const bySlug = await createEvent(t, admin.authorization, { categories: [`jazz-night-${tok}`] });

      expect(idsOf(byName.categories)).toEqual([jazz.id]);
      expect(idsOf(bySlug.categories)).toEqual([jazz.id]);
      expect(idsOf(await categoriesNamed(tok))).toEqual([jazz.id]);
    });

    it('creates a term for an unknown name', async () => {
      const tok = uid();

      const ev = await createEvent(t, users.contributor.authorization, { categories: [`Brand New ${tok}`], tags: `newtag${tok}` });

      expect(ev.categories).toHaveLength(1);
      expect(ev.categories[0]).toMatchObject({ name: `Brand New ${tok}`, slug: `brand-new-${tok}` });
      const found = await categoriesNamed(tok);
      expect(idsOf(found)).toEqual([ev.categories[0].id]);
      expect(ev.tags).toHaveLength(1);
      expect(ev.tags[0]).toMatchObject({ name: `newtag${tok}`, slug: `newtag${tok}` });
    });

    it('accepts a comma-separated string mixing ids and names', async () => {
      const tok = uid();
      const a = await cat(`Comma A ${tok}`);

      const ev = await createEvent(t, admin.authorization, { categories: `${a.id}, Comma B ${tok}` });

      expect(ev.categories.map((c) => c.name)).toEqual([`Comma A ${tok}`, `Comma B ${tok}`]);
      expect(ev.categories[0].id).toBe(a.id);
    });

    it('skips unknown numeric ids and removes duplicates', async () => {
      const tok = uid();
      const a = await cat(`Dup ${tok}`);
      const t1 = await tag(`duptag${tok}`);

      const ev = await createEvent(t, admin.authorization, {
        categories: [a.id, 999999, String(a.id), `Dup ${tok}`],
        tags: [999998, t1.id, `duptag${tok}`],
      });

      expect(idsOf(ev.categories)).toEqual([a.id]);
      expect(idsOf(ev.tags)).toEqual([t1.id]);
    });

    it('on update: absent leaves terms, a list replaces them, "" and [] remove them all', async () => {
      const tok = uid();
      const a = await cat(`Upd A ${tok}`);
      const b = await cat(`Upd B ${tok}`);
      const t1 = await tag(`updtag${tok}`);
      const ev = await createEvent(t, admin.authorization, { categories: [a.id], tags: [t1.id] });

      const untouched = await update(admin, ev.id, { title: `Renamed ${tok}` });
      expectStatus(untouched, 200);
      expect(idsOf(untouched.body.categories)).toEqual([a.id]);
      expect(idsOf(untouched.body.tags)).toEqual([t1.id]);

      const replaced = await update(admin, ev.id, { categories: [b.id] });
      expect(idsOf(replaced.body.categories)).toEqual([b.id]);
      expect(idsOf(replaced.body.tags)).toEqual([t1.id]);

      const cleared = await update(admin, ev.id, { categories: '', tags: [] });
      expectStatus(cleared, 200);
      expect(cleared.body.categories).toEqual([]);
      expect(cleared.body.tags).toEqual([]);
    });
  });

  describe('venue (§4.4)', () => {
    it('links a venue by id, numeric string, {id} or a one-element array', async () => {
      const venue = await createVenue(t, admin.authorization, { venue: `Linked ${uid()}` });

      for (const given of [venue.id, String(venue.id), { id: venue.id }, [venue.id], [{ id: venue.id }]]) {
        const res = await post(admin, { venue: given });
        expectStatus(res, 201);
        expect({ given, venue: (res.body.venue as { id?: number }).id }).toEqual({ given, venue: venue.id });
      }
    });

    it('creates a venue from an object and links it', async () => {
      const tok = uid();

      const ev = await createEvent(t, admin.authorization, { venue: { venue: `Nested Hall ${tok}`, city: 'Rome', address: 'Via Roma 1' } });

      expect(ev.venue).toMatchObject({ id: expect.any(Number), venue: `Nested Hall ${tok}`, city: 'Rome', address: 'Via Roma 1', status: 'publish' });
      const read = await http(t).get(`${API}/venues/${(ev.venue as { id: number }).id}`);
      expectStatus(read, 200);
      expect(read.body.venue).toBe(`Nested Hall ${tok}`);
    });

    it('reuses an identical existing venue instead of creating another', async () => {
      const tok = uid();
      const existing = await createVenue(t, admin.authorization, { venue: `Reused Hall ${tok}`, description: 'The hall' });

      const sameName = await createEvent(t, admin.authorization, { venue: { venue: `reused hall ${tok}` } });
      const sameBoth = await createEvent(t, admin.authorization, { venue: { venue: `Reused Hall ${tok}`, description: 'the HALL' } });
      const other = await createEvent(t, admin.authorization, { venue: { venue: `Reused Hall ${tok}`, description: 'another one' } });

      expect((sameName.venue as { id: number }).id).toBe(existing.id);
      expect((sameBoth.venue as { id: number }).id).toBe(existing.id);
      expect((other.venue as { id: number }).id).not.toBe(existing.id);
    });

    it("a contributor's nested venue is a draft", async () => {
      const ev = await createEvent(t, users.contributor.authorization, { venue: { venue: `Contributor Hall ${uid()}` } });

      expect(ev.venue).toMatchObject({ status: 'draft' });
    });

    it('0, "0", "", [] and {} mean no venue; on update they remove the link and absent keeps it', async () => {
      const venue = await createVenue(t, admin.authorization, { venue: `Removable ${uid()}` });
      for (const none of [0, '0', '', [], {}]) {
        const created = await post(admin, { venue: none });
        expectStatus(created, 201);
        expect({ none, venue: created.body.venue }).toEqual({ none, venue: [] });

        const ev = await createEvent(t, admin.authorization, { venue: venue.id });
        const kept = await update(admin, ev.id, { title: `Kept ${uid()}` });
        expect((kept.body.venue as { id: number }).id).toBe(venue.id);
        const removed = await update(admin, ev.id, { venue: none });
        expectStatus(removed, 200);
        expect({ none, venue: removed.body.venue }).toEqual({ none, venue: [] });
      }
    });

    it('replaces the venue on update', async () => {
      const first = await createVenue(t, admin.authorization, { venue: `First ${uid()}` });
      const second = await createVenue(t, admin.authorization, { venue: `Second ${uid()}` });
      const ev = await createEvent(t, admin.authorization, { venue: first.id });

      const res = await update(admin, ev.id, { venue: second.id });

      expectStatus(res, 200);
      expect((res.body.venue as { id: number }).id).toBe(second.id);
    });

    it('more than one venue is 400 rest_invalid_param', async () => {
      const a = await createVenue(t, admin.authorization, { venue: `Two A ${uid()}` });
      const b = await createVenue(t, admin.authorization, { venue: `Two B ${uid()}` });

      expectInvalidParams(await post(admin, { venue: [a.id, b.id] }), 'venue');
    });

    it('an id that is not a venue is 400 rest_invalid_param (param venue)', async () => {
      const ev = await createEvent(t, admin.authorization);
      for (const given of [999999, '999999', ev.id]) {
        expectInvalidParams(await post(admin, { venue: given }), 'venue');
      }
    });

    it('an {id} that is not a venue is 400 invalid-linked-post-id', async () => {
      const organizer = await createOrganizer(t, admin.authorization, { organizer: `Not a venue ${uid()}` });

      expectError(await post(admin, { venue: { id: organizer.id } }), 400, 'invalid-linked-post-id');
    });

    it('a nested venue without a name is 400 rest_invalid_param (param venue)', async () => {
      expectInvalidParams(await post(admin, { venue: { city: 'Rome' } }), 'venue');
    });
  });

  describe('trashing a linked venue or organizer (§4.4)', () => {
    it('removes it from every event that linked it', async () => {
      const tok = uid();
      const venue = await createVenue(t, admin.authorization, { venue: `Doomed venue ${tok}` });
      const doomed = await createOrganizer(t, admin.authorization, { organizer: `Doomed org ${tok}` });
      const kept = await createOrganizer(t, admin.authorization, { organizer: `Kept org ${tok}` });
      const first = await createEvent(t, admin.authorization, { venue: venue.id, organizer: [doomed.id, kept.id] });
      const second = await createEvent(t, admin.authorization, { venue: venue.id, organizer: [doomed.id] });

      expectStatus(await http(t, admin.authorization).delete(`${API}/venues/${venue.id}`), 200);
      expectStatus(await http(t, admin.authorization).delete(`${API}/organizers/${doomed.id}`), 200);

      const firstAfter = await readEvent(t, first.id);
      const secondAfter = await readEvent(t, second.id);
      expect(firstAfter.venue).toEqual([]);
      expect(idsOf(firstAfter.organizer)).toEqual([kept.id]);
      expect(secondAfter.venue).toEqual([]);
      expect(secondAfter.organizer).toEqual([]);
    });
  });

  describe('organizers (§4.4)', () => {
    let o1: { id: number };
    let o2: { id: number };
    beforeAll(async () => {
      o1 = await createOrganizer(t, admin.authorization, { organizer: `Org One ${uid()}` });
      o2 = await createOrganizer(t, admin.authorization, { organizer: `Org Two ${uid()}` });
    });

    it('accepts a single id, {id}, a comma list and an array, in the given order', async () => {
      const cases: [unknown, number[]][] = [
        [o1.id, [o1.id]],
        [String(o2.id), [o2.id]],
        [{ id: o1.id }, [o1.id]],
        [`${o2.id},${o1.id}`, [o2.id, o1.id]],
        [`${o1.id}, ${o2.id}`, [o1.id, o2.id]],
        [
          [o2.id, o1.id],
          [o2.id, o1.id],
        ],
        [
          [{ id: o1.id }, String(o2.id)],
          [o1.id, o2.id],
        ],
      ];
      for (const [given, expected] of cases) {
        const res = await post(admin, { organizer: given });
        expectStatus(res, 201);
        expect({ given, ids: idsOf(res.body.organizer) }).toEqual({ given, ids: expected });
      }
    });

    it('creates organizers from objects, mixed with ids, and removes duplicates', async () => {
      const tok = uid();

      const ev = await createEvent(t, admin.authorization, {
        organizer: [o2.id, { organizer: `New Org ${tok}`, email: 'new@example.org' }, { id: o2.id }, o1.id],
      });

      expect(ev.organizer).toHaveLength(3);
      expect(ev.organizer[0].id).toBe(o2.id);
      expect(ev.organizer[1]).toMatchObject({ organizer: `New Org ${tok}`, email: 'new@example.org' });
      expect(ev.organizer[2].id).toBe(o1.id);
    });

    it('on update: absent keeps, a list replaces, [], 0 and "" remove all', async () => {
      for (const none of [[], 0, '']) {
        const ev = await createEvent(t, admin.authorization, { organizer: [o1.id, o2.id] });
        const kept = await update(admin, ev.id, { title: `Kept ${uid()}` });
        expect(idsOf(kept.body.organizer)).toEqual([o1.id, o2.id]);
        const replaced = await update(admin, ev.id, { organizer: [o2.id] });
        expect(idsOf(replaced.body.organizer)).toEqual([o2.id]);
        const removed = await update(admin, ev.id, { organizer: none });
        expectStatus(removed, 200);
        expect({ none, organizer: removed.body.organizer }).toEqual({ none, organizer: [] });
      }
    });

    it('an invalid element fails the whole request and creates nothing', async () => {
      const tok = uid();
      const venue = await createVenue(t, admin.authorization, { venue: `Venue not org ${tok}` });

      const unknown = await post(admin, { title: `Ghost event ${tok}`, organizer: [{ organizer: `Ghost Org ${tok}` }, 999999] });
      expectInvalidParams(unknown, 'organizer');
      expectError(await post(admin, { organizer: [o1.id, { id: venue.id }] }), 400, 'invalid-linked-post-id');
      expectInvalidParams(await post(admin, { organizer: [o1.id, { email: 'no-name@example.org' }] }), 'organizer');

      const organizers = await http(t, admin.authorization).get(`${API}/organizers?search=${tok}`);
      expectStatus(organizers, 200);
      expect(organizers.body.organizers).toEqual([]);
      const events = await http(t, admin.authorization).get(`${API}/events?search=${tok}&start_date=2000-01-01&end_date=2040-01-01`);
      expect(events.body.events).toEqual([]);
    });
  });

  describe('slugs (§4.6)', () => {
    it('generates the slug from the title: lower case, transliterated, tags and punctuation removed', async () => {
      const tok = uid();

      const ev = await createEvent(t, admin.authorization, { title: `Café <b>Größe</b> — ${tok}!!` });

      expect(ev.slug).toBe(`cafe-grosse-${tok}`);
      expect(ev.url).toBe(`${t.baseUrl}/event/cafe-grosse-${tok}/`);
    });

    it('removes HTML entities', async () => {
      const tok = uid();
      const ev = await createEvent(t, admin.authorization, { title: `Rock &amp; Roll ${tok}` });
      expect(ev.slug).toBe(`rock-roll-${tok}`);
    });

    it('appends -2, -3 to a taken slug', async () => {
      const title = `Same Title ${uid()}`;
      const base = title.toLowerCase().replace(/ /g, '-');

      const slugs = [];
      for (let i = 0; i < 3; i += 1) slugs.push((await createEvent(t, admin.authorization, { title })).slug);

      expect(slugs).toEqual([base, `${base}-2`, `${base}-3`]);
    });

    it('generates a slug for drafts too', async () => {
      const tok = uid();
      const ev = await createEvent(t, users.contributor.authorization, { title: `Draft ${tok}` });
      expect(ev.status).toBe('draft');
      expect(ev.slug).toBe(`draft-${tok}`);
    });

    it('normalises an explicit slug and makes it unique', async () => {
      const tok = uid();

      const first = await createEvent(t, admin.authorization, { slug: `My Custom Slug ${tok}` });
      const second = await createEvent(t, admin.authorization, { slug: `my-custom-slug-${tok}` });

      expect(first.slug).toBe(`my-custom-slug-${tok}`);
      expect(second.slug).toBe(`my-custom-slug-${tok}-2`);
    });

    it('uses the id when nothing is left of the title', async () => {
      const ev = await createEvent(t, admin.authorization, { title: '!!!' });
      expect(ev.slug).toBe(String(ev.id));
    });

    it('keeps the slug when the title changes; a slug update taken by another event gets a suffix', async () => {
      const tok = uid();
      const ev = await createEvent(t, admin.authorization, { title: `Original ${tok}` });
      const other = await createEvent(t, admin.authorization, { title: `Other ${tok}` });

      const renamed = await update(admin, ev.id, { title: `Renamed ${tok}` });
      expectStatus(renamed, 200);
      expect(renamed.body.slug).toBe(`original-${tok}`);

      const clash = await update(admin, ev.id, { slug: other.slug });
      expectStatus(clash, 200);
      expect(clash.body.slug).toBe(`other-${tok}-2`);

      const own = await update(admin, other.id, { slug: other.slug });
      expect(own.body.slug).toBe(`other-${tok}`);
    });

    it('trashing frees the slug', async () => {
      const title = `Freed ${uid()}`;
      const first = await createEvent(t, admin.authorization, { title });
      const trashed = await trashEvent(t, admin.authorization, first.id);
      expect(trashed.slug).toBe(`${first.slug}__trashed`);

      const second = await createEvent(t, admin.authorization, { title });

      expect(second.slug).toBe(first.slug);
      expect((await readEvent(t, second.id)).id).toBe(second.id);
      const bySlug = await http(t).get(`${API}/events/by-slug/${first.slug}`);
      expectStatus(bySlug, 200);
      expect(bySlug.body.id).toBe(second.id);
    });
  });

  describe('images (§4.7)', () => {
    it('accepts the URL of a reachable image and reuses the media item for the same URL', async () => {
      const url = `${images.base}/photo.jpg?v=${uid()}`;

      const first = await createEvent(t, users.author.authorization, { image: url });
      const second = await createEvent(t, admin.authorization, { image: url });

      expect(first.image).toStrictEqual({ url, id: expect.any(Number), extension: 'jpg' });
      expect(second.image).toStrictEqual(first.image);
    });

    it('probes the URL with HEAD (or GET)', async () => {
      const path = `/probe-${uid()}.png`;

      const ev = await createEvent(t, admin.authorization, { image: `${images.base}${path}` });

      expect(ev.image).toMatchObject({ extension: 'png' });
      expect(images.hits.some((hit) => hit === `HEAD ${path}` || hit === `GET ${path}`)).toBe(true);
    });

    it('accepts the id of an existing media item', async () => {
      const withUrl = await createEvent(t, admin.authorization, { image: `${images.base}/byid-${uid()}.jpg` });
      const mediaId = (withUrl.image as { id: number }).id;

      for (const given of [mediaId, String(mediaId)]) {
        const ev = await createEvent(t, users.contributor.authorization, { image: given });
        expect(ev.image).toStrictEqual(withUrl.image);
      }
    });

    it('rejects a web page, a missing file, an unknown id, a non-media id and free text', async () => {
      const ev = await createEvent(t, admin.authorization);
      for (const image of [`${images.base}/page.html`, `${images.base}/missing.gif`, 999999, String(ev.id), 'foo bar', 'ftp://example.org/a.jpg']) {
        expectInvalidParams(await post(admin, { image }), 'image');
      }
    });

    it('a contributor may not give an image by URL', async () => {
      expectInvalidParams(await post(users.contributor, { image: `${images.base}/contrib-${uid()}.jpg` }), 'image');
    });

    it('on update: absent keeps the image, "" and 0 remove it', async () => {
      for (const none of ['', 0]) {
        const ev = await createEvent(t, admin.authorization, { image: `${images.base}/remove-${uid()}.jpg` });
        const kept = await update(admin, ev.id, { title: `Kept ${uid()}` });
        expect(kept.body.image).toStrictEqual(ev.image);
        const removed = await update(admin, ev.id, { image: none });
        expectStatus(removed, 200);
        expect({ none, image: removed.body.image }).toEqual({ none, image: false });
      }
    });

    it('"" on create means no image', async () => {
      const res = await post(admin, { image: '' });
      expectStatus(res, 201);
      expect(res.body.image).toBe(false);
    });
  });
});
