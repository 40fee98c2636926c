// The event form's "Repeats" section wired in through the recurrence extension's form section
// (docs/editing.md "Series in the form"), over plain HTTP with a session and CALENDAR_RECURRENCE=on:
// what the form writes is what the API makes of the same rule and scope, the preview's dates are
// the API's occurrences, the scope is asked before a save or a trash of an occurrence, and with
// the module off the form has no such section.
import { uid } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { alertText, control, type FormPairs, formPairs, getPage, hasButton, postForm, signedInUser, textOf, withFields } from '../../support/manage';
import { createTestApp, type TestApp } from '../../support/test-app';

type Json = Record<string, unknown>;
type User = { id: number; cookie: string; authorization: string };
interface Occurrence {
  id: number;
  title: string;
  status: string;
  start_date: string;
  utc_start_date: string;
  recurrence: string[];
  series: { id: number; original_start: string; detached: boolean } | null;
}

const NEW = '/manage/events/new';
const formOf = (id: number) => `/manage/events/${id}/`;
const idFrom = (location: string | undefined) => Number(/\/manage\/events\/(\d+)\//.exec(location ?? '')?.[1]);

/** A weekly series on Tuesdays and Thursdays at 19:00 in Paris, six times: the form's fields and the API's rule. */
const WHEN = { start_date: '2027-03-02', start_time: '19:00', end_date: '2027-03-02', end_time: '20:30', timezone: 'Europe/Paris' };
const WEEKLY = { repeat: 'weekly', 'repeat_days[]': ['TU', 'TH'], repeat_ends: 'count', repeat_count: '6' };
const WEEKLY_RULE = 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6';

describe('series in the event form (editing.md §3)', () => {
  let t: TestApp;
  let admin: User;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_RECURRENCE: 'on', CALENDAR_TIMEZONE: 'Europe/Paris' });
    admin = await signedInUser(t, 'ada', 'administrator');
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = () => http(t, admin.authorization);
  const read = async (id: number): Promise<Occurrence> => {
    const res = await api().get(`${API}/events/${id}`);
    expectStatus(res, 200);
    return res.body as Occurrence;
  };
  const occurrences = async (id: number): Promise<Occurrence[]> => {
    const res = await api().get(`${API}/events/${id}/occurrences?per_page=100&status=publish,draft,pending,future,private`);
    expectStatus(res, 200);
    return res.body.events as Occurrence[];
  };
  /** The same series made through the API: its first occurrence. */
  const apiSeries = async (title: string, recurrence = [WEEKLY_RULE]): Promise<Occurrence> => {
    const res = await api()
      .post(`${API}/events`)
      .send({ title, status: 'publish', start_date: '2027-03-02 19:00:00', end_date: '2027-03-02 20:30:00', timezone: 'Europe/Paris', recurrence });
    expectStatus(res, 201);
    return res.body as Occurrence;
  };
  const newForm = async (changes: Record<string, string | string[] | null>): Promise<FormPairs> => {
    const page = await getPage(t, admin.cookie, NEW);
    expect(page.status).toBe(200);
    return withFields(formPairs(page.html, 'event-form'), changes);
  };
  /** A weekly series made through the form: its first occurrence's id. */
  const formSeries = async (title: string): Promise<number> => {
    const res = await postForm(t, admin.cookie, NEW, await newForm({ title, ...WHEN, status: 'publish', ...WEEKLY, action: 'save' }));
    expect(res.status).toBe(303);
    return idFrom(res.location);
  };
  const openForm = async (id: number) => {
    const page = await getPage(t, admin.cookie, formOf(id));
    expect(page.status).toBe(200);
    return page;
  };
  /** The form of `id` as opened, with these changes, posted. */
  const post = async (id: number, changes: Record<string, string | string[] | null>) =>
    postForm(t, admin.cookie, formOf(id), withFields(formPairs((await openForm(id)).html, 'event-form'), changes));
  const shape = (list: Occurrence[]) => list.map((o) => [o.start_date, o.utc_start_date, o.status]);

  it('creates a weekly series from the form: the occurrences are those the API makes of the same rule, and it opens as entered', async () => {
    const id = await formSeries(uid('form-weekly'));
    const twin = await apiSeries(uid('api-weekly'));
    const mine = await occurrences(id);
    expect(mine).toHaveLength(6);
    expect(shape(mine)).toEqual(shape(await occurrences(twin.id)));
    expect((await read(id)).recurrence).toEqual(twin.recurrence);
    expect((await read(id)).series?.id).toBe(id);

    const page = await openForm(id);
    expect(control(page.html, 'Repeats').id).toBe('repeat');
    expect(page.html).toMatch(/<option value="weekly" selected>Weekly<\/option>/);
    expect(page.html).toContain('id="repeat_days_TU" name="repeat_days[]" value="TU" checked');
    expect(page.html).toContain('id="repeat_days_TH" name="repeat_days[]" value="TH" checked');
    expect(page.html).not.toContain('id="repeat_days_MO" name="repeat_days[]" value="MO" checked');
    expect(control(page.html, 'After').value).toBe('6');
  });

  it('"Show the next dates" lists the next five dates the API makes, in words too, keeps every value and writes nothing', async () => {
    const title = uid('preview');
    const res = await postForm(t, admin.cookie, NEW, await newForm({ title, ...WHEN, ...WEEKLY, repeat_count: '', repeat_ends: 'never', repeat_preview: '1' }));
    expect(res.status).toBe(200);
    const shown = [...res.html.matchAll(/<time datetime="([^"]+)">([^<]+)<\/time>/g)];
    expect(shown).toHaveLength(5);
    const twin = await apiSeries(uid('api-preview'), ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH']);
    const made = (await occurrences(twin.id)).slice(0, 5);
    expect(shown.map((m) => m[1])).toEqual(made.map((o) => `${o.utc_start_date.replace(' ', 'T')}Z`));
    expect(shown[0][2]).toBe('Tuesday 2 March 2027, 19:00');
    expect(textOf(res.html)).toContain('Every Tuesday and Thursday');
    expect(control(res.html, 'Title').value).toBe(title);
    expect(control(res.html, 'Start time').value).toBe('19:00');
    expect(res.html).toContain('id="repeat_days_TH" name="repeat_days[]" value="TH" checked');

    const found = await api().get(`${API}/events?search=${encodeURIComponent(title)}&status=publish,draft,pending,future,private`);
    expectStatus(found, 200);
    expect(found.body.events).toEqual([]);
  });

  it('saving a changed occurrence asks first; "This event" changes that occurrence alone and detaches it', async () => {
    const id = await formSeries(uid('this'));
    const third = (await occurrences(id))[2];
    const asked = await post(third.id, { title: 'Only the third', action: 'save' });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('<legend>Change which events?</legend>');
    for (const label of ['This event', 'This and following events', 'All events in the series'])
      expect(control(asked.html, label).id).toMatch(/^answer-scope-/);
    expect(alertText(asked.html)).toContain('Choose which events of the series the change applies to.');
    expect(control(asked.html, 'Title').value).toBe('Only the third');
    expect((await read(third.id)).title).toBe(third.title);

    const res = await postForm(
      t,
      admin.cookie,
      formOf(third.id),
      withFields(formPairs(asked.html, 'event-form'), { 'answers[scope]': 'this', action: 'save' }),
    );
    expect(res.status).toBe(303);
    const after = await occurrences(id);
    expect(after.map((o) => o.title)).toEqual([third.title, third.title, 'Only the third', third.title, third.title, third.title]);
    expect(after[2].series).toMatchObject({ id, detached: true });
  });

  it('saving an occurrence left as it was asks nothing and writes nothing: it stays a plain occurrence of its series', async () => {
    const id = await formSeries(uid('unchanged'));
    const second = (await occurrences(id))[1];
    const res = await post(second.id, { action: 'save' });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${formOf(second.id)}?saved=1`);
    const after = await read(second.id);
    expect(after.series).toMatchObject({ id, detached: false });
    expect((after as unknown as Json).modified_utc).toBe((second as unknown as Json).modified_utc);
  });

  it('"This and following events" splits the series as the API does', async () => {
    const id = await formSeries(uid('following'));
    const twin = await apiSeries(uid('api-following'));
    const fourth = (await occurrences(id))[3];
    const res = await post(fourth.id, { title: 'From the fourth', end_time: '21:00', 'answers[scope]': 'following', action: 'save' });
    expect(res.status).toBe(303);
    const twinFourth = (await occurrences(twin.id))[3];
    const split = await api().post(`${API}/events/${twinFourth.id}?scope=following`).send({ title: 'From the fourth', end_date: '2027-03-11 21:00:00' });
    expectStatus(split, 200);

    const [before, after] = [await occurrences(id), await occurrences(fourth.id)];
    const [twinBefore, twinAfter] = [await occurrences(twin.id), await occurrences(twinFourth.id)];
    expect(before).toHaveLength(3);
    expect(after.map((o) => o.series?.id)).toEqual([fourth.id, fourth.id, fourth.id]);
    expect(after.map((o) => o.title)).toEqual(['From the fourth', 'From the fourth', 'From the fourth']);
    expect(shape(before)).toEqual(shape(twinBefore));
    expect(shape(after)).toEqual(shape(twinAfter));
    expect((await read(id)).recurrence).toEqual((await read(twin.id)).recurrence);
    expect((await read(fourth.id)).recurrence).toEqual((await read(twinFourth.id)).recurrence);
  });

  it('"All events in the series" changes every occurrence', async () => {
    const id = await formSeries(uid('all'));
    const second = (await occurrences(id))[1];
    const res = await post(second.id, { title: 'Everyone', cost: '5', 'answers[scope]': 'all', action: 'save' });
    expect(res.status).toBe(303);
    const after = await occurrences(id);
    expect(after).toHaveLength(6);
    expect(after.map((o) => o.title)).toEqual(Array(6).fill('Everyone'));
    expect(after.every((o) => o.series?.detached === false)).toBe(true);
  });

  it('"Move to trash" on an occurrence asks which events; "This event" trashes it alone and it becomes an exception date', async () => {
    const id = await formSeries(uid('trash'));
    const second = (await occurrences(id))[1];
    const asked = await post(second.id, { action: 'trash' });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('<legend>Move which events to the trash?</legend>');
    expect(hasButton(asked.html, 'Move to trash')).toBe(true);
    expect((await read(second.id)).status).toBe('publish');

    const res = await postForm(
      t,
      admin.cookie,
      formOf(second.id),
      withFields(formPairs(asked.html, 'event-form'), { 'answers[scope]': 'this', action: 'trash' }),
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${formOf(second.id)}?trashed=1`);
    const left = await occurrences(id);
    expect(left.map((o) => o.id)).not.toContain(second.id);
    expect(left).toHaveLength(5);
    expect((await read(id)).recurrence).toEqual([(await read(id)).recurrence[0], 'EXDATE:20270304T190000']);
    expect(control((await openForm(id)).html, 'Exception dates').value).toBe('2027-03-04 19:00');
  });

  it("a bad rule comes back beside its field: the form's own check and the API's message", async () => {
    const title = uid('bad');
    const bad = await postForm(t, admin.cookie, NEW, await newForm({ title, ...WHEN, ...WEEKLY, repeat_interval: 'often', action: 'save' }));
    expect(bad.status).toBe(400);
    expect(control(bad.html, 'Every').messages).toContain('Enter a whole number of 1 or more.');
    expect(alertText(bad.html)).toContain('Enter a whole number of 1 or more.');
    expect(control(bad.html, 'Every').value).toBe('often');

    const hourly = await postForm(t, admin.cookie, NEW, await newForm({ title, ...WHEN, repeat: 'custom', repeat_rule: 'FREQ=HOURLY', action: 'save' }));
    expect(hourly.status).toBe(400);
    const refused = await api()
      .post(`${API}/events`)
      .send({ title, start_date: '2027-03-02 19:00:00', end_date: '2027-03-02 20:30:00', timezone: 'Europe/Paris', recurrence: ['RRULE:FREQ=HOURLY'] });
    expectStatus(refused, 400);
    const message = (refused.body as { data: { params: Json } }).data.params.recurrence;
    expect(control(hourly.html, 'Custom rule').messages).toContain(message);
    expect(alertText(hourly.html)).toContain(String(message));
    const found = await api().get(`${API}/events?search=${encodeURIComponent(title)}&status=publish,draft,pending,future,private`);
    expect(found.body.events).toEqual([]);
  });

  it('with recurrence off the form has no Repeats section and a save ignores its fields', async () => {
    const off = await createTestApp({ CALENDAR_RECURRENCE: 'off', CALENDAR_TIMEZONE: 'Europe/Paris' });
    try {
      const user = await signedInUser(off, 'otto', 'administrator');
      const page = await getPage(off, user.cookie, NEW);
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('id="repeat"');
      expect(page.html).not.toContain('Show the next dates');
      const pairs = withFields(formPairs(page.html, 'event-form'), { title: 'Single', ...WHEN, ...WEEKLY, action: 'save' });
      const res = await postForm(off, user.cookie, NEW, pairs);
      expect(res.status).toBe(303);
      const event = (await http(off, user.authorization).get(`${API}/events/${idFrom(res.location)}`)).body as Json;
      expect(event.title).toBe('Single');
      expect(event.recurrence).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
