// The event form's "Repeats" section (src/recurrence/rule-form.ts) against the real write path
// with CALENDAR_RECURRENCE=on: what the form writes is taken by the API, a series the API shows
// opens in the form as it was entered, the preview's dates are the occurrences the service makes,
// and what a save sends (no rule when unchanged, the scope asked) is what the API accepts.
import { uid } from '../../support/api';
import { expectStatus } from '../../support/expect';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';
import {
  deleteScopeQuestion,
  previewRule,
  readRuleForm,
  RuleFormEvent,
  ruleFormToRecurrence,
  recurrenceForScope,
  ruleLimits,
  ruleWrite,
  saveScopeQuestion,
  scopeOfAnswer,
  seriesToRuleForm,
} from '../../../src/recurrence/rule-form';
import type { SeriesTiming } from '../../../src/recurrence';

describe('the event form’s Repeats section on the real write path', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_RECURRENCE: 'on' });
    admin = (await t.userHeader('admin', 'administrator')).authorization;
  });
  afterAll(async () => t.close());

  const timing: SeriesTiming = { startDate: '2027-03-14 19:00:00', endDate: '2027-03-14 20:30:00', timezone: 'Europe/Berlin', allDay: false };
  const limits = ruleLimits({ recurrenceMax: 1000, recurrenceHorizonDays: 730 }, new Date().toISOString().slice(0, 19).replace('T', ' '));
  const read = async (id: number): Promise<RuleFormEvent> => {
    const res = await http(t, admin).get(`${API}/events/${id}`);
    expectStatus(res, 200);
    return res.body as RuleFormEvent;
  };
  /** A form post of the section, as qs parses `repeat_days[]=SU&…`. */
  const body = {
    repeat: 'weekly',
    repeat_interval: '1',
    repeat_days: ['SU'],
    repeat_ends: 'count',
    repeat_count: '6',
    repeat_exdates: '2027-03-28',
    repeat_rdates: '2027-04-01 18:00',
  };

  it('writes the series the form says, opens it as entered, and previews the occurrences the service made', async () => {
    const values = readRuleForm(body, timing.startDate);
    const w = ruleWrite(values, null, timing, limits);
    expect(w.errors).toEqual([]);
    const res = await http(t, admin)
      .post(`${API}/events`)
      .send({ title: uid('form'), start_date: timing.startDate, end_date: timing.endDate, timezone: timing.timezone, recurrence: w.recurrence });
    expectStatus(res, 201);
    const event = await read(res.body.id);
    expect(event.series?.id).toBe(event.id);

    const opened = seriesToRuleForm(event);
    expect(opened).toMatchObject({ ...body, repeat_rdates: '2027-04-01 18:00' });
    // Opened and saved unchanged: no rule is sent.
    expect(ruleWrite(opened, event, timing, limits)).toEqual({ ruleChanged: false, errors: [] });

    const made = await http(t, admin).get(`${API}/events/${event.id}/occurrences?per_page=50&start_date=2000-01-01&end_date=2099-12-31`);
    expectStatus(made, 200);
    const starts = (made.body.events as { start_date: string }[]).map((e) => e.start_date);
    // Six Sundays less the excluded 28 March, plus the extra Thursday.
    expect(starts).toEqual([
      '2027-03-14 19:00:00',
      '2027-03-21 19:00:00',
      '2027-04-01 18:00:00',
      '2027-04-04 19:00:00',
      '2027-04-11 19:00:00',
      '2027-04-18 19:00:00',
    ]);
    expect(previewRule(opened, timing, limits).dates.map((d) => d.start)).toEqual(starts.slice(0, 5));
  });

  it('saves an occurrence with "This event" (no rule sent), and a changed rule with "This and following events"', async () => {
    const res = await http(t, admin)
      .post(`${API}/events`)
      .send({
        title: uid('form'),
        start_date: timing.startDate,
        end_date: timing.endDate,
        timezone: timing.timezone,
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5', 'RDATE:20270317T190000'],
      });
    expectStatus(res, 201);
    const list = await http(t, admin).get(`${API}/events/${res.body.id}/occurrences?start_date=2000-01-01&end_date=2099-12-31`);
    // 14 March, the extra 17 March, 21 March, 28 March…: the fourth is 28 March.
    const third = await read((list.body.events as { id: number }[])[3].id);
    const thirdTiming: SeriesTiming = { startDate: third.start_date, endDate: third.end_date, timezone: third.timezone, allDay: third.all_day };

    // A title change only: the question offers all three, and "This event" saves without a rule.
    const unchanged = seriesToRuleForm(third);
    const same = ruleWrite(unchanged, third, thirdTiming, limits);
    const q = saveScopeQuestion(third, { fields: true, rule: same.ruleChanged });
    expect(q.choices.map((c) => c.label)).toEqual(['This event', 'This and following events', 'All events in the series']);
    const scope = scopeOfAnswer(q, { repeat_scope: 'this' });
    expectStatus(await http(t, admin).post(`${API}/events/${third.id}`).send({ title: 'Renamed', recurrence: same.recurrence, scope }), 200);
    expect((await read(third.id)).series?.detached).toBe(true);

    // The rule changed: "This event" is not offered, "This and following events" starts a new series here.
    const changed = ruleWrite({ ...unchanged, repeat_days: ['SU', 'WE'], repeat_ends: 'never' }, third, thirdTiming, limits);
    expect(changed).toMatchObject({ recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=WE,SU', 'RDATE:20270317T190000'], errors: [] });
    const q2 = saveScopeQuestion(third, { fields: false, rule: changed.ruleChanged });
    expect(q2.choices.map((c) => c.value)).toEqual(['following', 'all']);
    const saved = await http(t, admin)
      .post(`${API}/events/${third.id}`)
      .send({ recurrence: recurrenceForScope(changed.recurrence!, 'following', third), scope: scopeOfAnswer(q2, { repeat_scope: 'following' }) });
    expectStatus(saved, 200);
    const after = await read(third.id);
    expect(after.series?.id).toBe(third.id);
    expect(seriesToRuleForm(after)).toMatchObject({ repeat: 'weekly', repeat_days: ['WE', 'SU'], repeat_ends: 'never', repeat_rdates: '' });
    // The earlier part was cut with an UNTIL one second before this occurrence: it opens as the day before.
    const first = await read(res.body.id);
    expect(seriesToRuleForm(first)).toMatchObject({ repeat: 'weekly', repeat_ends: 'until', repeat_until: '2027-03-27', repeat_rdates: '2027-03-17 19:00' });

    // Deleting one occurrence asks, and "This event" adds it to the exception dates.
    const second = (list.body.events as { id: number }[])[2].id;
    const dq = deleteScopeQuestion(await read(second));
    expect(dq.ask).toBe(true);
    expectStatus(await http(t, admin).delete(`${API}/events/${second}?scope=${scopeOfAnswer(dq, { repeat_scope: 'this' })}`), 200);
    expect(seriesToRuleForm(await read(res.body.id)).repeat_exdates).toBe('2027-03-21 19:00');
    expect(ruleFormToRecurrence(seriesToRuleForm(await read(res.body.id)), timing, limits).errors).toEqual([]);
  });
});
