import { Injectable, Module } from '@nestjs/common';
import { EVENT_FORM_HOOKS, EVENT_HOOKS, Hook } from '../../../src/extend';
import type { EventDeleteContext, EventEntity, EventFormContext, EventFormHook, EventFormSection, EventHook, EventWriteContext } from '../../../src/extend';
import { FEATURES } from '../../../src/features';
import { CAPACITY_FEATURE } from '../../../extensions/capacity/capacity.feature';
import { API, http } from '../../support/http';
import { alertText, control, formPairs, getPage, hasButton, postForm, signedInUser, textOf, withFields } from '../../support/manage';
import { createTestApp, EXTENSIONS_OFF, type TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;
type User = { id: number; cookie: string; authorization: string };

const NEW = '/manage/events/new';
const formOf = (id: number) => `/manage/events/${id}/`;
/**
 * A test module with a form section of its own and a question before save and trash, as the
 * series form plugs in (docs/editing.md): `note` read from its section, `scope` from the answer.
 */
@Hook(EVENT_HOOKS, EVENT_FORM_HOOKS)
@Injectable()
class NoteHook implements EventHook, EventFormHook {
  readonly name = 'note';
  readonly params = ['note', 'scope'] as const;
  /** What the hooks were told, in order. */
  readonly seen: { hook: 'saved' | 'deleting'; note?: unknown; scope?: unknown }[] = [];
  readonly formSection: EventFormSection = {
    render: (ctx: EventFormContext) => {
      const posted = (ctx.posted?.ext_note as Json | undefined)?.text;
      const value = typeof posted === 'string' ? posted : '';
      const error = ctx.errors.note ? `<p class="field-error" id="note-error">${escape(ctx.errors.note)}</p>` : '';
      return `<fieldset><legend>Notes</legend><label for="note-text">Note</label><input id="note-text" name="ext_note[text]" value="${escape(value)}">${error}</fieldset>`;
    },
    read: (posted, input) => {
      if (typeof posted.text === 'string' && posted.text !== '') input.note = posted.text;
    },
    question: (action) => ({
      name: 'scope',
      legend: action === 'save' ? 'Save which events?' : 'Trash which events?',
      choices: [
        { value: 'this', label: 'This event' },
        { value: 'all', label: 'All events' },
      ],
      initial: 'this',
    }),
  };

  check(input: Json): Record<string, string> {
    return input.note === 'bad' ? { note: 'A note may not be “bad”.' } : {};
  }

  async saved(_tx: unknown, _event: EventEntity, ctx: EventWriteContext): Promise<void> {
    this.seen.push({ hook: 'saved', note: ctx.input.note, scope: ctx.input.scope });
  }

  async deleting(_tx: unknown, _event: EventEntity, ctx: EventDeleteContext): Promise<void> {
    this.seen.push({ hook: 'deleting', scope: ctx.input.scope });
  }
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

@Module({ providers: [NoteHook] })
class NoteModule {}

/** An event's representation without what differs between two events made alike (ids, slugs, links, times of the write). */
function comparable(event: Json): Json {
  const out: Json = {};
  const skip = new Set(['id', 'global_id', 'global_id_lineage', 'url', 'rest_url', 'slug', 'date', 'date_utc', 'modified', 'modified_utc', 'json_ld']);
  for (const [key, value] of Object.entries(event)) if (!skip.has(key)) out[key] = value;
  return out;
}

const idFrom = (location: string | undefined) => Number(/\/manage\/events\/(\d+)\//.exec(location ?? '')?.[1]);

describe('the event form (editing.md §2, §5, §7, §8)', () => {
  let t: TestApp;
  let admin: User;
  let editor: User;
  let author: User;
  let author2: User;
  let contributor: User;

  beforeAll(async () => {
    t = await createTestApp(
      { ...EXTENSIONS_OFF, CALENDAR_TIMEZONE: 'Europe/Paris', CALENDAR_CAPACITY: 'on' },
      { features: [...FEATURES, CAPACITY_FEATURE, { name: 'note', modules: [NoteModule] }] },
    );
    admin = await signedInUser(t, 'ada', 'administrator');
    editor = await signedInUser(t, 'eddie', 'editor');
    author = await signedInUser(t, 'ann', 'author');
    author2 = await signedInUser(t, 'otto', 'author');
    contributor = await signedInUser(t, 'connie', 'contributor');
  });
  afterAll(async () => {
    await t?.close();
  });

  const apiGet = async (id: number, who: User = admin) => (await http(t, who.authorization).get(`${API}/events/${id}`)).body as Json;

  /** The blank form's fields with these changes, as a browser sends them. */
  const newForm = async (who: User, changes: Record<string, string | string[] | null>) => {
    const page = await getPage(t, who.cookie, NEW);
    expect(page.status).toBe(200);
    return withFields(formPairs(page.html, 'event-form'), changes);
  };

  it('creates an event with a venue made in place; the stored event is what the API answers', async () => {
    const pairs = await newForm(editor, {
      title: 'Jazz & Wine',
      description: 'An evening of jazz.',
      start_date: '2031-05-01',
      start_time: '19:30',
      end_date: '2031-05-01',
      end_time: '22:00',
      timezone: 'America/New_York',
      venue: 'new',
      'new_venue[venue]': 'The Blue Hall',
      'new_venue[address]': '1 Main St',
      'new_venue[city]': 'Springfield',
      'new_venue[country]': 'United States',
      'organizers[]': 'new',
      'new_organizer[organizer]': 'Jo Promoter',
      'new_organizer[email]': 'jo@example.com',
      tags: 'rock, paper, scissors\nlive',
      cost: '15',
      website: 'https://example.com/jazz',
      featured: '1',
      action: 'publish',
    });
    const res = await postForm(t, editor.cookie, NEW, pairs);
    expect(res.status).toBe(303);
    const id = idFrom(res.location);
    expect(res.location).toBe(`/manage/events/${id}/?saved=1`);
    const event = await apiGet(id);
    expect(event).toMatchObject({
      title: 'Jazz & Wine',
      status: 'publish',
      start_date: '2031-05-01 19:30:00',
      end_date: '2031-05-01 22:00:00',
      timezone: 'America/New_York',
      cost: '15',
      website: 'https://example.com/jazz',
      featured: true,
      all_day: false,
    });
    expect(event.venue).toMatchObject({ venue: 'The Blue Hall', address: '1 Main St', city: 'Springfield', country: 'United States' });
    expect(event.organizer).toMatchObject([{ organizer: 'Jo Promoter', email: 'jo@example.com' }]);
    expect((event.tags as Json[]).map((x) => x.name).sort()).toEqual(['live', 'rock, paper, scissors']);

    // The same input through the API gives the same event (the new venue, same name and description, is reused).
    const twin = await http(t, editor.authorization)
      .post(`${API}/events`)
      .send({
        title: 'Jazz & Wine',
        description: 'An evening of jazz.',
        start_date: '2031-05-01 19:30:00',
        end_date: '2031-05-01 22:00:00',
        all_day: false,
        timezone: 'America/New_York',
        venue: { venue: 'The Blue Hall', address: '1 Main St', city: 'Springfield', country: 'United States' },
        organizer: [{ organizer: 'Jo Promoter', email: 'jo@example.com' }],
        categories: [],
        tags: ['rock, paper, scissors', 'live'],
        cost: '15',
        website: 'https://example.com/jazz',
        status: 'publish',
        featured: true,
        sticky: false,
        hide_from_listings: false,
        show_map: true,
        show_map_link: true,
        capacity: '',
        scope: 'this',
      });
    expect(twin.status).toBe(201);
    expect(comparable(await apiGet(twin.body.id as number))).toEqual(comparable(await apiGet(id)));

    const saved = await getPage(t, editor.cookie, res.location as string);
    expect(saved.status).toBe(200);
    expect(textOf(saved.html)).toContain('Saved');
    expect(saved.html).toContain(`href="${String(event.url)}"`);
    expect(control(saved.html, 'Title').value).toBe('Jazz & Wine');
    expect(control(saved.html, 'Start date').value).toBe('2031-05-01');
    expect(control(saved.html, 'Start time').value).toBe('19:30');
    expect(control(saved.html, 'Tags').value).toBe('live\nrock, paper, scissors');
    expect(saved.html).toContain('id="organizer-'); // the organizer made in place is chosen
  });

  /** An event made through the API, and its form as `who` opens it. */
  const apiEvent = async (who: User, input: Json) => {
    const res = await http(t, who.authorization)
      .post(`${API}/events`)
      .send({ start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00', ...input });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const openForm = async (who: User, id: number) => {
    const page = await getPage(t, who.cookie, formOf(id));
    expect(page.status).toBe(200);
    return page;
  };

  it('edits an event: the other fields keep their values', async () => {
    const id = await apiEvent(editor, {
      title: 'Before',
      tags: ['a, b'],
      cost: '5',
      sticky: true,
      start_date: '2031-06-01 10:00:30',
      date: '2026-01-02 03:04:05',
    });
    const stored = await apiGet(id);
    const page = await openForm(editor, id);
    const res = await postForm(t, editor.cookie, formOf(id), withFields(formPairs(page.html, 'event-form'), { title: 'After', action: 'save' }));
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${formOf(id)}?saved=1`);
    const event = await apiGet(id);
    // Times the form shows to the minute keep their seconds, and the publish date is not moved.
    expect(event).toMatchObject({ title: 'After', cost: '5', sticky: true, start_date: '2031-06-01 10:00:30', end_date: '2031-06-01 11:00:00' });
    expect(event.date_utc).toBe(stored.date_utc);
    expect((event.tags as Json[]).map((x) => x.name)).toEqual(['a, b']);
  });

  it("a refused write comes back with every value kept, the summary and each message beside its field, in the API's words", async () => {
    const pairs = await newForm(editor, { title: '   ', description: 'Kept text', website: 'not a url', tags: 'one, two', action: 'save' });
    const res = await postForm(t, editor.cookie, NEW, pairs);
    expect(res.status).toBe(400);
    const api = await http(t, editor.authorization)
      .post(`${API}/events`)
      .send({ title: '   ', start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00', website: 'not a url' });
    expect(api.status).toBe(400);
    const params = (api.body as { data: { params: Record<string, string> } }).data.params;
    const summary = alertText(res.html);
    expect(summary).not.toBeNull();
    const title = control(res.html, 'Title');
    expect(title.messages).toContain(params.title);
    expect(res.html).toContain('<a href="#title">');
    expect(control(res.html, 'Description').value).toBe('Kept text');
    expect(control(res.html, 'Tags').value).toBe('one, two');
    expect(control(res.html, 'Website').value).toBe('not a url');
  });

  it('refuses an end before the start, with a message beside "End date", and writes nothing', async () => {
    const before = (await http(t, admin.authorization).get(`${API}/events?per_page=1&status=publish,draft,pending,future,private`)).headers['x-tec-total'];
    const pairs = await newForm(editor, { title: 'Backwards', start_date: '2031-07-02', start_time: '10:00', end_date: '2031-07-01', end_time: '09:00' });
    const res = await postForm(t, editor.cookie, NEW, withFields(pairs, { action: 'save' }));
    expect(res.status).toBe(400);
    const end = control(res.html, 'End date');
    expect(end.messages).toEqual(['The end must not be before the start.']);
    expect(alertText(res.html)).toContain('The end must not be before the start.');
    expect(control(res.html, 'Title').value).toBe('Backwards');
    const after = (await http(t, admin.authorization).get(`${API}/events?per_page=1&status=publish,draft,pending,future,private`)).headers['x-tec-total'];
    expect(after).toBe(before);
  });

  it('two editors save the same event: the second sees both versions and chooses', async () => {
    const id = await apiEvent(editor, { title: 'Original', cost: '10' });
    const first = await openForm(admin, id);
    const second = await openForm(editor, id);
    const saved = await postForm(t, admin.cookie, formOf(id), withFields(formPairs(first.html, 'event-form'), { title: 'Theirs', action: 'save' }));
    expect(saved.status).toBe(303);

    const clash = await postForm(t, editor.cookie, formOf(id), withFields(formPairs(second.html, 'event-form'), { title: 'Mine', action: 'save' }));
    expect(clash.status).toBe(409);
    expect((await apiGet(id)).title).toBe('Theirs'); // nothing overwritten
    expect(clash.html).toContain('<td class="conflict-stored">Theirs</td>');
    expect(clash.html).toContain('<td class="conflict-mine">Mine</td>');
    expect(control(clash.html, 'Title').value).toBe('Mine');
    expect(hasButton(clash.html, 'Keep my changes')).toBe(true);
    expect(clash.html).toContain(`<a class="button" href="${formOf(id)}">Take the stored version</a>`);

    // Keeping mine saves over the newer version the conflict page carries.
    const kept = await postForm(t, editor.cookie, formOf(id), withFields(formPairs(clash.html, 'event-form'), { action: 'save' }));
    expect(kept.status).toBe(303);
    expect((await apiGet(id)).title).toBe('Mine');
  });

  it('a contributor sees "Submit for review", cannot publish, and gets a pending event', async () => {
    const page = await getPage(t, contributor.cookie, NEW);
    expect(page.status).toBe(200);
    expect(hasButton(page.html, 'Submit for review')).toBe(true);
    expect(hasButton(page.html, 'Publish')).toBe(false);
    expect(page.html).not.toContain('<option value="publish"');
    const pairs = withFields(formPairs(page.html, 'event-form'), { title: 'From a contributor', action: 'submit' });
    const res = await postForm(t, contributor.cookie, NEW, pairs);
    expect(res.status).toBe(303);
    expect((await apiGet(idFrom(res.location))).status).toBe('pending');
    // A status of "publish" posted by hand is kept pending, as the API keeps it.
    const forced = await postForm(t, contributor.cookie, NEW, withFields(pairs, { status: 'publish', action: 'save' }));
    expect((await apiGet(idFrom(forced.location))).status).toBe('pending');
  });

  it("another author's draft is not an author's to open or save", async () => {
    const id = await apiEvent(author2, { title: 'Otto draft', status: 'draft' });
    const page = await getPage(t, author.cookie, formOf(id));
    expect([403, 404]).toContain(page.status);
    const own = await openForm(author2, id);
    const post = await postForm(t, author.cookie, formOf(id), withFields(formPairs(own.html, 'event-form'), { _csrf: null }));
    expect([403, 404]).toContain(post.status);
    expect((await apiGet(id)).title).toBe('Otto draft');
  });

  it('moves an event to the trash from its form, and restores it', async () => {
    const id = await apiEvent(editor, { title: 'Trash me', status: 'publish' });
    const page = await openForm(editor, id);
    expect(hasButton(page.html, 'Move to trash')).toBe(true);
    const trashed = await postForm(t, editor.cookie, formOf(id), withFields(formPairs(page.html, 'event-form'), { action: 'trash' }));
    expect(trashed.status).toBe(303);
    expect((await http(t, admin.authorization).get(`${API}/events/${id}`)).status).toBe(403); // the API's answer for a trashed event
    const inTrash = await openForm(editor, id);
    expect(hasButton(inTrash.html, 'Restore')).toBe(true);
    expect(hasButton(inTrash.html, 'Move to trash')).toBe(false);
    const restored = await postForm(t, editor.cookie, formOf(id), [
      ['_csrf', /name="_csrf" value="([^"]*)"/.exec(inTrash.html)?.[1] ?? ''],
      ['action', 'restore'],
    ]);
    expect(restored.status).toBe(303);
    expect((await apiGet(id)).status).toBe('publish');
  });

  it('finds venues on the server, a page at a time, keeping what was typed; the chosen one is saved', async () => {
    for (let i = 1; i <= 23; i++) {
      const res = await http(t, admin.authorization)
        .post(`${API}/venues`)
        .send({ venue: `Concert Hall ${String(i).padStart(2, '0')}`, city: 'Lyon' });
      expect(res.status).toBe(201);
    }
    const pairs = await newForm(editor, { title: 'Picked', venue_search: 'Concert Hall', action: 'venues_find' });
    const found = await postForm(t, editor.cookie, NEW, pairs);
    expect(found.status).toBe(200);
    expect(control(found.html, 'Title').value).toBe('Picked');
    const radios = (html: string) => [...html.matchAll(/<input type="radio" id="venue-(\d+)" name="venue"/g)].map((m) => m[1]);
    expect(radios(found.html)).toHaveLength(10);
    expect(textOf(found.html)).toContain('23 venues found, page 1 of 3.');
    expect(hasButton(found.html, 'More venues')).toBe(true);
    const next = await postForm(t, editor.cookie, NEW, withFields(formPairs(found.html, 'event-form'), { action: 'venues_next' }));
    expect(textOf(next.html)).toContain('page 2 of 3');
    const pageTwo = radios(next.html);
    expect(pageTwo).toHaveLength(10);
    expect(pageTwo.some((id) => radios(found.html).includes(id))).toBe(false);
    const res = await postForm(t, editor.cookie, NEW, withFields(formPairs(next.html, 'event-form'), { venue: pageTwo[0], action: 'save' }));
    expect(res.status).toBe(303);
    expect(((await apiGet(idFrom(res.location))).venue as Json).id).toBe(Number(pageTwo[0]));
    // Reopened, the chosen venue is there without a search.
    const reopened = await getPage(t, editor.cookie, formOf(idFrom(res.location)));
    expect(reopened.html).toContain(`id="venue-${pageTwo[0]}" name="venue" value="${pageTwo[0]}" checked`);
  });

  it("shows an extension's field, saves it in the same write, and shows its check's message beside it", async () => {
    const pairs = await newForm(editor, { title: 'Spacious', 'ext[capacity]': '120', action: 'save' });
    expect(control((await getPage(t, editor.cookie, NEW)).html, 'Capacity').id).toBe('ext-capacity');
    const res = await postForm(t, editor.cookie, NEW, pairs);
    expect(res.status).toBe(303);
    const id = idFrom(res.location);
    expect((await apiGet(id)).capacity).toBe(120);
    const page = await openForm(editor, id);
    expect(control(page.html, 'Capacity').value).toBe('120');

    const bad = await postForm(
      t,
      editor.cookie,
      formOf(id),
      withFields(formPairs(page.html, 'event-form'), { 'ext[capacity]': 'lots', title: 'Still here', action: 'save' }),
    );
    expect(bad.status).toBe(400);
    const api = await http(t, editor.authorization).post(`${API}/events/${id}`).send({ capacity: 'lots' });
    const capacity = control(bad.html, 'Capacity');
    expect(capacity.messages).toContain((api.body as { data: { params: Record<string, string> } }).data.params.capacity);
    expect(capacity.value).toBe('lots');
    expect(control(bad.html, 'Title').value).toBe('Still here');
    expect((await apiGet(id)).capacity).toBe(120);
  });

  it("an extension's section and question: read into the same write, its message kept beside it, the answer sent with a trash", async () => {
    const note = t.app.get(NoteHook);
    const page = await getPage(t, editor.cookie, NEW);
    expect(page.html).toContain('<legend>Notes</legend>');
    expect(page.html).toContain('<legend>Save which events?</legend>');
    expect(page.html).toContain('id="answer-scope-this" name="answers[scope]" value="this" checked');
    const pairs = withFields(formPairs(page.html, 'event-form'), { title: 'Noted', 'ext_note[text]': 'bad', action: 'save' });
    const refused = await postForm(t, editor.cookie, NEW, pairs);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('<p class="field-error" id="note-error">A note may not be “bad”.</p>');
    expect(refused.html).toContain('name="ext_note[text]" value="bad"');

    note.seen.length = 0;
    const res = await postForm(t, editor.cookie, NEW, withFields(pairs, { 'ext_note[text]': 'fine', 'answers[scope]': 'all' }));
    expect(res.status).toBe(303);
    expect(note.seen).toEqual([{ hook: 'saved', note: 'fine', scope: 'all' }]);

    const id = idFrom(res.location);
    const opened = await openForm(editor, id);
    // One question per name, though the module asks before a trash too.
    expect(opened.html).toContain('<legend>Save which events?</legend>');
    expect(opened.html).not.toContain('<legend>Trash which events?</legend>');
    note.seen.length = 0;
    const trashed = await postForm(
      t,
      editor.cookie,
      formOf(id),
      withFields(formPairs(opened.html, 'event-form'), { 'answers[scope]': 'all', action: 'trash' }),
    );
    expect(trashed.status).toBe(303);
    expect(note.seen).toEqual([{ hook: 'deleting', scope: 'all' }]);
  });
});
