// Creating events: validation, statuses, authorship, flags, text handling (spec endpoints.md §3, §4.3;
// README §2, §4, §8; errors.md).
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http, JSON_TYPE } from '../../support/http';
import { Caller, createEvent, eventInput, makeUsers, readEvent, uid } from '../../support/api';
import { expectEventKeys } from '../../support/events';
import { expectError, expectInvalidParams, expectMissingParams, expectStatus } from '../../support/expect';

describe('events: create', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  let admin: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
    admin = users.admin;
  });
  afterAll(async () => t?.close());

  const post = (caller: Caller | undefined, body: unknown) =>
    http(t, caller?.authorization)
      .post(`${API}/events`)
      .send(body as object);

  describe('required and validated fields', () => {
    it('answers 201 with the created event', async () => {
      const body = eventInput();
      const res = await post(admin, body);

      expectStatus(res, 201);
      expect(res.headers['content-type']).toBe(JSON_TYPE);
      expectEventKeys(res.body);
      expect(res.body).toMatchObject({ title: body.title, start_date: body.start_date, end_date: body.end_date, status: 'publish' });
      expect((await readEvent(t, res.body.id)).title).toBe(body.title);
    });

    it('lists every missing required parameter in rest_missing_callback_param', async () => {
      expectMissingParams(await post(admin, {}), 'title', 'start_date', 'end_date');
      expectMissingParams(await post(admin, { title: 'Only a title' }), 'start_date', 'end_date');
      expectMissingParams(await post(admin, { start_date: '2030-01-01 10:00:00' }), 'title', 'end_date');
    });

    it('treats null as missing', async () => {
      expectMissingParams(await post(admin, { title: null, start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' }), 'title');
    });

    it('missing parameters win over invalid ones', async () => {
      expectError(await post(admin, { title: 'x', start_date: 'foo' }), 400, 'rest_missing_callback_param');
    });

    it('rejects empty title and dates, reporting them together', async () => {
      expectInvalidParams(await post(admin, { title: '', start_date: '', end_date: '' }), 'title', 'start_date', 'end_date');
    });

    it('rejects unparsable dates', async () => {
      expectInvalidParams(await post(admin, eventInput({ start_date: 'foo' })), 'start_date');
      expectInvalidParams(await post(admin, eventInput({ end_date: 'before my birthday' })), 'end_date');
      expectInvalidParams(await post(admin, eventInput({ date: 'not a strtotime parsable string' })), 'date');
      expectInvalidParams(await post(admin, eventInput({ date_utc: 'foo' })), 'date_utc');
    });

    it('rejects a title that is not a string', async () => {
      expectInvalidParams(await post(admin, eventInput({ title: 42 })), 'title');
    });

    it('rejects empty optional text fields', async () => {
      expectInvalidParams(await post(admin, eventInput({ description: '', excerpt: '', slug: '' })), 'description', 'excerpt', 'slug');
    });

    it('validation comes before the permission check (README §9)', async () => {
      expectError(await post(undefined, {}), 400, 'rest_missing_callback_param');
      expectInvalidParams(await post(undefined, eventInput({ start_date: 'foo' })), 'start_date');
    });

    it('ignores unknown parameters', async () => {
      expectStatus(await post(admin, eventInput({ colour: 'red', nonsense: { a: 1 } })), 201);
    });

    it('ignores computed fields sent in the body', async () => {
      const tok = uid();
      const res = await post(
        admin,
        eventInput({
          title: `Computed ${tok}`,
          id: 999999,
          global_id: 'evil?id=1',
          global_id_lineage: ['evil?id=1'],
          url: 'http://evil.example/',
          rest_url: 'http://evil.example/rest',
          utc_start_date: '2001-01-01 00:00:00',
          utc_end_date: '2001-01-01 00:00:00',
          start_date_details: { year: '2001' },
          timezone_abbr: 'XYZ',
          cost_details: { currency_symbol: '£', values: ['1'] },
          custom_fields: ['x'],
          modified: '2001-01-01 00:00:00',
        }),
      );

      expectStatus(res, 201);
      expect(res.body.id).not.toBe(999999);
      expect(res.body).toMatchObject({
        global_id: `127.0.0.1?id=${res.body.id}`,
        url: `${t.baseUrl}/event/computed-${tok}/`,
        rest_url: `${t.baseUrl}${API}/events/${res.body.id}`,
        utc_start_date: '2030-06-01 10:00:00',
        utc_end_date: '2030-06-01 12:00:00',
        timezone_abbr: 'UTC',
        cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
        custom_fields: [],
      });
      expect(res.body.start_date_details.year).toBe('2030');
      expect(res.body.modified).not.toBe('2001-01-01 00:00:00');
      expectError(await http(t).get(`${API}/events/999999`), 404, 'rest-event-not-found');
    });

    it('rejects a website that is not an absolute URL and accepts an empty one', async () => {
      expectInvalidParams(await post(admin, eventInput({ website: 'foo' })), 'website');
      const empty = await post(admin, eventInput({ website: '' }));
      expectStatus(empty, 201);
      expect(empty.body.website).toBe(empty.body.url);
      const given = await post(admin, eventInput({ website: 'https://example.org/tickets' }));
      expect(given.body.website).toBe('https://example.org/tickets');
    });

    it('reports every bad parameter together', async () => {
      const res = await post(admin, eventInput({ start_date: 'foo', website: 'foo', featured: 'yes', status: 'nope', timezone: 'Mars/Olympus' }));
      expectInvalidParams(res, 'start_date', 'website', 'featured', 'status', 'timezone');
      expect(typeof res.body.data.details).toBe('object');
      expect(typeof res.body.message).toBe('string');
    });

    it('rejects empty optional dates (README §6.2)', async () => {
      expectInvalidParams(await post(admin, eventInput({ date: '', date_utc: '' })), 'date', 'date_utc');
    });
  });

  describe('boolean flags (README §4)', () => {
    const FLAGS = ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'all_day'];

    it.each([
      [true, true],
      ['true', true],
      ['TRUE', true],
      ['1', true],
      [1, true],
      [false, false],
      ['false', false],
      ['0', false],
      [0, false],
      ['', false],
    ])('accepts %j as %s', async (given, expected) => {
      const res = await post(admin, eventInput(Object.fromEntries(FLAGS.map((flag) => [flag, given]))));

      expectStatus(res, 201);
      for (const flag of FLAGS) expect({ flag, value: res.body[flag] }).toEqual({ flag, value: expected });
    });

    it('defaults every flag to false', async () => {
      const ev = await createEvent(t, admin.authorization);
      for (const flag of FLAGS) expect({ flag, value: ev[flag] }).toEqual({ flag, value: false });
    });

    it('rejects "yes", "on" and other values, every flag reported', async () => {
      const res = await post(admin, eventInput(Object.fromEntries(FLAGS.map((flag) => [flag, 'yes']))));
      expectInvalidParams(res, ...FLAGS);
      expectInvalidParams(await post(admin, eventInput({ featured: 'on' })), 'featured');
      expectInvalidParams(await post(admin, eventInput({ sticky: 2 })), 'sticky');
    });
  });

  describe('statuses (endpoints.md §3)', () => {
    it('an administrator, editor or author without status publishes', async () => {
      for (const caller of [users.admin, users.editor, users.author]) {
        expect((await createEvent(t, caller.authorization)).status).toBe('publish');
      }
    });

    it('an administrator, editor or author keeps the requested status', async () => {
      for (const caller of [users.admin, users.editor, users.author]) {
        for (const status of ['publish', 'draft', 'pending', 'private']) {
          const ev = await createEvent(t, caller.authorization, { status });
          expect({ status: ev.status }).toEqual({ status });
        }
      }
    });

    it('a contributor creates drafts by default and pending items instead of published ones', async () => {
      const c = users.contributor.authorization;
      expect((await createEvent(t, c)).status).toBe('draft');
      expect((await createEvent(t, c, { status: 'draft' })).status).toBe('draft');
      expect((await createEvent(t, c, { status: 'pending' })).status).toBe('pending');
      expect((await createEvent(t, c, { status: 'publish' })).status).toBe('pending');
      expect((await createEvent(t, c, { status: 'private' })).status).toBe('pending');
      expect((await createEvent(t, c, { status: 'future', date: '2040-01-01 00:00:00' })).status).toBe('pending');
    });

    it('publish with a future date becomes future, future with a past date becomes publish', async () => {
      const future = await createEvent(t, admin.authorization, { status: 'publish', date: '2040-01-01 10:00:00' });
      expect(future.status).toBe('future');
      expect(future.date).toBe('2040-01-01 10:00:00');

      const omitted = await createEvent(t, admin.authorization, { date: '2040-01-01 10:00:00' });
      expect(omitted.status).toBe('future');

      const past = await createEvent(t, admin.authorization, { status: 'future', date: '2020-01-01 10:00:00' });
      expect(past.status).toBe('publish');
      expect(past.date_utc).toBe('2020-01-01 10:00:00');
    });

    it('rejects statuses that cannot be written', async () => {
      for (const status of ['trash', 'auto-draft', 'inherit', 'foo', '']) {
        expectInvalidParams(await post(admin, eventInput({ status })), 'status');
      }
    });
  });

  describe('author (endpoints.md §4.3)', () => {
    it('defaults to the caller', async () => {
      expect((await createEvent(t, users.author.authorization)).author).toBe(String(users.author.id));
      expect((await createEvent(t, users.contributor.authorization)).author).toBe(String(users.contributor.id));
    });

    it('an administrator or editor may name another user', async () => {
      const ev = await createEvent(t, users.editor.authorization, { author: users.author.id });
      expect(ev.author).toBe(String(users.author.id));
      const byString = await createEvent(t, admin.authorization, { author: String(users.contributor.id) });
      expect(byString.author).toBe(String(users.contributor.id));
    });

    it('an author or contributor may name themselves', async () => {
      const ev = await createEvent(t, users.author.authorization, { author: users.author.id });
      expect(ev.author).toBe(String(users.author.id));
      const c = await createEvent(t, users.contributor.authorization, { author: users.contributor.id });
      expect(c.author).toBe(String(users.contributor.id));
    });

    it('an author or contributor naming another user is 403 rest_cannot_edit_others', async () => {
      expectError(await post(users.author, eventInput({ author: users.editor.id })), 403, 'rest_cannot_edit_others');
      expectError(await post(users.contributor, eventInput({ author: users.author.id })), 403, 'rest_cannot_edit_others');
    });

    it('an unknown user, "" or "foo" is 400', async () => {
      for (const author of [999999, '999999', '', 'foo']) {
        expectInvalidParams(await post(admin, eventInput({ author })), 'author');
      }
    });
  });

  describe('publication date (README §6.2)', () => {
    it('date is read in the request timezone and date_utc derived', async () => {
      const ev = await createEvent(t, admin.authorization, { date: '2024-01-10 12:00:00', timezone: 'America/New_York' });

      expect(ev.date_utc).toBe('2024-01-10 17:00:00');
      expect(ev.date).toBe('2024-01-10 17:00:00');
    });

    it('date_utc alone is read as UTC', async () => {
      const ev = await createEvent(t, admin.authorization, { date_utc: '2024-01-10 12:00:00', timezone: 'America/New_York' });

      expect(ev.date_utc).toBe('2024-01-10 12:00:00');
      expect(ev.date).toBe('2024-01-10 12:00:00');
    });
  });

  describe('text handling (README §8)', () => {
    it('an author has script elements and event handlers removed, and all tags removed from the title', async () => {
      const tok = uid();
      const ev = await createEvent(t, users.author.authorization, {
        title: `<b>Bold</b> <script>alert(1)</script>title ${tok}`,
        description: '<p onclick="steal()">Hello <em>world</em></p><script>alert("x")</script><a href="javascript:alert(1)">link</a>',
        excerpt: 'Short<iframe src="https://evil.example"></iframe>',
      });

      expect(ev.title).not.toMatch(/[<>]/);
      expect(ev.title).toContain('Bold');
      expect(ev.title).toContain(`title ${tok}`);
      expect(ev.title).not.toContain('alert');
      expect(ev.description).toContain('Hello <em>world</em>');
      expect(ev.description).not.toContain('<script');
      expect(ev.description).not.toContain('alert("x")');
      expect(ev.description).not.toContain('onclick');
      expect(ev.description).not.toContain('javascript:');
      expect(ev.excerpt).toContain('Short');
      expect(ev.excerpt).not.toContain('<iframe');
    });

    it('a contributor is sanitised too', async () => {
      const ev = await createEvent(t, users.contributor.authorization, { description: 'Hi<script>alert(1)</script>', title: `<i>Ital</i> ${uid()}` });

      expect(ev.description).not.toContain('<script');
      expect(ev.title).not.toContain('<i>');
    });

    it('an editor may store any HTML', async () => {
      const ev = await createEvent(t, users.editor.authorization, {
        title: `<b>Bold</b> ${uid()}`,
        description: '<p>Hi</p><script>alert(1)</script>',
      });

      expect(ev.title).toMatch(/^<b>Bold<\/b> /);
      expect(ev.description).toContain('<script>alert(1)</script>');
    });

    it('trims the title', async () => {
      const tok = uid();
      const ev = await createEvent(t, admin.authorization, { title: `\n  Spaced ${tok} \t` });
      expect(ev.title).toBe(`Spaced ${tok}`);
    });
  });

  describe('request bodies (README §2)', () => {
    it('accepts a form-encoded body with arrays and a nested venue', async () => {
      const tok = uid();
      const form = [
        `title=Form+event+${tok}`,
        'start_date=2030-09-01+10:00:00',
        'end_date=2030-09-01+11:00:00',
        `categories[]=FormCatA+${tok}`,
        `categories[]=FormCatB+${tok}`,
        `tags[0]=formtag${tok}`,
        `venue[venue]=Hall+${tok}`,
        'venue[city]=Rome',
        'featured=1',
        `organizer[0][organizer]=Ann+${tok}`,
        'organizer[0][email]=ann@example.org',
      ].join('&');

      const res = await http(t, admin.authorization).post(`${API}/events`).type('form').send(form);

      expectStatus(res, 201);
      expect(res.body).toMatchObject({ title: `Form event ${tok}`, start_date: '2030-09-01 10:00:00', featured: true });
      expect(res.body.categories.map((c: { name: string }) => c.name)).toEqual([`FormCatA ${tok}`, `FormCatB ${tok}`]);
      expect(res.body.tags.map((c: { name: string }) => c.name)).toEqual([`formtag${tok}`]);
      expect(res.body.venue).toMatchObject({ venue: `Hall ${tok}`, city: 'Rome' });
      expect(res.body.organizer).toHaveLength(1);
      expect(res.body.organizer[0]).toMatchObject({ organizer: `Ann ${tok}`, email: 'ann@example.org' });
    });

    it('takes parameters from the query string, the body winning', async () => {
      const tok = uid();
      const res = await http(t, admin.authorization)
        .post(`${API}/events?title=Query+${tok}&excerpt=From+query`)
        .send({ title: `Body ${tok}`, start_date: '2030-09-02 10:00:00', end_date: '2030-09-02 11:00:00' });

      expectStatus(res, 201);
      expect(res.body.title).toBe(`Body ${tok}`);
      expect(res.body.excerpt).toBe('<p>From query</p>');
    });

    it('malformed JSON is 400 rest_invalid_json', async () => {
      const res = await http(t, admin.authorization).post(`${API}/events`).set('Content-Type', 'application/json').send('{"title": ');
      expectError(res, 400, 'rest_invalid_json');
    });
  });
});
