// The venue routes (spec endpoints.md §3, §4.6, §4.7, §5; resources.md §2, §7, §8, §9; auth.md; errors.md).
import { QueryFailedError } from 'typeorm';
import { OUTER } from '../../../src/database/tx';
import { UnitOfWork } from '../../../src/database/unit-of-work';
import { MediaService } from '../../../src/media';
import type { LinkedItemReads, LinkedItemWrites } from '../../../src/linked-items';
import { VENUE_TOKENS, type VenueEntity } from '../../../src/venues';
import { VenuesRepository } from '../../../src/venues/venues.repository';
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, JSON_TYPE, queryOf, rootOf } from '../../support/http';
import { Caller, createEvent, createVenue, LinkedItemBody, listIdsOf, makeUsers, readEventLinks, trashEvent, uid } from '../../support/api';
import { DATE_TIME, nextSecond } from '../../support/events';
import { expectError, expectInvalidParams, idsOf, sortedIds } from '../../support/expect';

type Role = 'admin' | 'editor' | 'author' | 'contributor' | 'author2' | 'contributor2' | 'subscriber';

describe('venues', () => {
  let t: TestApp;
  let root: string;
  let users: Record<Role, Caller>;
  const as = (role: Role) => http(t, users[role].authorization);
  const create = (body: Record<string, unknown>, role: Role = 'admin') => createVenue(t, users[role].authorization, body);
  const read = async (id: number, role: Role = 'admin') => (await as(role).get(`${API}/venues/${id}`)).body as LinkedItemBody;
  const listIds = (query: string, role?: Role) => listIdsOf(t, 'venues', `per_page=50&${query}`, role && users[role].authorization);
  /** An event made by the administrator through POST /events; `fields` win over a minimal valid event. */
  const event = (fields: Record<string, unknown> = {}) => createEvent(t, users.admin.authorization, fields);
  /** Start and end of an event at the same moment (UTC, the site zone). */
  const at = (when: string) => ({ start_date: when, end_date: when });

  beforeAll(async () => {
    t = await createTestApp();
    root = rootOf(t);
    users = { ...(await makeUsers(t)), contributor2: await t.userHeader('contrib2', 'contributor') };
    t.app.get(MediaService).probe = async (url) => (url.includes('not-an-image') ? null : 'image/jpeg');
  }, 30_000); // a fresh app (migrations) and users with scrypt-hashed passwords: slow on a busy machine
  afterAll(async () => t?.close());

  describe('representation (resources.md §2, §7)', () => {
    it('omits empty keys: a venue with only a name', async () => {
      const tok = uid();
      const res = await as('admin')
        .post(`${API}/venues`)
        .send({ venue: `  Hall ${tok} ` });

      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expect(Object.keys(res.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'slug',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
      const id = res.body.id;
      expect(res.body).toMatchObject({
        author: String(users.admin.id),
        status: 'publish',
        url: `${t.baseUrl}/venue/hall-${tok}/`,
        venue: `Hall ${tok}`,
        slug: `hall-${tok}`,
        show_map: true,
        show_map_link: true,
        global_id: `127.0.0.1?id=${id}`,
        global_id_lineage: [`127.0.0.1?id=${id}`],
      });
      for (const key of ['date', 'date_utc', 'modified', 'modified_utc']) expect(res.body[key]).toMatch(DATE_TIME);
      expect(res.body).not.toHaveProperty('json_ld');
      expect(res.body).not.toHaveProperty('rest_url');
    });

    it('gives every key in order on a single read, with the Place JSON-LD', async () => {
      const tok = uid();
      const created = await create({
        venue: `River Stage ${tok}`,
        description: 'Open-air stage on the quay.\n\nSecond <b>para</b>.',
        address: '1 Quay Street',
        city: 'Hudson',
        country: 'United States',
        province: 'Ontario',
        state: 'NY',
        zip: '12534',
        phone: '+1 518-555-0100',
        website: 'https://riverstage.example',
        stateprovince: 'NY',
        date: '2025-01-10 09:00:00',
      });

      const res = await http(t).get(`${API}/venues/${created.id}`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'venue',
        'description',
        'slug',
        'address',
        'city',
        'country',
        'province',
        'state',
        'zip',
        'phone',
        'website',
        'stateprovince',
        'json_ld',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
      const url = `${t.baseUrl}/venue/river-stage-${tok}/`;
      expect(res.body).toMatchObject({ date: '2025-01-10 09:00:00', date_utc: '2025-01-10 09:00:00', url });
      expect(res.body.description).toBe('<p>Open-air stage on the quay.</p>\n<p>Second <b>para</b>.</p>');
      expect(res.body.json_ld).toStrictEqual({
        '@type': 'Place',
        name: `River Stage ${tok}`,
        description: 'Open-air stage on the quay. Second para.',
        url,
        address: {
          '@type': 'PostalAddress',
          streetAddress: '1 Quay Street',
          addressLocality: 'Hudson',
          addressRegion: 'NY',
          postalCode: '12534',
          addressCountry: 'United States',
        },
        telephone: '+1 518-555-0100',
        sameAs: 'https://riverstage.example',
      });
      const { json_ld: _ld, ...withoutLd } = res.body;
      expect(created).toStrictEqual({ ...withoutLd, modified: created.modified, modified_utc: created.modified_utc });
    });

    it('JSON-LD keeps only the non-empty address members; the region falls back to the province', async () => {
      const created = await create({ venue: `Bare ${uid()}`, province: 'Ontario', country: '' });
      const ld = (await read(created.id)).json_ld;
      expect(ld.address).toStrictEqual({ '@type': 'PostalAddress', addressRegion: 'Ontario' });
      expect(ld).toMatchObject({ description: '', telephone: '', sameAs: '' });
      expect(Object.keys(ld)).toEqual(['@type', 'name', 'description', 'url', 'address', 'telephone', 'sameAs']);
    });

    it('shows the publication date in the site time zone (README §6.1)', async () => {
      const paris = await createTestApp({ CALENDAR_TIMEZONE: 'Europe/Paris' });
      try {
        const admin = await paris.userHeader('admin', 'administrator');
        const res = await http(paris, admin.authorization).post(`${API}/venues`).send({ venue: 'Somewhere', date: '2025-07-01 12:00:00' });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ date: '2025-07-01 12:00:00', date_utc: '2025-07-01 10:00:00' });
        const utc = await http(paris, admin.authorization).post(`${API}/venues`).send({ venue: 'Elsewhere', date_utc: '2025-01-01 12:00:00' });
        expect(utc.body).toMatchObject({ date: '2025-01-01 13:00:00', date_utc: '2025-01-01 12:00:00' });
      } finally {
        await paris.close();
      }
    });
  });

  describe('create (endpoints.md §5.2)', () => {
    it('requires a name: missing → rest_missing_callback_param, empty → rest_invalid_param', async () => {
      const missing = await as('admin').post(`${API}/venues`).send({ city: 'Rome' });
      expectError(missing, 400, 'rest_missing_callback_param');
      expect(missing.body.data.params).toEqual(['venue']);
      expectInvalidParams(await as('admin').post(`${API}/venues`).send({ venue: '  ' }), 'venue');
    });

    it('reports every bad field together', async () => {
      const res = await as('admin').post(`${API}/venues`).send({ venue: 'X', website: 'foo', status: 'trash', date: '', city: 3 });
      expectInvalidParams(res, 'website', 'status', 'date', 'city');
    });

    it.each([
      ['author foo', { author: 'foo' }, 'author'],
      ['author unknown', { author: 2389 }, 'author'],
      ['author empty', { author: '' }, 'author'],
      ['date foo', { date: 'foo' }, 'date'],
      ['date_utc foo', { date_utc: 'not a strtotime parsable string' }, 'date_utc'],
      ['status foo', { status: 'foo' }, 'status'],
      ['image words', { image: 'foo bar' }, 'image'],
      ['image unknown id', { image: 999999 }, 'image'],
      ['image not an image', { image: 'http://127.0.0.1:1/not-an-image.png' }, 'image'],
      ['website relative', { website: '/x' }, 'website'],
    ])('rejects %s', async (_name, fields, param) => {
      expectInvalidParams(
        await as('admin')
          .post(`${API}/venues`)
          .send({ venue: `Bad ${uid()}`, ...fields }),
        param,
      );
    });

    it('checks parameters before permission, then needs the right to create items', async () => {
      expectInvalidParams(await http(t).post(`${API}/venues`).send({ venue: 'X', author: 'foo' }), 'author');
      expectError(await http(t).post(`${API}/venues`).send({ venue: 'X' }), 401, 'rest_forbidden');
      expectError(await as('subscriber').post(`${API}/venues`).send({ venue: 'X' }), 403, 'rest_forbidden');
      expect(
        (
          await as('contributor')
            .post(`${API}/venues`)
            .send({ venue: `Mine ${uid()}` })
        ).status,
      ).toBe(201);
    });

    it('accepts empty optional text, an empty website and an empty image', async () => {
      const v = await create({ venue: `Empty ${uid()}`, description: '', address: '', website: '', image: '', phone: '' });
      expect(v).not.toHaveProperty('description');
      expect(v).not.toHaveProperty('image');
      expect(v).not.toHaveProperty('website');
    });

    it('reads show_map and show_map_link as loose flags defaulting to true (README §4)', async () => {
      const form = await as('admin').post(`${API}/venues`).type('form').send(`venue=Form+${uid()}&show_map=no&show_map_link=YES`);
      expect(form.status).toBe(201);
      expect(form.body).toMatchObject({ show_map: false, show_map_link: true });
      const json = await create({ venue: `Json ${uid()}`, show_map: 'foo', show_map_link: true });
      expect(json).toMatchObject({ show_map: false, show_map_link: true });
      expect(await create({ venue: `Default ${uid()}` })).toMatchObject({ show_map: true, show_map_link: true });
    });

    it('sets the image from a media URL (author and above) and reuses the media item', async () => {
      const v1 = await create({ venue: `Pic ${uid()}`, image: 'https://cdn.example.org/img/stage.JPG' }, 'author');
      expect(v1.image).toStrictEqual({ url: 'https://cdn.example.org/img/stage.JPG', id: expect.any(Number), extension: 'jpg' });
      const v2 = await create({ venue: `Pic2 ${uid()}`, image: String(v1.image.id) });
      expect(v2.image).toStrictEqual(v1.image);
      expect((await read(v1.id)).json_ld.image).toBe('https://cdn.example.org/img/stage.JPG');
      expectInvalidParams(await as('contributor').post(`${API}/venues`).send({ venue: 'C', image: 'https://cdn.example.org/c.png' }), 'image');
    });

    it('scales statuses (endpoints.md §3)', async () => {
      const future = '2099-05-01 10:00:00';
      expect((await create({ venue: `C1 ${uid()}` }, 'contributor')).status).toBe('draft');
      expect((await create({ venue: `C2 ${uid()}`, status: 'publish' }, 'contributor')).status).toBe('pending');
      expect((await create({ venue: `C3 ${uid()}`, status: 'private' }, 'contributor')).status).toBe('pending');
      expect((await create({ venue: `A1 ${uid()}` }, 'author')).status).toBe('publish');
      expect((await create({ venue: `A2 ${uid()}`, status: 'private' }, 'author')).status).toBe('private');
      expect((await create({ venue: `A3 ${uid()}`, date: future }, 'author')).status).toBe('future');
      expect((await create({ venue: `A4 ${uid()}`, status: 'future', date: '2020-01-01' }, 'author')).status).toBe('publish');
    });

    it('sets the author: only editors and administrators may name another user', async () => {
      expect((await create({ venue: `By ${uid()}`, author: users.author.id })).author).toBe(String(users.author.id));
      expect((await create({ venue: `Self ${uid()}`, author: String(users.author.id) }, 'author')).author).toBe(String(users.author.id));
      expectError(await as('author').post(`${API}/venues`).send({ venue: 'Y', author: users.admin.id }), 403, 'rest_cannot_edit_others');
    });

    it('sanitises names and descriptions of callers without unfiltered HTML (README §8)', async () => {
      const tok = uid();
      const byAuthor = await create(
        { venue: `<b>Bold</b> ${tok}<script>x()</script>`, description: '<p onclick="x()">Hi <script>alert(1)</script>there</p>' },
        'author',
      );
      expect(byAuthor.venue).toBe(`Bold ${tok}`);
      expect(byAuthor.description).toBe('<p>Hi there</p>');
      const byAdmin = await create({ venue: `<i>Kept</i> ${tok}`, description: '<span onclick="x()">raw</span>' });
      expect(byAdmin.venue).toBe(`<i>Kept</i> ${tok}`);
      expect(byAdmin.description).toBe('<p><span onclick="x()">raw</span></p>');
      expectInvalidParams(await as('author').post(`${API}/venues`).send({ venue: '<script>x</script>' }), 'venue');
    });
  });

  describe('slugs (endpoints.md §4.6)', () => {
    it('generates, suffixes and normalises slugs; an empty result becomes the id', async () => {
      const tok = uid();
      const a = await create({ venue: `Café ${tok}`, description: 'one' });
      const b = await create({ venue: `Café ${tok}`, description: 'two' });
      expect([a.slug, b.slug]).toEqual([`cafe-${tok}`, `cafe-${tok}-2`]);
      expect((await create({ venue: `Other ${tok}`, slug: `My Slug ${tok}!` })).slug).toBe(`my-slug-${tok}`);
      const bang = await create({ venue: '!!!' });
      expect(bang.slug).toBe(String(bang.id));
    });

    it('gives an update to a taken slug a suffix and keeps the slug when only the name changes', async () => {
      const tok = uid();
      const a = await create({ venue: `First ${tok}` });
      const b = await create({ venue: `Second ${tok}` });
      const renamed = await as('admin')
        .post(`${API}/venues/${b.id}`)
        .send({ venue: `Renamed ${tok}` });
      expect(renamed.body.slug).toBe(`second-${tok}`);
      const clash = await as('admin').put(`${API}/venues/${b.id}`).send({ slug: a.slug });
      expect(clash.body.slug).toBe(`${a.slug}-2`);
      const same = await as('admin').patch(`${API}/venues/${a.id}`).send({ slug: a.slug });
      expect(same.body.slug).toBe(a.slug);
    });
  });

  describe('duplicate reuse (endpoints.md §5.2)', () => {
    it('reuses a venue with the same name (and description when given), writing the other fields onto it', async () => {
      const tok = uid();
      const first = await create({ venue: `A venue ${tok}`, description: 'A venue description', city: 'Rome' });

      const byName = await as('admin')
        .post(`${API}/venues`)
        .send({ venue: `a venue ${tok}`, city: 'Milan', show_map: 'false' });
      expect(byName.status).toBe(201);
      expect(byName.body).toMatchObject({ id: first.id, venue: `A venue ${tok}`, city: 'Milan', show_map: false, slug: first.slug });
      const withDescription = await create({ venue: `A VENUE ${tok}`, description: 'a venue description' });
      expect(withDescription.id).toBe(first.id);
      expect(withDescription.city).toBe('Milan');

      const other = await create({ venue: `A venue ${tok}`, description: 'other' });
      expect(other.id).not.toBe(first.id);
    });

    it('does not reuse trashed venues, nor venues the creator may not read', async () => {
      const tok = uid();
      const trashed = await create({ venue: `Gone ${tok}` });
      await as('admin').delete(`${API}/venues/${trashed.id}`);
      const fresh = await create({ venue: `Gone ${tok}` });
      expect(fresh.id).not.toBe(trashed.id);
      expect(fresh.slug).toBe(`gone-${tok}`);

      const draft = await create({ venue: `Secret ${tok}`, status: 'draft' });
      const byAuthor = await create({ venue: `Secret ${tok}` }, 'author');
      expect(byAuthor.id).not.toBe(draft.id);
    });

    it('reuses a venue the creator may read but not edit without changing it', async () => {
      const tok = uid();
      const published = await create({ venue: `Public ${tok}`, city: 'Rome' });
      const reused = await create({ venue: `Public ${tok}`, city: 'Paris' }, 'contributor');
      expect(reused).toMatchObject({ id: published.id, city: 'Rome' });
    });
  });

  describe('single read (endpoints.md §5.3)', () => {
    it('answers 400 for unknown ids and ids of other kinds, 404 for non-digit ids', async () => {
      expectInvalidParams(await http(t).get(`${API}/venues/999999`), 'id');
      expectInvalidParams(await http(t).get(`${API}/venues/0`), 'id');
      const eventId = (await event()).id;
      expectInvalidParams(await http(t).get(`${API}/venues/${eventId}`), 'id');
      expectError(await http(t).get(`${API}/venues/abc`), 404, 'rest_no_route');
    });

    it('refuses non-published venues to callers who may not read them (403 also for anonymous)', async () => {
      const draft = await create({ venue: `Draft ${uid()}`, status: 'draft' }, 'author');
      expectError(await http(t).get(`${API}/venues/${draft.id}`), 403, 'venue-not-accessible');
      expectError(await as('author2').get(`${API}/venues/${draft.id}`), 403, 'venue-not-accessible');
      expectError(await as('subscriber').get(`${API}/venues/${draft.id}`), 403, 'venue-not-accessible');
      const own = await as('author').get(`${API}/venues/${draft.id}`);
      expect(own.status).toBe(200);
      expect(own.body.json_ld['@type']).toBe('Place');
      expect((await as('editor').get(`${API}/venues/${draft.id}`)).status).toBe(200);

      const priv = await create({ venue: `Private ${uid()}`, status: 'private' }, 'author');
      expectError(await as('contributor').get(`${API}/venues/${priv.id}`), 403, 'venue-not-accessible');
      expect((await as('admin').get(`${API}/venues/${priv.id}`)).status).toBe(200);
    });

    it('treats a scheduled venue whose date has passed as published (§3 rule 5)', async () => {
      // Scheduled three seconds ahead (the API has no other way to make a `future` item whose date
      // has passed), then read once that second is over.
      const due = Date.now() + 3000;
      const v = await create({ venue: `Soon ${uid()}`, date_utc: new Date(due).toISOString().replace('T', ' ').slice(0, 19) });
      expect(v.status).toBe('future');
      await new Promise((resolve) => setTimeout(resolve, due - Date.now() + 1000));
      const res = await http(t).get(`${API}/venues/${v.id}`);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('publish');
      expect(await listIds(`search=${encodeURIComponent(v.venue)}&status=publish`)).toEqual([v.id]);
    }, 15_000);

    it('reads trashed venues only for callers who may read them', async () => {
      const v = await create({ venue: `Trashed ${uid()}` }, 'author');
      await as('author').delete(`${API}/venues/${v.id}`);
      expectError(await http(t).get(`${API}/venues/${v.id}`), 403, 'venue-not-accessible');
      expectError(await as('author2').get(`${API}/venues/${v.id}`), 403, 'venue-not-accessible');
      const editor = await as('editor').get(`${API}/venues/${v.id}`);
      expect(editor.status).toBe(200);
      expect(editor.body.status).toBe('trash');
    });

    it('reads, updates and deletes by slug (percent-decoded); unknown slug → 400', async () => {
      const tok = uid();
      const v = await create({ venue: `Slugged ${tok}`, slug: `caf-${tok}` });
      const got = await http(t).get(`${API}/venues/by-slug/caf-${tok}`);
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(v.id);
      expect(got.body).toHaveProperty('json_ld');
      expect((await http(t).get(`${API}/venues/by-slug/%63af-${tok}/`)).body.id).toBe(v.id);
      expectInvalidParams(await http(t).get(`${API}/venues/by-slug/nothing-${tok}`), 'slug');
      expectInvalidParams(await http(t).delete(`${API}/venues/by-slug/nothing-${tok}`), 'slug');

      const updated = await as('admin').patch(`${API}/venues/by-slug/caf-${tok}`).send({ city: 'Lyon' });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id: v.id, city: 'Lyon' });
      expect(updated.body).not.toHaveProperty('json_ld');

      const deleted = await as('admin').delete(`${API}/venues/by-slug/caf-${tok}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ id: v.id, status: 'trash', slug: `caf-${tok}__trashed` });
      expect((await as('admin').get(`${API}/venues/by-slug/caf-${tok}__trashed`)).body.id).toBe(v.id);
    });
  });

  describe('update (endpoints.md §5.3)', () => {
    it('checks the id before permission, then the right to edit that venue', async () => {
      expectInvalidParams(await http(t).post(`${API}/venues/999999`).send({ city: 'x' }), 'id');
      const v = await create({ venue: `Edit ${uid()}` });
      expectError(await http(t).post(`${API}/venues/${v.id}`).send({ city: 'x' }), 401, 'rest_forbidden');
      expectError(await as('author').put(`${API}/venues/${v.id}`).send({ city: 'x' }), 403, 'rest_forbidden');
      expectError(await as('subscriber').put(`${API}/venues/${v.id}`).send({ city: 'x' }), 403, 'rest_forbidden');
      expect((await as('editor').put(`${API}/venues/${v.id}`).send({ city: 'x' })).status).toBe(200);
    });

    it('lets contributors edit their own unpublished venues only', async () => {
      const draft = await create({ venue: `CoDraft ${uid()}` }, 'contributor');
      const res = await as('contributor').post(`${API}/venues/${draft.id}`).send({ city: 'Oslo', status: 'publish' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ city: 'Oslo', status: 'pending' });
      const published = await create({ venue: `CoPub ${uid()}`, author: users.contributor.id });
      expectError(await as('contributor').post(`${API}/venues/${published.id}`).send({ city: 'x' }), 403, 'rest_forbidden');
      expectError(await as('contributor').delete(`${API}/venues/${published.id}`), 403, 'rest_forbidden');
      expectError(await as('contributor2').post(`${API}/venues/${draft.id}`).send({ city: 'x' }), 403, 'rest_forbidden');
    });

    it('changes only the given fields, keeps the status when omitted and sets modified', async () => {
      const v = await create({ venue: `Partial ${uid()}`, city: 'Rome', zip: '00100', status: 'draft', date: '2024-02-03 04:05:06' });
      expect(v.modified_utc).not.toBe('2024-02-03 04:05:06');
      await nextSecond(); // so that "now" at the update differs from the creation's modified time
      const res = await as('admin').post(`${API}/venues/${v.id}`).send({ city: 'Turin', show_map: 'off' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        venue: v.venue,
        city: 'Turin',
        zip: '00100',
        status: 'draft',
        show_map: false,
        show_map_link: true,
        date_utc: '2024-02-03 04:05:06',
      });
      expect(res.body.modified_utc).toMatch(DATE_TIME);
      expect(res.body.modified_utc > v.modified_utc).toBe(true);

      const emptied = await as('admin').post(`${API}/venues/${v.id}`).type('form').send('city=&description=');
      expect(emptied.status).toBe(200);
      expect(emptied.body).not.toHaveProperty('city');
      const dated = await as('admin').post(`${API}/venues/${v.id}`).send({ date_utc: '2023-01-01 00:00:00', author: users.editor.id });
      expect(dated.body).toMatchObject({ date_utc: '2023-01-01 00:00:00', author: String(users.editor.id) });
    });

    it('validates given fields: name non-empty, website, status, date', async () => {
      const v = await create({ venue: `Valid ${uid()}` });
      expectInvalidParams(await as('admin').post(`${API}/venues/${v.id}`).send({ venue: '' }), 'venue');
      expectInvalidParams(await as('admin').post(`${API}/venues/${v.id}`).send({ website: 'foo', status: 'bogus', date: 'foo' }), 'website', 'status', 'date');
      expect((await as('admin').post(`${API}/venues/${v.id}`).send({ image: '' })).status).toBe(200);
    });

    it('does not reuse duplicates on update', async () => {
      const tok = uid();
      const a = await create({ venue: `Twin ${tok}` });
      const b = await create({ venue: `Other ${tok}`, description: 'x' });
      const res = await as('admin')
        .post(`${API}/venues/${b.id}`)
        .send({ venue: `Twin ${tok}` });
      expect(res.body).toMatchObject({ id: b.id, venue: `Twin ${tok}` });
      expect(res.body.id).not.toBe(a.id);
    });

    it('takes a trashed venue out of the trash when given a status, with its slug back', async () => {
      const tok = uid();
      const v = await create({ venue: `Back ${tok}` });
      await as('admin').delete(`${API}/venues/${v.id}`);
      const still = await as('admin').post(`${API}/venues/${v.id}`).send({ city: 'x' });
      expect(still.body).toMatchObject({ status: 'trash', slug: `back-${tok}__trashed` });
      const renamed = await as('admin')
        .post(`${API}/venues/${v.id}`)
        .send({ slug: `moved-${tok}` });
      expect(renamed.body).toMatchObject({ status: 'trash', slug: `moved-${tok}__trashed` });
      const back = await as('admin').post(`${API}/venues/${v.id}`).send({ status: 'publish' });
      expect(back.body).toMatchObject({ status: 'publish', slug: `moved-${tok}` });
    });

    it('answers the could-not-* codes when storage fails', async () => {
      const repo = t.app.get(VenuesRepository);
      const v = await create({ venue: `Fragile ${uid()}` });
      const fail = async () => {
        throw new QueryFailedError('UPDATE venues', [], new Error('disk full'));
      };
      const { insert, update } = repo;
      repo.insert = fail;
      repo.update = fail;
      try {
        expectError(
          await as('admin')
            .post(`${API}/venues`)
            .send({ venue: `New ${uid()}` }),
          400,
          'could-not-create-venue',
        );
        expectError(await as('admin').post(`${API}/venues/${v.id}`).send({ city: 'x' }), 400, 'could-not-update-venue');
        expectError(await as('admin').delete(`${API}/venues/${v.id}`), 500, 'could-not-delete-venue');
      } finally {
        Object.assign(repo, { insert, update });
      }
      expect((await read(v.id)).status).toBe('publish');
    });
  });

  describe('delete (endpoints.md §5.3, resources.md §9)', () => {
    it('moves to the trash, unlinks from events, and answers 410 the second time', async () => {
      const tok = uid();
      const v = await create({ venue: `Doomed ${tok}` });
      const linked = await event({ venue: v.id });
      expect((await readEventLinks(t, users.admin.authorization, linked.id)).venueId).toBe(v.id);

      const res = await as('admin').delete(`${API}/venues/${v.id}`);

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: v.id, status: 'trash', slug: `doomed-${tok}__trashed`, venue: `Doomed ${tok}` });
      expect(res.body).not.toHaveProperty('json_ld');
      expect((await readEventLinks(t, users.admin.authorization, linked.id)).venueId).toBeNull();
      expectError(await as('admin').delete(`${API}/venues/${v.id}`), 410, 'venue-is-in-trash');
    });

    it('checks the id before permission, then the right to delete that venue', async () => {
      expectInvalidParams(await http(t).delete(`${API}/venues/999999`), 'id');
      const v = await create({ venue: `Keep ${uid()}` });
      expectError(await http(t).delete(`${API}/venues/${v.id}`), 401, 'rest_forbidden');
      expectError(await as('author').delete(`${API}/venues/${v.id}`), 403, 'rest_forbidden');
      const own = await create({ venue: `OwnDraft ${uid()}` }, 'contributor');
      expect((await as('contributor').delete(`${API}/venues/${own.id}`)).status).toBe(200);
      expect((await as('editor').delete(`${API}/venues/${v.id}`)).status).toBe(200);
    });
  });

  describe('list (endpoints.md §5.1, resources.md §8)', () => {
    it('answers the envelope with rest_url, totals and X-TEC headers; newest first, then by id', async () => {
      const tok = uid();
      const older = await create({ venue: `Listed ${tok} one`, date: '2020-01-01 10:00:00' });
      const tieA = await create({ venue: `Listed ${tok} two`, date: '2021-01-01 10:00:00' });
      const tieB = await create({ venue: `Listed ${tok} three`, date: '2021-01-01 10:00:00' });

      const res = await http(t).get(`${API}/venues?search=${tok}`);

      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['venues', 'rest_url', 'total', 'total_pages']);
      expect(idsOf(res.body.venues)).toEqual([tieB.id, tieA.id, older.id]);
      expect(res.body).toMatchObject({ total: 3, total_pages: 1 });
      expect(res.headers['x-tec-total']).toBe('3');
      expect(res.headers['x-tec-totalpages']).toBe('1');
      expect(res.body.rest_url.startsWith(`${root}/venues/?`)).toBe(true);
      expect(queryOf(res.body.rest_url)).toEqual({ page: '1', per_page: '10', search: tok });
      expect(res.body.venues[0]).not.toHaveProperty('json_ld');
    });

    it('pages with next/previous links and answers 404 beyond the last page', async () => {
      const tok = uid();
      for (let i = 0; i < 5; i++) await create({ venue: `Paged ${tok} ${i}`, date: `2022-01-0${i + 1} 00:00:00` });

      const first = await http(t).get(`${API}/venues?search=${tok}&per_page=2&has_events=0`);
      expect(Object.keys(first.body)).toEqual(['venues', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      expect(queryOf(first.body.next_rest_url)).toEqual({ page: '2', per_page: '2', search: tok, has_events: '0' });

      const second = await http(t).get(`${API}/venues?search=${tok}&per_page=2&page=2`);
      expect(Object.keys(second.body)).toEqual(['venues', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
      expect(queryOf(second.body.previous_rest_url)).toEqual({ per_page: '2', search: tok });
      expect(queryOf(second.body.next_rest_url)).toEqual({ page: '3', per_page: '2', search: tok });

      const last = await http(t).get(`${API}/venues?search=${tok}&per_page=2&page=3`);
      expect(last.body.venues).toHaveLength(1);
      expect(last.body).not.toHaveProperty('next_rest_url');
      expect(queryOf(last.body.previous_rest_url)).toEqual({ page: '2', per_page: '2', search: tok });
      expect(last.headers['x-tec-totalpages']).toBe('3');

      expectError(await http(t).get(`${API}/venues?search=${tok}&per_page=2&page=4`), 404, 'venue-archive-page-not-found');
      const none = await http(t).get(`${API}/venues?search=nothing${tok}`);
      expect(none.status).toBe(200);
      expect(none.body).toMatchObject({ venues: [], total: 0, total_pages: 0 });
      expect(none.headers['x-tec-total']).toBe('0');
      expectError(await http(t).get(`${API}/venues?search=nothing${tok}&page=2`), 404, 'venue-archive-page-not-found');
    });

    it('clamps per_page to 50 and rejects bad paging values', async () => {
      const res = await http(t).get(`${API}/venues?per_page=500`);
      expect(queryOf(res.body.rest_url).per_page).toBe('50');
      expectInvalidParams(await http(t).get(`${API}/venues?page=0&per_page=foo`), 'page', 'per_page');
    });

    it('searches: one single field must contain every fragment (§5.1.1)', async () => {
      const tok = uid();
      const street = await create({ venue: `Temple ${tok}`, address: `12 temple avenue ${tok}` });
      const split = await create({ venue: `Temple ${tok} split`, city: 'Avenue town' });
      const phone = await create({ venue: `Phoned ${tok}`, phone: '+33-555-0199' });
      const region = await create({ venue: `Region ${tok}`, stateprovince: 'Ile-de-France', zip: 'Z-75' });

      expect(await listIds(`search=${encodeURIComponent(`Temple AVENUE, ${tok}`)}`)).toEqual([street.id]);
      expect((await listIds(`search=${tok}`)).sort()).toEqual([street.id, split.id, phone.id, region.id].sort());
      expect(await listIds(`search=${encodeURIComponent(`555-0199 ${tok}`)}`)).toEqual([]);
      expect(await listIds(`search=555-0199`)).toEqual([phone.id]);
      expect(await listIds(`search=${encodeURIComponent('france, ile de')}`)).toEqual([region.id]);
      expect(await listIds(`search=${encodeURIComponent('50%')}`)).toEqual([]);
      expectInvalidParams(await http(t).get(`${API}/venues?search=`), 'search');
    });

    it('filters by linked event (`event` must be an existing event)', async () => {
      const tok = uid();
      const linked = await create({ venue: `Linked ${tok}` });
      await create({ venue: `Unlinked ${tok}` });
      const draft = await event({ venue: linked.id, status: 'draft' });
      const res = await http(t).get(`${API}/venues?event=${draft.id}`);
      expect(idsOf(res.body.venues)).toEqual([linked.id]);
      expect(queryOf(res.body.rest_url)).toEqual({ page: '1', per_page: '10', event: String(draft.id) });
      expectInvalidParams(await http(t).get(`${API}/venues?event=${linked.id}`), 'event');
      expectInvalidParams(await http(t).get(`${API}/venues?event=999999`), 'event');
      expectInvalidParams(await http(t).get(`${API}/venues?event=foo`), 'event');
    });

    it('has_events and only_with_upcoming are loose flags over live linked events', async () => {
      const tok = uid();
      const withPublished = await create({ venue: `HE ${tok} published` });
      const withFuture = await create({ venue: `HE ${tok} future` });
      const withDraftOnly = await create({ venue: `HE ${tok} draft` });
      const withTrashedOnly = await create({ venue: `HE ${tok} trashed` });
      const withPastOnly = await create({ venue: `HE ${tok} past` });
      const withPrivate = await create({ venue: `HE ${tok} private` });
      const none = await create({ venue: `HE ${tok} none` });
      const upcoming = at('2099-01-01 00:00:00');
      await event({ venue: withPublished.id, status: 'publish', ...upcoming });
      // scheduled: its publication date is ahead (else it counts as published, spec §3 rule 5)
      expect((await event({ venue: withFuture.id, status: 'future', date_utc: '2098-12-31 00:00:00', ...upcoming })).status).toBe('future');
      await event({ venue: withDraftOnly.id, status: 'draft', ...upcoming });
      await trashEvent(t, users.admin.authorization, (await event({ venue: withTrashedOnly.id, status: 'publish', ...upcoming })).id);
      await event({ venue: withPastOnly.id, status: 'publish', ...at('2001-01-01 00:00:00') });
      await event({ venue: withPrivate.id, status: 'private', ...upcoming });

      const linked = sortedIds([withPublished.id, withFuture.id, withPastOnly.id, withPrivate.id]);
      expect(sortedIds(await listIds(`search=${tok}&has_events=true`))).toEqual(linked);
      expect(sortedIds(await listIds(`search=${tok}&has_events=YES`))).toEqual(linked);
      expect(sortedIds(await listIds(`search=${tok}&has_events=no`))).toEqual(sortedIds([withDraftOnly.id, withTrashedOnly.id, none.id]));
      expect(await listIds(`search=${tok}&only_with_upcoming=1`)).toEqual([withPublished.id]);
      expect(sortedIds(await listIds(`search=${tok}&only_with_upcoming=on`, 'editor'))).toEqual(sortedIds([withPublished.id, withPrivate.id]));
      expect((await listIds(`search=${tok}&only_with_upcoming=false`)).length).toBe(7);
    });

    it('applies the status parameter and visibility of auth.md §4', async () => {
      const tok = uid();
      const pub = await create({ venue: `Vis ${tok} pub` });
      const adminDraft = await create({ venue: `Vis ${tok} admin draft`, status: 'draft' });
      const authorDraft = await create({ venue: `Vis ${tok} author draft`, status: 'draft' }, 'author');
      const contribPending = await create({ venue: `Vis ${tok} contrib pending`, status: 'publish' }, 'contributor');
      const trashed = await create({ venue: `Vis ${tok} trashed` });
      await as('admin').delete(`${API}/venues/${trashed.id}`);
      const q = `search=${encodeURIComponent(`Vis ${tok}`)}`;

      expect(await listIds(q)).toEqual([pub.id]);
      expect(await listIds(`${q}&status=publish`)).toEqual([pub.id]);
      expectInvalidParams(await http(t).get(`${API}/venues?${q}&status=draft`), 'status');
      expectInvalidParams(await as('subscriber').get(`${API}/venues?${q}&status=publish,draft`), 'status');
      expect(sortedIds(await listIds(q, 'editor'))).toEqual(sortedIds([pub.id, adminDraft.id, authorDraft.id, contribPending.id]));
      expect(sortedIds(await listIds(q, 'author'))).toEqual(sortedIds([pub.id, authorDraft.id]));
      expect(sortedIds(await listIds(q, 'contributor'))).toEqual(sortedIds([pub.id, contribPending.id]));
      expect(await listIds(`${q}&status=draft`, 'author')).toEqual([authorDraft.id]);
      expect(await listIds(`${q}&status=trash`, 'editor')).toEqual([trashed.id]);
      expect(sortedIds(await listIds(`${q}&status[]=draft&status[]=pending`, 'admin'))).toEqual(sortedIds([adminDraft.id, authorDraft.id, contribPending.id]));
      expectInvalidParams(await as('editor').get(`${API}/venues?${q}&status=foo, bar, publish`), 'status');
      const res = await as('editor').get(`${API}/venues?${q}&status=draft,%20pending`);
      expect(queryOf(res.body.rest_url)).toMatchObject({ status: 'draft, pending' });
    });
  });

  describe('services for the events module', () => {
    const reads = () => t.app.get<LinkedItemReads<VenueEntity>>(VENUE_TOKENS.reads);
    const writes = () => t.app.get<LinkedItemWrites<VenueEntity>>(VENUE_TOKENS.writes);
    const actor = (role: Role, realRole: 'administrator' | 'contributor' = 'administrator') => ({ id: users[role].id, login: role, role: realRole });

    // As event writes do: every check before the transaction (prepareCreate), the write inside it (createPrepared).
    const createNested = async (who: ReturnType<typeof actor>, input: Record<string, unknown>, nested = true) => {
      const prepared = await writes().prepareCreate(who, input, nested, OUTER);
      return t.app.get(UnitOfWork).run((tx, changes) => writes().createPrepared(who, prepared, tx, changes));
    };

    it('prepareCreate + createPrepared create inside the caller transaction, with status scaling, and reuse duplicates', async () => {
      const tok = uid();
      const contributor = actor('contributor', 'contributor');
      const created = await createNested(contributor, { venue: `Nested ${tok}`, city: 'Bern', status: 'publish', id: 5 });
      expect(created.reused).toBe(false);
      expect(created.entity).toMatchObject({ name: `Nested ${tok}`, city: 'Bern', status: 'pending', authorId: users.contributor.id });
      const again = await createNested(contributor, { venue: `nested ${tok}`, city: 'Basel' });
      expect(again).toMatchObject({ reused: true, entity: { id: created.entity.id, city: 'Basel' } });
    });

    it('prepareCreate reports every invalid nested item as the `venue` parameter', async () => {
      for (const input of [{ city: 'No name' }, { venue: '' }, { venue: 'X', website: 'foo' }, { venue: 'X', author: 999999 }, { venue: 'X', date: 'foo' }]) {
        await expect(createNested(actor('admin'), input)).rejects.toMatchObject({
          code: 'rest_invalid_param',
          status: 400,
          data: { params: { venue: 'The linked venue or organizer data is not valid.' } },
        });
      }
      await expect(createNested(actor('admin'), { city: 'x' }, false)).rejects.toMatchObject({
        code: 'rest_missing_callback_param',
        data: { params: ['venue'] },
      });
    });

    it('existingIds and embed answer by id, whatever the status', async () => {
      const tok = uid();
      const pub = await create({ venue: `Emb ${tok}`, city: 'Gent' });
      const draft = await create({ venue: `Emb draft ${tok}`, status: 'draft' });
      const eventId = (await event()).id;
      expect(await reads().existingIds([pub.id, draft.id, eventId, 999999])).toEqual(new Set([pub.id, draft.id]));

      const plain = await reads().embed([pub.id, draft.id], { jsonLd: false });
      expect(plain.get(pub.id)).toStrictEqual(await read(pub.id).then(({ json_ld: _ld, ...rest }) => rest));
      expect(plain.get(draft.id)).toMatchObject({ status: 'draft' });
      const withLd = await reads().embed([pub.id, draft.id], { jsonLd: true, actor: null });
      expect(withLd.get(pub.id)?.json_ld).toMatchObject({ '@type': 'Place', address: { addressLocality: 'Gent' } });
      expect(withLd.get(draft.id)).not.toHaveProperty('json_ld');
      expect((await reads().embed([draft.id], { jsonLd: true })).get(draft.id)).toHaveProperty('json_ld');
    });
  });
});
