// The public submission form (editing.md §4, §7, §8): its fields by their labels, a submission
// as a pending event written by the configured author through the API's write path (its new
// venue and organizer pending too, in the change feed and webhooks of those who may read it),
// published venues and organizers and existing categories only, a form that fails keeping its
// values, a signed-in user's own list, and the settings that decide who writes and who may send.
import { FEATURES } from '../../../src/features';
import { CAPACITY_FEATURE } from '../../../extensions/capacity/capacity.feature';
import { changePages } from '../../support/changes';
import { API, http } from '../../support/http';
import { alertText, control, textOf } from '../../support/manage';
import { fastifyOf, signedIn } from '../../support/sign-in';
import { countRows, selectRows, tableRows } from '../../support/sql';
import { ADD, LIST, NEXT_YEAR_DAY, openForm, sendForm, submission, THANKS } from '../../support/submissions';
import { createTestApp, EXTENSIONS_OFF, type TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;

const ON = { ...EXTENSIONS_OFF, CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_TIMEZONE: 'Europe/Paris' };

/** The pending events an administrator reads, by title. */
async function pendingByTitle(t: TestApp, authorization: string, title: string): Promise<Json[]> {
  const res = await http(t, authorization).get(`${API}/events?status=pending&per_page=50&search=${encodeURIComponent(title)}`);
  if (res.status === 404) return [];
  expect(res.status).toBe(200);
  return (res.body.events as Json[]).filter((e) => e.title === title);
}

/** Every stored row but the editing sessions (a page view may push a session's expiry forward). */
const stored = (t: TestApp) => tableRows(t, new Set(['sessions']));

describe('the submission form (editing.md §4, §7)', () => {
  let t: TestApp;
  let admin: { id: number; authorization: string };

  beforeAll(async () => {
    t = await createTestApp({ ...ON, CALENDAR_WEBHOOK_ALLOW_PRIVATE: 'on', CALENDAR_WEBHOOK_WORKER: 'off' });
    admin = await t.userHeader('ada', 'administrator');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the fields of editing.md §7 by their labels, the hidden field out of reach, and the editing pages’ headers', async () => {
    const res = await fastifyOf(t).inject({ method: 'GET', url: ADD });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    for (const label of [
      'Title',
      'Description',
      'Start date',
      'Start time',
      'End date',
      'End time',
      'All day',
      'Time zone',
      'No venue',
      'New venue',
      'Venue name',
      'Address',
      'City',
      'Country',
      'New organizer',
      'Organizer name',
      'Website',
      'Cost',
      'Image URL',
      'Your name',
      'Your e-mail',
    ]) {
      expect(control(html, label).id).not.toBe('');
    }
    for (const legend of ['Venue', 'Organizers', 'Categories']) expect(html).toContain(`<legend>${legend}</legend>`);
    expect(html).toMatch(/<button type="submit" name="action" value="submit">Submit event<\/button>/);
    expect(control(html, 'Start date').id).toBe('start_date');
    expect(html).toMatch(/<input id="start_date" name="start_date" type="date"/);
    expect(html).toMatch(/<input id="start_time" name="start_time" type="time"/);
    // The field only programs fill in: hidden from assistive technology, out of the tab order.
    expect(html).toMatch(
      /<div class="hp" aria-hidden="true">\s*<label for="extra_info">[^<]+<\/label>\s*<input id="extra_info" name="extra_info" type="text" value="" tabindex="-1" autocomplete="off">/,
    );
    expect(html).toMatch(/name="stamp" value="\d+\.[A-Za-z0-9_-]{43}"/);
    // The public site's look: its stylesheet, header and views.
    expect(html).toMatch(/<link rel="stylesheet" href="http:\/\/127\.0\.0\.1:3000\/assets\/calendar\.[0-9a-f]{10}\.css">/);
    expect(html).toContain('<header class="site-header">');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    const cookie = res.cookies.find((c) => c.name === 'calendar_submission');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // The stylesheet it names is served.
    const css = /href="(\/events\/community\/assets\/submissions\.[0-9a-f]{10}\.css)"/.exec(html)?.[1] as string;
    const sheet = await fastifyOf(t).inject({ method: 'GET', url: css });
    expect([sheet.statusCode, sheet.headers['content-type']]).toEqual([200, 'text/css; charset=UTF-8']);
  });

  it('writes a pending event by the first administrator, its new venue and organizer pending, into the feed and webhooks of those who may read it', async () => {
    const hook = await http(t, admin.authorization)
      .post(`${API}/webhooks`)
      .send({ url: 'http://127.0.0.1:9/receive', events: ['*'] });
    expect(hook.status).toBe(201);
    const category = await http(t, admin.authorization).post(`${API}/categories`).send({ name: 'Concerts' });
    expect(category.status).toBe(201);
    const form = await openForm(t);
    expect(form.html).toContain(`<label for="category-${category.body.id}">Concerts</label>`);
    const res = await sendForm(
      t,
      form,
      submission({
        title: 'River jazz night',
        description: 'Bring a chair.\nTickets: https://tickets.example.org/jazz.\n\nNo <b>markup</b> here',
        venue: 'new',
        new_venue: { venue: 'Quay Stage', address: '1 Quay Road', city: 'Lyon', country: 'France' },
        organizers: ['new'],
        new_organizer: { organizer: 'Quay Jazz Club', email: 'club@example.org' },
        categories: [String(category.body.id)],
        cost: '12',
        website: 'https://example.org/river-jazz',
      }),
    );
    expect([res.statusCode, res.headers.location]).toEqual([303, THANKS]);
    const thanks = await fastifyOf(t).inject({ method: 'GET', url: THANKS });
    expect(thanks.statusCode).toBe(200);
    expect(textOf(thanks.body)).toContain('Thank you');

    const [event] = await pendingByTitle(t, admin.authorization, 'River jazz night');
    expect(event).toMatchObject({
      status: 'pending',
      author: String(admin.id),
      start_date: `${NEXT_YEAR_DAY} 19:00:00`,
      end_date: `${NEXT_YEAR_DAY} 22:00:00`,
      timezone: 'Europe/Paris',
      cost: '12',
      website: 'https://example.org/river-jazz',
    });
    expect(event.venue).toMatchObject({ venue: 'Quay Stage', address: '1 Quay Road', city: 'Lyon', country: 'France', status: 'pending' });
    expect(event.organizer).toMatchObject([{ organizer: 'Quay Jazz Club', email: 'club@example.org', status: 'pending' }]);
    expect((event.categories as Json[]).map((c) => c.id)).toEqual([category.body.id]);
    // Plain text with line breaks, links allowed; nothing typed becomes markup.
    expect(event.description).toBe(
      '<p>Bring a chair.<br />\nTickets: <a href="https://tickets.example.org/jazz" rel="nofollow ugc">https://tickets.example.org/jazz</a>.</p>\n<p>No &lt;b>markup&lt;/b> here</p>',
    );
    const id = event.id as number;

    // Nobody else reads it: not anonymous, not the venue's public page either.
    expect((await http(t).get(`${API}/events/${id}`)).status).not.toBe(200);
    expect((await http(t).get(`${API}/venues/${(event.venue as Json).id as number}`)).status).not.toBe(200);
    // The change feed: the administrator's has it, the anonymous one does not.
    const feed = async (authorization?: string) => {
      const seen: number[] = [];
      for await (const page of changePages(t, undefined, authorization)) for (const c of page.changes) if (c.type === 'event') seen.push(c.id);
      return seen;
    };
    expect(await feed(admin.authorization)).toContain(id);
    expect(await feed()).not.toContain(id);
    // A webhook delivery is queued for it.
    expect(await countRows(t, 'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE item_id = ?', [id])).toBeGreaterThan(0);
    // Who sent it is kept beside it.
    expect(await selectRows(t, 'SELECT submitter_name, submitter_email, user_id FROM event_submissions WHERE event_id = ?', [id])).toEqual([
      { submitter_name: 'Ada Submitter', submitter_email: 'ada.submitter@example.org', user_id: null },
    ]);
  });

  it('offers published venues and organizers by a search on the server, links them, and refuses one that is not published', async () => {
    const hall = await http(t, admin.authorization).post(`${API}/venues`).send({ venue: 'Harbour Hall', city: 'Brest', status: 'publish' });
    const secret = await http(t, admin.authorization).post(`${API}/venues`).send({ venue: 'Harbour Backroom', city: 'Brest', status: 'draft' });
    const friends = await http(t, admin.authorization).post(`${API}/organizers`).send({ organizer: 'Harbour Friends', status: 'publish' });
    const hidden = await http(t, admin.authorization).post(`${API}/organizers`).send({ organizer: 'Harbour Insiders', status: 'draft' });
    for (const r of [hall, secret, friends, hidden]) expect(r.status).toBe(201);
    const form = await openForm(t);
    // Nothing is listed before a search: the form never loads the whole table.
    expect(form.html).not.toContain('Harbour Hall');

    const found = await sendForm(t, form, submission({ title: 'Harbour songs', venue_search: 'harbour', organizer_search: 'harbour', action: 'venues_find' }));
    expect(found.statusCode).toBe(200);
    expect(found.body).toContain(`<label for="venue-${hall.body.id}">Harbour Hall (Brest)</label>`);
    expect(found.body).toContain(`<label for="organizer-${friends.body.id}">Harbour Friends</label>`);
    expect(found.body).not.toContain('Harbour Backroom');
    expect(found.body).not.toContain('Harbour Insiders');
    expect(control(found.body, 'Title').value).toBe('Harbour songs');

    const before = await stored(t);
    for (const refusedLinks of [{ venue: String(secret.body.id) }, { organizers: [String(hidden.body.id)] }, { categories: ['999999'] }]) {
      const refused = await sendForm(t, form, submission({ title: 'Harbour songs', ...refusedLinks }));
      expect(refused.statusCode).toBe(400);
      expect(alertText(refused.body)).toMatch(/Choose (a venue|organizers|categories) from the list/);
    }
    expect(await stored(t)).toEqual(before);

    const res = await sendForm(t, form, submission({ title: 'Harbour songs', venue: String(hall.body.id), organizers: [String(friends.body.id)] }));
    expect(res.statusCode).toBe(303);
    const [event] = await pendingByTitle(t, admin.authorization, 'Harbour songs');
    expect((event.venue as Json).id).toBe(hall.body.id);
    expect((event.venue as Json).status).toBe('publish');
    expect((event.organizer as Json[]).map((o) => o.id)).toEqual([friends.body.id]);
  });

  it('comes back with every value kept, a summary and each message beside its field, and writes nothing', async () => {
    const form = await openForm(t);
    const before = await stored(t);
    const res = await sendForm(
      t,
      form,
      submission({
        title: '',
        description: 'Kept as typed',
        end_date: `${NEXT_YEAR_DAY.slice(0, 4)}-07-13`,
        your_name: '',
        your_email: 'not an address',
        venue: 'new',
        new_venue: { venue: '', city: 'Nantes' },
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(alertText(res.body)).toContain('There are 5 problems');
    expect(control(res.body, 'Title').messages).toEqual(['Give the event a title.']);
    expect(control(res.body, 'End date').messages).toEqual(['The end must not be before the start.']);
    expect(control(res.body, 'Your name').messages).toEqual(['Enter your name.']);
    expect(control(res.body, 'Your e-mail').messages).toEqual(['Enter an e-mail address such as name@example.org.']);
    expect(control(res.body, 'Venue name').messages).toEqual(['Give the new venue a name, or choose another venue.']);
    expect(control(res.body, 'Description').value).toBe('Kept as typed');
    expect(control(res.body, 'Your e-mail').value).toBe('not an address');
    expect(control(res.body, 'City').value).toBe('Nantes');
    expect(res.body).toMatch(/<input type="radio" id="venue-new" name="venue" value="new" checked>/);
    expect(await stored(t)).toEqual(before);
  });

  it('shows the write path’s own refusals beside their fields, and writes nothing', async () => {
    const form = await openForm(t);
    const before = await stored(t);
    const res = await sendForm(t, form, submission({ title: 'Somewhere else', timezone: 'Mars/Olympus_Mons' }));
    expect(res.statusCode).toBe(400);
    expect(control(res.body, 'Time zone').messages.join(' ')).not.toBe('');
    expect(alertText(res.body)).not.toBeNull();
    expect(control(res.body, 'Title').value).toBe('Somewhere else');
    expect(await stored(t)).toEqual(before);
  });

  it('lets a signed-in user submit without name and e-mail, and lists its own submissions with their status', async () => {
    const { cookie } = await signedIn(t, 'sam', 'subscriber');
    const form = await openForm(t, cookie);
    expect(form.status).toBe(200);
    expect(form.html).not.toContain('Your name');
    expect(textOf(form.html)).toContain('You are sending it as sam');
    const res = await sendForm(t, form, submission({ title: 'Sam’s picnic', your_name: undefined, your_email: undefined }));
    expect(res.statusCode).toBe(303);
    const [event] = await pendingByTitle(t, admin.authorization, 'Sam’s picnic');
    const sam = (await selectRows(t, "SELECT id FROM users WHERE login = 'sam'"))[0].id;
    expect(await selectRows(t, 'SELECT submitter_name, submitter_email, user_id FROM event_submissions WHERE event_id = ?', [event.id])).toEqual([
      { submitter_name: 'sam', submitter_email: '', user_id: Number(sam) },
    ]);

    const list = async (session?: string) =>
      fastifyOf(t).inject({ method: 'GET', url: LIST, headers: session ? { cookie: `calendar_session=${session}` } : {} });
    const mine = await list(cookie);
    expect(mine.statusCode).toBe(200);
    expect(textOf(mine.body)).toContain('Sam’s picnic');
    expect(textOf(mine.body)).toContain('Waiting for review');
    expect(mine.headers['cache-control']).toBe('no-store');

    const published = await http(t, admin.authorization)
      .post(`${API}/events/${event.id as number}`)
      .send({ status: 'publish' });
    expect(published.status).toBe(200);
    const after = await list(cookie);
    expect(textOf(after.body)).toContain('Published');
    expect(after.body).toContain(`href="${String(published.body.url)}"`);

    // Nobody else's list holds it; without a session the page asks to sign in.
    const other = await signedIn(t, 'olga', 'subscriber');
    expect(textOf((await list(other.cookie)).body)).not.toContain('Sam’s picnic');
    const anonymous = await list();
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).toContain(`href="/manage/login?next=${encodeURIComponent(LIST)}"`);
    expect(textOf(anonymous.body)).not.toContain('Sam’s picnic');
  });

  it('forgets who sent an event deleted for good', async () => {
    const form = await openForm(t);
    expect((await sendForm(t, form, submission({ title: 'Gone for good' }))).statusCode).toBe(303);
    const [event] = await pendingByTitle(t, admin.authorization, 'Gone for good');
    expect(await countRows(t, 'SELECT COUNT(*) AS n FROM event_submissions WHERE event_id = ?', [event.id])).toBe(1);
    const trashed = await http(t, admin.authorization).delete(`${API}/events/${event.id as number}`);
    expect(trashed.status).toBe(200);
    expect(await countRows(t, 'SELECT COUNT(*) AS n FROM event_submissions WHERE event_id = ?', [event.id])).toBe(1);
    const deleted = await http(t, admin.authorization).delete(`${API}/events/${event.id as number}?force=true`);
    expect(deleted.status).toBe(200);
    expect(await countRows(t, 'SELECT COUNT(*) AS n FROM event_submissions WHERE event_id = ?', [event.id])).toBe(0);
  });
});

describe('who may submit and who writes (editing.md §4, §8)', () => {
  it('is off by default: the form’s paths are not there', async () => {
    const t = await createTestApp({ ...EXTENSIONS_OFF });
    try {
      expect((await fastifyOf(t).inject({ method: 'GET', url: ADD })).statusCode).toBe(404);
      expect((await fastifyOf(t).inject({ method: 'GET', url: LIST })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('works without the public pages: its own stylesheet, no link to their views', async () => {
    const t = await createTestApp({ ...ON, CALENDAR_PAGES: 'off' });
    try {
      await t.userHeader('root', 'administrator');
      const form = await openForm(t);
      expect(form.status).toBe(200);
      expect(form.html).not.toContain('/assets/calendar.');
      expect(form.html).toMatch(/<link rel="stylesheet" href="\/events\/community\/assets\/submissions\.[0-9a-f]{10}\.css">/);
      expect(form.html).not.toContain('>Month</a>');
      expect((await sendForm(t, form, submission())).statusCode).toBe(303);
    } finally {
      await t.close();
    }
  });

  it('with CALENDAR_SUBMISSIONS=users, asks anonymous visitors to sign in and takes a signed-in user’s event', async () => {
    const t = await createTestApp({ ...ON, CALENDAR_SUBMISSIONS: 'users' });
    try {
      const admin = await t.userHeader('root', 'administrator');
      const page = await fastifyOf(t).inject({ method: 'GET', url: ADD });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<a href="/manage/login?next=${encodeURIComponent(ADD)}">Sign in</a>`);
      expect(page.body).not.toContain('Submit event');
      const before = await stored(t);
      const anonymous = await sendForm(t, { status: 200, html: '', cookie: '', token: '', stamp: '' }, submission());
      expect(anonymous.statusCode).toBe(403);
      expect(anonymous.body).toContain('/manage/login?next=');
      expect(await stored(t)).toEqual(before);

      const { cookie } = await signedIn(t, 'member', 'contributor');
      const form = await openForm(t, cookie);
      expect(form.html).toContain('Submit event');
      expect(form.html).not.toContain('Your e-mail');
      expect((await sendForm(t, form, submission({ title: 'Members only' }))).statusCode).toBe(303);
      expect(await pendingByTitle(t, admin.authorization, 'Members only')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('writes as CALENDAR_SUBMISSIONS_AUTHOR; a login that does not exist stops the start with a message', async () => {
    await expect(createTestApp({ ...ON, CALENDAR_SUBMISSIONS_AUTHOR: 'ghost' })).rejects.toThrow(
      /CALENDAR_SUBMISSIONS_AUTHOR names the login "ghost", which does not exist/,
    );
    const t = await createTestApp({ ...ON, CALENDAR_ADMIN_LOGIN: 'boss', CALENDAR_ADMIN_PASSWORD: 'a-long-password', CALENDAR_SUBMISSIONS_AUTHOR: 'boss' });
    try {
      const other = await t.userHeader('another', 'administrator');
      const form = await openForm(t);
      expect((await sendForm(t, form, submission({ title: 'By the boss' }))).statusCode).toBe(303);
      const [event] = await pendingByTitle(t, other.authorization, 'By the boss');
      const boss = (await selectRows(t, "SELECT id FROM users WHERE login = 'boss'"))[0].id;
      expect(event.author).toBe(String(boss));
    } finally {
      await t.close();
    }
  });

  it('refuses to start with CALENDAR_SUBMISSIONS=users without the editing pages’ sign-in; without an administrator, takes no event', async () => {
    await expect(createTestApp({ ...ON, CALENDAR_SUBMISSIONS: 'users', CALENDAR_MANAGE: 'off' })).rejects.toThrow(
      /CALENDAR_SUBMISSIONS=users needs the editing pages/,
    );
    const t = await createTestApp({ ...ON });
    try {
      // Without an administrator yet, the form says it takes no events now, and writes nothing.
      const form = await openForm(t);
      const before = await stored(t);
      const res = await sendForm(t, form, submission());
      expect(res.statusCode).toBe(503);
      expect(alertText(res.body)).toContain('Events cannot be submitted right now');
      expect(await stored(t)).toEqual(before);
    } finally {
      await t.close();
    }
  });

  it('shows an extension’s fields that ask to be on the form, validated by the extension in the same write', async () => {
    const t = await createTestApp({ ...ON, CALENDAR_CAPACITY: 'on' }, { features: [...FEATURES, CAPACITY_FEATURE] });
    try {
      const admin = await t.userHeader('root', 'administrator');
      const form = await openForm(t);
      expect(control(form.html, 'Capacity').id).toBe('ext-capacity');
      const before = await stored(t);
      const bad = await sendForm(t, form, submission({ title: 'Crowded', ext: { capacity: '-3' } }));
      expect(bad.statusCode).toBe(400);
      expect(control(bad.body, 'Capacity').messages).toContain('Must be a whole number from 0 to 100000, or empty to clear it.');
      expect(control(bad.body, 'Capacity').value).toBe('-3');
      expect(await stored(t)).toEqual(before);
      expect((await sendForm(t, form, submission({ title: 'Roomy', ext: { capacity: '120' } }))).statusCode).toBe(303);
      const [event] = await pendingByTitle(t, admin.authorization, 'Roomy');
      expect(event.capacity).toBe(120);
    } finally {
      await t.close();
    }
  });
});
