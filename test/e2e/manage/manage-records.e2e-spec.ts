// The venue, organizer, category and tag pages (editing.md §2, §6, §7): each change made in a
// form is the change the API makes (the record the API then answers), errors come back with the
// values kept, a save over a newer version is refused with both shown, and each role sees and may
// do what auth.md §2 gives it. Forms are sent as a browser sends them (manage-records.ts).
import { API, http } from '../../support/http';
import { type Caller, createCategory, createEvent, createOrganizer, createTag, createVenue, makeUsers, readTerm, trashEvent, uid } from '../../support/api';
import { EditorPages, inputValue, plain, tableRows, textOf } from '../../support/manage-records';
import { createTestApp, type TestApp } from '../../support/test-app';

type Users = Awaited<ReturnType<typeof makeUsers>>;

/** Every field of the venue form, empty or off, as a browser sends an untouched new form. */
const BLANK_VENUE = {
  venue: '',
  description: '',
  address: '',
  city: '',
  country: '',
  province: '',
  state: '',
  stateprovince: '',
  zip: '',
  phone: '',
  website: '',
  image: '',
  slug: '',
  status: 'publish',
  date: '',
};

describe('editing pages: venues, organizers, categories, tags', () => {
  let t: TestApp;
  let users: Users;
  const signedIn = new Map<string, EditorPages>();
  const as = async (caller: Caller) => {
    const known = signedIn.get(caller.authorization);
    if (known) return known;
    const pages = await EditorPages.signIn(t, caller.authorization);
    signedIn.set(caller.authorization, pages);
    return pages;
  };
  const api = (caller: Caller = users.admin) => http(t, caller.authorization);

  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
  }, 60_000);
  afterAll(async () => t?.close());

  /** The id in a redirect to a record's form (`/manage/venues/12/?saved=1`). */
  const idIn = (location: string | undefined, collection: string) => Number(new RegExp(`/manage/${collection}/(\\d+)/`).exec(location ?? '')?.[1]);

  /** The form of a record as the page shows it: every input's value by name. */
  async function formOf(pages: EditorPages, path: string): Promise<{ html: string; value: (name: string) => string | undefined }> {
    const page = await pages.get(path);
    expect(page.status).toBe(200);
    return { html: page.html, value: (name) => inputValue(page.html, name) };
  }

  /** The form's fields as they are sent back unchanged, with `changes` over them (checkboxes: '1' when on, left out when off). */
  function resend(html: string, changes: Record<string, string | null>): Record<string, string | null> {
    const fields: Record<string, string | null> = {};
    for (const m of html.matchAll(/<input[^>]*>/g)) {
      const name = /\bname="([^"]+)"/.exec(m[0])?.[1];
      if (!name || name === '_csrf' || (/type="(search|hidden)"/.test(m[0]) && name !== '_version')) continue;
      if (/type="checkbox"/.test(m[0])) {
        if (/\bchecked\b/.test(m[0])) fields[name] = '1';
        continue;
      }
      fields[name] = inputValue(m[0], name) ?? '';
    }
    for (const m of html.matchAll(/<textarea[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/textarea>/g)) fields[m[1]] = plainValue(m[2]);
    for (const m of html.matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
      fields[m[1]] = /<option value="([^"]*)" selected>/.exec(m[2])?.[1] ?? /<option value="([^"]*)"/.exec(m[2])?.[1] ?? '';
    }
    return { ...fields, ...changes };
  }

  describe('venues and organizers', () => {
    it('a venue made in the form is the venue the API answers, with every field; the form shows it back', async () => {
      const editor = await as(users.editor);
      const name = `Hall ${uid()}`;
      const res = await editor.post('/manage/venues/new', {
        ...BLANK_VENUE,
        venue: name,
        description: 'Big <b>hall</b>',
        address: '1 Main St',
        city: 'Lyon',
        country: 'France',
        province: 'Rhône',
        stateprovince: 'ARA',
        zip: '69001',
        phone: '+33 1',
        website: 'https://hall.example/',
        show_map: '1',
        status: 'draft',
      });
      expect(res.status).toBe(303);
      const id = idIn(res.location, 'venues');
      expect(id).toBeGreaterThan(0);
      const stored = (await api().get(`${API}/venues/${id}`)).body;
      expect(stored).toMatchObject({
        id,
        venue: name,
        address: '1 Main St',
        city: 'Lyon',
        country: 'France',
        province: 'Rhône',
        stateprovince: 'ARA',
        zip: '69001',
        phone: '+33 1',
        website: 'https://hall.example/',
        show_map: true,
        show_map_link: false,
        status: 'draft',
        author: String(users.editor.id),
      });
      const form = await formOf(editor, res.location as string);
      expect(plain(form.html)).toContain('Saved.');
      expect(form.value('venue')).toBe(name);
      expect(form.value('city')).toBe('Lyon');
      for (const label of ['Venue name', 'Address', 'City', 'Country', 'Status']) expect(form.html).toMatch(new RegExp(`<label for="[^"]+">${label}</label>`));
    });

    it('editing changes what was changed and keeps the rest; the stored venue is what the API answers', async () => {
      const editor = await as(users.editor);
      const venue = await createVenue(t, users.admin.authorization, { venue: `Barn ${uid()}`, city: 'Oslo', zip: '0150', show_map: false, status: 'publish' });
      const path = `/manage/venues/${venue.id}/`;
      const form = await formOf(editor, path);
      expect(form.value('city')).toBe('Oslo');
      const res = await editor.post(path, resend(form.html, { city: 'Bergen', phone: '55 55' }), path);
      expect(res.status).toBe(303);
      expect(res.location).toBe(`${path}?saved=1`);
      const stored = (await api().get(`${API}/venues/${venue.id}`)).body;
      expect(stored).toMatchObject({
        city: 'Bergen',
        phone: '55 55',
        zip: '0150',
        show_map: false,
        status: 'publish',
        slug: venue.slug,
        author: String(users.admin.id),
      });
      expect(stored.date).toBe(venue.date);
    });

    it('a publication date ahead schedules the venue, as the API does; an untouched save keeps that date', async () => {
      const editor = await as(users.editor);
      const venue = await createVenue(t, users.admin.authorization, { venue: `Dome ${uid()}` });
      const path = `/manage/venues/${venue.id}/`;
      const form = await formOf(editor, path);
      expect(form.value('date')).toBe(String(venue.date).replace(' ', 'T'));
      expect((await editor.post(path, resend(form.html, { date: '2031-01-02T03:04:05' }), path)).status).toBe(303);
      expect((await api().get(`${API}/venues/${venue.id}`)).body).toMatchObject({ date: '2031-01-02 03:04:05', status: 'future' });
      const again = await formOf(editor, path);
      expect(again.html).toMatch(/<option value="future" selected>Scheduled<\/option>/);
      expect((await editor.post(path, resend(again.html, { phone: '1' }), path)).status).toBe(303);
      expect((await api().get(`${API}/venues/${venue.id}`)).body).toMatchObject({ date: '2031-01-02 03:04:05', status: 'future', phone: '1' });
    });

    it('a form with problems comes back with every value kept, a summary and each message beside its field', async () => {
      const editor = await as(users.editor);
      const res = await editor.post('/manage/venues/new', { ...BLANK_VENUE, venue: '   ', city: 'Kept city', website: 'not a url' }, '/manage/venues/new');
      expect(res.status).toBe(400);
      expect(res.html).toMatch(/role="alert"/);
      expect(textOf(res.html, 'error-summary')).toMatch(/Venue name: Must be a non-empty text value/);
      expect(res.html).toMatch(
        /<input id="f-website"[^>]*aria-describedby="f-website-help f-website-error|<input id="f-website"[^>]*aria-describedby="f-website-error f-website-help/,
      );
      expect(textOf(res.html, 'f-website-error')).toBe('Must be an absolute URL.');
      expect(res.html).toMatch(/<input id="f-venue"[^>]*aria-describedby="f-venue-error"/);
      expect(inputValue(res.html, 'city')).toBe('Kept city');
      expect(inputValue(res.html, 'website')).toBe('not a url');
      // Nothing was written.
      const listed = (await api().get(`${API}/venues?search=${encodeURIComponent('Kept city')}`)).body;
      expect(listed.venues).toEqual([]);
    });

    it('each row counts the events using it (the trash left out), and the list searches and pages', async () => {
      const editor = await as(users.editor);
      const token = uid('pg');
      const venues = [];
      for (let i = 0; i < 23; i++) venues.push(await createVenue(t, users.admin.authorization, { venue: `Place ${token} ${i}`, city: 'Rome' }));
      const used = venues[22]; // the newest: first in list order (publication date descending, then id)
      await createEvent(t, users.admin.authorization, { venue: used.id });
      await createEvent(t, users.author.authorization, { venue: used.id, status: 'draft' });
      const trashed = await createEvent(t, users.admin.authorization, { venue: used.id });
      await trashEvent(t, users.admin.authorization, trashed.id);

      const first = await editor.get(`/manage/venues/?search=${token}`);
      expect(first.status).toBe(200);
      const rows = tableRows(first.html);
      expect(rows).toHaveLength(20);
      expect(rows[0].id).toBe(used.id);
      expect(rows[0].cells.at(-1)).toBe('2');
      expect(rows[1].cells.at(-1)).toBe('0');
      expect(plain(first.html)).toContain('23 venues, page 1 of 2');
      const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(first.html)?.[1].replace(/&amp;/g, '&');
      expect(next).toBe(`/manage/venues/?search=${token}&page=2`);
      const second = await editor.get(next as string);
      expect(tableRows(second.html).map((r) => r.id)).toEqual([venues[2].id, venues[1].id, venues[0].id]);
      // A search nothing matches is an empty list, not an error.
      const none = await editor.get(`/manage/venues/?search=${token}zzz`);
      expect(none.status).toBe(200);
      expect(tableRows(none.html)).toEqual([]);
    });

    it('status tabs list each status; trash and restore go through the API and bring the slug back', async () => {
      const editor = await as(users.editor);
      const token = uid('tb');
      const draft = await createVenue(t, users.admin.authorization, { venue: `Draft ${token}`, status: 'draft' });
      const live = await createVenue(t, users.admin.authorization, { venue: `Live ${token}`, status: 'publish' });
      const idsOf = async (status: string) => tableRows((await editor.get(`/manage/venues/?search=${token}&status=${status}`)).html).map((r) => r.id);
      expect(await idsOf('draft')).toEqual([draft.id]);
      expect(await idsOf('publish')).toEqual([live.id]);

      const path = `/manage/venues/${live.id}/`;
      const form = await formOf(editor, path);
      expect(form.html).toMatch(/<button[^>]*>Move to trash<\/button>/);
      const trash = await editor.post(`${path}trash`, { _version: form.value('_version') ?? '' }, path);
      expect(trash.status).toBe(303);
      const trashedNow = (await api().get(`${API}/venues/${live.id}`)).body;
      expect(trashedNow).toMatchObject({ status: 'trash', slug: `${live.slug}__trashed` });
      expect(await idsOf('trash')).toEqual([live.id]);
      expect(await idsOf('all')).toEqual([draft.id]);

      const trashedForm = await formOf(editor, path);
      expect(trashedForm.html).toMatch(/<button type="submit">Restore<\/button>/);
      expect(trashedForm.html).not.toMatch(/Move to trash<\/button>/);
      const restore = await editor.post(`${path}restore`, { _version: trashedForm.value('_version') ?? '' }, path);
      expect(restore.status).toBe(303);
      expect((await api().get(`${API}/venues/${live.id}`)).body).toMatchObject({ status: 'publish', slug: live.slug });
    });

    it('saving over a newer version is refused with both shown; saving again from there writes the user’s values', async () => {
      const editor = await as(users.editor);
      const venue = await createVenue(t, users.admin.authorization, { venue: `Mill ${uid()}`, city: 'Gent' });
      const path = `/manage/venues/${venue.id}/`;
      const opened = await formOf(editor, path);
      // Someone else saves in between, through the API.
      const other = await api(users.admin).patch(`${API}/venues/${venue.id}`).send({ city: 'Brugge' });
      expect(other.status).toBe(200);

      const refused = await editor.post(path, resend(opened.html, { city: 'Antwerpen' }), path);
      expect(refused.status).toBe(409);
      expect(textOf(refused.html, 'conflict')).toMatch(/City Brugge Antwerpen/);
      expect(inputValue(refused.html, 'city')).toBe('Antwerpen');
      expect((await api().get(`${API}/venues/${venue.id}`)).body.city).toBe('Brugge');
      const newer = inputValue(refused.html, '_version');
      expect(newer).not.toBe(opened.value('_version'));

      const again = await editor.post(path, resend(refused.html, {}), path);
      expect(again.status).toBe(303);
      expect((await api().get(`${API}/venues/${venue.id}`)).body.city).toBe('Antwerpen');
    });

    it('an organizer made and edited in the form is the organizer the API answers', async () => {
      const editor = await as(users.editor);
      const name = `Crew ${uid()}`;
      const created = await editor.post('/manage/organizers/new', {
        organizer: name,
        description: '',
        phone: '123',
        website: 'https://crew.example/',
        email: 'crew@example.org',
        image: '',
        slug: '',
        status: 'publish',
        date: '',
      });
      expect(created.status).toBe(303);
      const id = idIn(created.location, 'organizers');
      const path = `/manage/organizers/${id}/`;
      const form = await formOf(editor, path);
      expect(form.value('email')).toBe('crew@example.org');
      expect((await editor.post(path, resend(form.html, { phone: '456', organizer: `${name} two` }), path)).status).toBe(303);
      const answer = (await api().get(`${API}/organizers/${id}`)).body;
      expect(answer).toMatchObject({
        id,
        organizer: `${name} two`,
        phone: '456',
        website: 'https://crew.example/',
        email: 'crew@example.org',
        status: 'publish',
      });

      const event = await createEvent(t, users.admin.authorization, { organizer: [id] });
      expect(event.organizer.map((o) => o.id)).toEqual([id]);
      const list = await editor.get(`/manage/organizers/?search=${encodeURIComponent(`${name} two`)}`);
      expect(tableRows(list.html)).toEqual([expect.objectContaining({ id, cells: expect.arrayContaining([`${name} two`, '1']) })]);
    });

    it('a contributor’s venue waits for review; a subscriber has no venue pages', async () => {
      const contributor = await as(users.contributor);
      const form = await formOf(contributor, '/manage/venues/new');
      expect(form.html).not.toMatch(/<option value="publish"/);
      const res = await contributor.post('/manage/venues/new', { ...BLANK_VENUE, venue: `Shed ${uid()}`, status: 'publish' }, '/manage/venues/new');
      expect(res.status).toBe(303);
      const stored = (await api().get(`${API}/venues/${idIn(res.location, 'venues')}`)).body;
      expect(stored).toMatchObject({ status: 'pending', author: String(users.contributor.id) });

      // Another's published venue: shown, but with no way to change it.
      const theirs = await createVenue(t, users.admin.authorization, { venue: `Tower ${uid()}` });
      const view = await formOf(contributor, `/manage/venues/${theirs.id}/`);
      expect(view.html).toContain('may not change this venue');
      expect(view.html).not.toMatch(/>Save<\/button>/);
      const refused = await contributor.post(
        `/manage/venues/${theirs.id}/`,
        { ...BLANK_VENUE, venue: 'Taken', _version: view.value('_version') ?? '' },
        `/manage/venues/${theirs.id}/`,
      );
      expect(refused.status).toBe(403);
      expect((await api().get(`${API}/venues/${theirs.id}`)).body.venue).toBe(theirs.venue);

      const subscriber = await EditorPages.signIn(t, users.subscriber.authorization);
      expect((await subscriber.get('/manage/venues/')).status).toBe(403);
      expect((await subscriber.get('/manage/organizers/new')).status).toBe(403);
    });
  });

  describe('categories and tags', () => {
    it('categories: add under a parent (an indented tree with counts), rename, move to the top, delete after a confirmation', async () => {
      const author = await as(users.author);
      const token = uid('ct');
      const add = (fields: Record<string, string>) =>
        author.post('/manage/categories/', { slug: '', description: '', parent: '0', ...fields }, '/manage/categories/');
      const parentRes = await add({ name: `Music ${token}` });
      expect(parentRes.status).toBe(303);
      const parentId = Number(/added=(\d+)/.exec(parentRes.location ?? '')?.[1]);
      expect((await readTerm(t, 'categories', parentId)).name).toBe(`Music ${token}`);
      const childRes = await add({ name: `Jazz ${token}`, parent: String(parentId), description: 'Swing' });
      const childId = Number(/added=(\d+)/.exec(childRes.location ?? '')?.[1]);
      expect(await readTerm(t, 'categories', childId)).toMatchObject({ parent: parentId, description: 'Swing' });
      await createEvent(t, users.admin.authorization, { categories: [childId] });

      const list = await author.get('/manage/categories/');
      const rows = tableRows(list.html);
      const at = rows.findIndex((r) => r.id === parentId);
      expect(rows[at + 1]).toEqual({ id: childId, cells: expect.arrayContaining([`— Jazz ${token}`, '1']) });
      expect(list.html).toMatch(new RegExp(`<tr data-id="${childId}" data-depth="1">`));

      // Rename and move to the top level in one save.
      const path = `/manage/categories/${childId}/`;
      const form = await formOf(author, path);
      const saved = await author.post(path, resend(form.html, { name: `Blues ${token}`, parent: '0' }), path);
      expect(saved.status).toBe(303);
      expect(await readTerm(t, 'categories', childId)).toMatchObject({ name: `Blues ${token}`, parent: 0, description: 'Swing' });

      // A name taken at that level: the message beside Name, values kept.
      const taken = await author.post(path, resend((await author.get(path)).html, { name: `Music ${token}` }), path);
      expect(taken.status).toBe(400);
      expect(textOf(taken.html, 'edit-name-error')).toMatch(/already has this name/);
      expect(inputValue(taken.html, 'name')).toBe(`Music ${token}`);

      // Delete: a confirmation page first (no script), then the post.
      const confirm = await author.get(`/manage/categories/${parentId}/delete`);
      expect(confirm.status).toBe(200);
      expect(confirm.html).toMatch(/<button type="submit" class="danger">Delete<\/button>/);
      expect((await readTerm(t, 'categories', parentId)).id).toBe(parentId);
      const deleted = await author.post(
        `/manage/categories/${parentId}/delete`,
        { _version: inputValue(confirm.html, '_version') ?? '' },
        `/manage/categories/${parentId}/delete`,
      );
      expect(deleted.status).toBe(303);
      expect((await http(t).get(`${API}/categories/${parentId}`)).status).toBe(400);
    });

    it('tags: add, rename, delete; paged when many; an author sees no controls and is refused (403)', async () => {
      const editor = await as(users.editor);
      const token = uid('tg');
      const res = await editor.post('/manage/tags/', { name: `Free ${token}`, slug: '', description: '' }, '/manage/tags/');
      expect(res.status).toBe(303);
      const id = Number(/added=(\d+)/.exec(res.location ?? '')?.[1]);
      expect(await readTerm(t, 'tags', id)).toMatchObject({ name: `Free ${token}`, slug: `free-${token}` });
      const path = `/manage/tags/${id}/`;
      const renamed = await editor.post(path, resend((await editor.get(path)).html, { name: `Gratis ${token}`, slug: `gratis-${token}` }), path);
      expect(renamed.status).toBe(303);
      expect(await readTerm(t, 'tags', id)).toMatchObject({ name: `Gratis ${token}`, slug: `gratis-${token}` });

      for (let i = 0; i < 51; i++) await createTag(t, users.admin.authorization, { name: `Many ${token} ${String(i).padStart(2, '0')}` });
      const first = await editor.get(`/manage/tags/?search=${token}`);
      expect(tableRows(first.html)).toHaveLength(50);
      expect(first.html).toContain(`href="/manage/tags/?search=${token}&amp;page=2" rel="next"`);
      const second = await editor.get(`/manage/tags/?search=${token}&page=2`);
      // Name order: "Gratis …" first, so the last two of the 52 are on page 2.
      expect(tableRows(second.html).map((r) => r.cells[0])).toEqual([`Many ${token} 49`, `Many ${token} 50`]);

      const author = await as(users.author);
      const authorList = await author.get(`/manage/tags/?search=${token}`);
      expect(authorList.status).toBe(200);
      expect(tableRows(authorList.html).length).toBe(50);
      expect(authorList.html).not.toMatch(/>Add<\/button>|>Edit<|>Delete</);
      const refusedAdd = await author.post('/manage/tags/', { name: `Nope ${token}` }, '/manage/tags/');
      expect(refusedAdd.status).toBe(403);
      expect(plain(refusedAdd.html)).toContain('may not add, rename or delete tags');
      expect((await author.post(path, { name: 'Hijack' }, '/manage/tags/')).status).toBe(403);
      expect((await author.post(`${path}delete`, {}, '/manage/tags/')).status).toBe(403);
      expect((await readTerm(t, 'tags', id)).name).toBe(`Gratis ${token}`);

      const confirm = await editor.get(`${path}delete`);
      const deleted = await editor.post(`${path}delete`, { _version: inputValue(confirm.html, '_version') ?? '' }, `${path}delete`);
      expect(deleted.status).toBe(303);
      expect((await http(t).get(`${API}/tags/${id}`)).status).toBe(400);
    });

    it('a contributor can change no category: no controls, and a post is refused with a 403 page', async () => {
      const category = await createCategory(t, users.admin.authorization, { name: `Art ${uid()}` });
      const contributor = await as(users.contributor);
      const list = await contributor.get('/manage/categories/');
      expect(list.status).toBe(200);
      expect(list.html).not.toMatch(/>Add<\/button>|id="add-form"/);
      const refused = await contributor.post('/manage/categories/', { name: 'Sneaky', parent: '0' }, '/manage/categories/');
      expect(refused.status).toBe(403);
      expect((await contributor.get(`/manage/categories/${category.id}/`)).status).toBe(403);
      const rename = await contributor.post(`/manage/categories/${category.id}/`, { name: 'Renamed' }, '/manage/categories/');
      expect(rename.status).toBe(403);
      expect((await readTerm(t, 'categories', category.id)).name).toBe(category.name);
    });
  });

  it('venue and organizer pages refuse a post without the page’s form token', async () => {
    const editor = await as(users.editor);
    const organizer = await createOrganizer(t, users.admin.authorization, { organizer: `Guard ${uid()}` });
    const res = await editor.post(`/manage/organizers/${organizer.id}/trash`, { _csrf: 'forged' }, `/manage/organizers/${organizer.id}/`);
    expect(res.status).toBe(403);
    expect((await api().get(`${API}/organizers/${organizer.id}`)).body.status).toBe('publish');
  });
});

describe('editing pages: venue coordinates with the geo extension on', () => {
  let t: TestApp;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_GEO: 'on' });
    admin = await t.userHeader('geoadmin', 'administrator');
  }, 60_000);
  afterAll(async () => t?.close());

  it('the venue form has Latitude and Longitude, saved as the API saves geo_lat/geo_lng, with the API’s message beside a bad one', async () => {
    const pages = await EditorPages.signIn(t, admin.authorization);
    const form = await pages.get('/manage/venues/new');
    expect(form.html).toMatch(/<label for="f-geo_lat">Latitude<\/label>/);
    expect(form.html).toMatch(/<label for="f-geo_lng">Longitude<\/label>/);
    const bad = await pages.post('/manage/venues/new', { ...BLANK_VENUE, venue: `Peak ${uid()}`, geo_lat: '95', geo_lng: '7.5' }, '/manage/venues/new');
    expect(bad.status).toBe(400);
    expect(textOf(bad.html, 'f-geo_lat-error')).toMatch(/between -90 and 90/);
    expect(inputValue(bad.html, 'geo_lat')).toBe('95');
    const good = await pages.post('/manage/venues/new', { ...BLANK_VENUE, venue: `Peak ${uid()}`, geo_lat: '45.5', geo_lng: '7.25' }, '/manage/venues/new');
    expect(good.status).toBe(303);
    const id = Number(/\/manage\/venues\/(\d+)\//.exec(good.location ?? '')?.[1]);
    expect((await http(t, admin.authorization).get(`${API}/venues/${id}`)).body).toMatchObject({ geo_lat: 45.5, geo_lng: 7.25 });
    expect(inputValue((await pages.get(`/manage/venues/${id}/`)).html, 'geo_lng')).toBe('7.25');
  });
});

/** A textarea's content as a browser sends it back (entities decoded). */
function plainValue(html: string): string {
  return html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
