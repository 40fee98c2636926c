import { describeRecurrence } from './describe';
import { expandRecurrence } from './expand';
import { parseRecurrence, RecurrenceError, SeriesTiming } from './recurrence-rule';
import {
  deleteScopeQuestion,
  emptyRuleForm,
  isPreviewRequest,
  previewRule,
  readRuleForm,
  RuleFormEvent,
  ruleFormToRecurrence,
  RuleFormValues,
  recurrenceForScope,
  ruleLimits,
  ruleWrite,
  saveScopeQuestion,
  scopeOfAnswer,
  seriesToRuleForm,
} from './rule-form';
import { renderRuleSection } from './rule-form-html';
import { renderScopeQuestion } from './rule-form-scope';
import { RecurrenceLimits, validateRecurrence } from './validate-recurrence';

const limits: RecurrenceLimits = { max: 1000, horizon: '2029-01-01 00:00:00' };
const ny: SeriesTiming = { startDate: '2027-01-05 19:00:00', endDate: '2027-01-05 20:00:00', timezone: 'America/New_York', allDay: false };
const berlin = (startDate: string): SeriesTiming => ({ startDate, endDate: `${startDate.slice(0, 11)}20:30:00`, timezone: 'Europe/Berlin', allDay: false });

/** The form's values for a start, with these fields changed. */
function form(changes: Partial<RuleFormValues>, start = ny.startDate): RuleFormValues {
  return { ...emptyRuleForm(start), ...changes };
}

/** The event as the API would show it after writing these lines for this timing: the lines normalised by the API's validator. */
function savedEvent(lines: string[], timing: SeriesTiming, id = 57, seriesId = 57): RuleFormEvent {
  const valid = validateRecurrence(lines, timing, limits);
  return {
    id,
    start_date: timing.startDate,
    end_date: timing.endDate,
    timezone: timing.timezone,
    all_day: timing.allDay,
    recurrence: valid.lines,
    series: { id: seriesId, original_start: timing.startDate, detached: false },
  };
}

/** Form → recurrence → what the API stores → form: the structured fields come back as entered. */
function roundTrip(values: RuleFormValues, timing = ny): { lines: string[]; back: RuleFormValues } {
  const { recurrence, errors } = ruleFormToRecurrence(values, timing, limits);
  expect(errors).toEqual([]);
  return { lines: recurrence, back: seriesToRuleForm(savedEvent(recurrence, timing)) };
}

describe('ruleFormToRecurrence and seriesToRuleForm: each kind of repeat there and back', () => {
  it.each<[string, Partial<RuleFormValues>, string[]]>([
    [
      'daily every 3 days, 10 times',
      { repeat: 'daily', repeat_interval: '3', repeat_ends: 'count', repeat_count: '10' },
      ['RRULE:FREQ=DAILY;INTERVAL=3;COUNT=10'],
    ],
    [
      'weekly on Tuesday and Thursday until a date',
      { repeat: 'weekly', repeat_days: ['TH', 'TU'], repeat_ends: 'until', repeat_until: '2027-12-31' },
      ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231'],
    ],
    ['every 2 weeks on Monday', { repeat: 'weekly', repeat_interval: '2', repeat_days: ['MO'] }, ['RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO']],
    ['monthly on day 15', { repeat: 'monthly', repeat_monthly: 'day', repeat_monthday: '15' }, ['RRULE:FREQ=MONTHLY;BYMONTHDAY=15']],
    ['monthly on the last Friday', { repeat: 'monthly', repeat_monthly: 'weekday', repeat_nth: '-1', repeat_weekday: 'FR' }, ['RRULE:FREQ=MONTHLY;BYDAY=-1FR']],
    [
      'monthly on the second Tuesday',
      { repeat: 'monthly', repeat_monthly: 'weekday', repeat_nth: '2', repeat_weekday: 'TU' },
      ['RRULE:FREQ=MONTHLY;BYDAY=2TU'],
    ],
    ['yearly', { repeat: 'yearly' }, ['RRULE:FREQ=YEARLY']],
    [
      'custom: the last weekday of each month',
      { repeat: 'custom', repeat_rule: 'RRULE:freq=monthly;byday=MO,TU,WE,TH,FR;bysetpos=-1' },
      ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'],
    ],
    [
      'weekly with exception and extra dates, days and times',
      { repeat: 'weekly', repeat_days: ['TU'], repeat_exdates: '2027-01-19\n 2027-01-12 19:00 \n', repeat_rdates: '2027-07-04 18:30\r\n2027-07-06' },
      ['RRULE:FREQ=WEEKLY;BYDAY=TU', 'RDATE:20270704T183000', 'RDATE;VALUE=DATE:20270706', 'EXDATE:20270112T190000', 'EXDATE;VALUE=DATE:20270119'],
    ],
  ])('%s', (_name, changes, expected) => {
    const values = form(changes);
    const { lines, back } = roundTrip(values);
    expect(lines).toEqual(expected);
    const entered = { ...values, repeat_days: [...values.repeat_days].sort(), repeat_exdates: '', repeat_rdates: '' };
    const opened = { ...back, repeat_days: [...back.repeat_days].sort(), repeat_exdates: '', repeat_rdates: '' };
    if (values.repeat === 'custom') expect(back.repeat_rule).toBe(expected[0].slice(6));
    else expect({ ...opened, repeat_rule: '' }).toEqual({ ...entered, repeat_rule: '' });
    // Opened and saved again unchanged, the form writes the same lines.
    expect(ruleFormToRecurrence(back, ny, limits).recurrence).toEqual(lines);
  });

  it('shows exception and extra dates one per line, as days or wall times in the event’s zone', () => {
    const { back } = roundTrip(
      form({ repeat: 'weekly', repeat_days: ['TU'], repeat_exdates: '2027-01-19\n2027-01-12 19:00', repeat_rdates: '2027-07-04 18:30:15' }),
    );
    expect(back.repeat_exdates).toBe('2027-01-12 19:00\n2027-01-19');
    expect(back.repeat_rdates).toBe('2027-07-04 18:30:15');
    // A UTC EXDATE written through the API shows as the wall time it is in the series' zone.
    const event = savedEvent(['RRULE:FREQ=WEEKLY', 'EXDATE:20270113T000000Z'], ny);
    expect(seriesToRuleForm(event).repeat_exdates).toBe('2027-01-12 19:00');
  });

  it('keeps an all-day series’ dates as days and its last date as written', () => {
    const allDay: SeriesTiming = { startDate: '2027-01-05 00:00:00', endDate: '2027-01-05 23:59:59', timezone: 'Asia/Tokyo', allDay: true };
    const values = form(
      { repeat: 'weekly', repeat_days: ['TU'], repeat_ends: 'until', repeat_until: '2027-03-02', repeat_exdates: '2027-01-12 10:00' },
      allDay.startDate,
    );
    const { lines, back } = roundTrip(values, allDay);
    expect(lines).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270302', 'EXDATE;VALUE=DATE:20270112']);
    expect(back).toMatchObject({ repeat: 'weekly', repeat_ends: 'until', repeat_until: '2027-03-02', repeat_exdates: '2027-01-12' });
  });

  it('opens rules the API was given in other words as the structured kind that means the same', () => {
    expect(seriesToRuleForm(savedEvent(['RRULE:FREQ=WEEKLY'], ny))).toMatchObject({ repeat: 'weekly', repeat_days: ['TU'] });
    expect(seriesToRuleForm(savedEvent(['RRULE:FREQ=MONTHLY'], ny))).toMatchObject({ repeat: 'monthly', repeat_monthly: 'day', repeat_monthday: '5' });
    const leap: SeriesTiming = { ...ny, startDate: '2028-02-29 19:00:00', endDate: '2028-02-29 20:00:00' };
    expect(seriesToRuleForm(savedEvent(['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'], leap))).toMatchObject({ repeat: 'yearly' });
  });

  it('opens what the structured fields cannot say as a custom rule with its RRULE text', () => {
    for (const line of [
      'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1',
      'RRULE:FREQ=DAILY;BYMONTH=7,8',
      'RRULE:FREQ=MONTHLY;BYDAY=5TU',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    ]) {
      const event = savedEvent([line, 'EXDATE:20270112T190000'], ny);
      const values = seriesToRuleForm(event);
      expect(values).toMatchObject({ repeat: 'custom', repeat_rule: event.recurrence![0].slice(6), repeat_exdates: '2027-01-12 19:00' });
      expect(ruleFormToRecurrence(values, ny, limits).recurrence).toEqual(event.recurrence);
    }
    // Extra dates without a rule.
    const dates = savedEvent(['RDATE:20270704T190000'], ny);
    expect(seriesToRuleForm(dates)).toMatchObject({ repeat: 'custom', repeat_rule: '', repeat_rdates: '2027-07-04 19:00' });
    expect(ruleFormToRecurrence(seriesToRuleForm(dates), ny, limits)).toEqual({ recurrence: ['RDATE:20270704T190000'], errors: [] });
  });

  it('shows an UNTIL one second before an occurrence (a series cut there) as the day before it', () => {
    // The API cuts a series before 2027-01-19 19:00 New York (00:00 UTC on the 20th) with UNTIL one second earlier.
    const event = savedEvent(['RRULE:FREQ=WEEKLY;UNTIL=20270119T235959Z'], ny);
    const values = seriesToRuleForm(event);
    expect(values).toMatchObject({ repeat: 'weekly', repeat_ends: 'until', repeat_until: '2027-01-18' });
    const { recurrence } = ruleFormToRecurrence(values, ny, limits);
    const starts = (lines: string[]) => validateRecurrence(lines, ny, limits).expansion.occurrences.map((o) => o.start);
    expect(starts(recurrence)).toEqual(starts(event.recurrence!));
  });

  it('opens an event outside a series as "never", ready with its start’s day for weekly and monthly', () => {
    const plain: RuleFormEvent = {
      id: 3,
      start_date: '2027-01-29 19:00:00',
      end_date: '2027-01-29 20:00:00',
      timezone: 'UTC',
      all_day: false,
      recurrence: [],
      series: null,
    };
    expect(seriesToRuleForm(plain)).toMatchObject({ repeat: 'never', repeat_days: ['FR'], repeat_monthday: '29', repeat_nth: '-1', repeat_weekday: 'FR' });
    expect(emptyRuleForm('2027-01-12')).toMatchObject({ repeat_nth: '2', repeat_weekday: 'TU' });
    expect(ruleFormToRecurrence(form({ repeat: 'never', repeat_exdates: 'nonsense' }), ny, limits)).toEqual({ recurrence: [], errors: [] });
  });
});

describe('readRuleForm: the body as qs parses it', () => {
  it('reads the section’s fields and leaves the event’s own alone', () => {
    const values = readRuleForm({
      title: 'Yoga',
      repeat: 'weekly',
      repeat_interval: '2',
      repeat_days: ['WE', 'MO', 'XX'],
      repeat_ends: 'count',
      repeat_count: '4',
      repeat_exdates: '2027-01-12',
    });
    expect(values).toMatchObject({
      repeat: 'weekly',
      repeat_interval: '2',
      repeat_days: ['MO', 'WE'],
      repeat_ends: 'count',
      repeat_count: '4',
      repeat_exdates: '2027-01-12',
    });
    expect(Object.keys(values)).not.toContain('title');
  });

  it('keeps no day when none was ticked, takes "After" or "On date" filled as the way it ends, and knows the preview button', () => {
    expect(readRuleForm({ repeat: 'weekly' }).repeat_days).toEqual([]);
    expect(readRuleForm({ repeat: 'daily', repeat_count: '3' }).repeat_ends).toBe('count');
    expect(readRuleForm({ repeat: 'daily', repeat_until: '2027-02-01' }).repeat_ends).toBe('until');
    expect(readRuleForm({ repeat: 'bogus' }).repeat).toBe('never');
    expect(isPreviewRequest({ repeat_preview: '1' })).toBe(true);
    expect(isPreviewRequest({ repeat: 'daily' })).toBe(false);
  });
});

describe('ruleFormToRecurrence: field errors', () => {
  const errorsOf = (changes: Partial<RuleFormValues>, timing: SeriesTiming | null = ny, lim: RecurrenceLimits = limits) =>
    ruleFormToRecurrence(form(changes), timing, lim).errors;
  /** The message the API gives for these lines (data.params.recurrence). */
  const apiMessage = (lines: string[], lim = limits) => {
    try {
      validateRecurrence(lines, ny, lim);
    } catch (e) {
      if (e instanceof RecurrenceError) return e.message;
      throw e;
    }
    throw new Error('the API took these lines');
  };

  it.each<[string, Partial<RuleFormValues>, string, RegExp]>([
    ['weekly with no day', { repeat: 'weekly', repeat_days: [] }, 'repeat_days_MO', /at least one day/],
    ['an interval of 0', { repeat: 'daily', repeat_interval: '0' }, 'repeat_interval', /1 or more/],
    ['a count of 0', { repeat: 'daily', repeat_ends: 'count', repeat_count: '0' }, 'repeat_count', /whole number/],
    ['a count that is not a number', { repeat: 'daily', repeat_ends: 'count', repeat_count: '2.5' }, 'repeat_count', /whole number/],
    ['a count left empty', { repeat: 'daily', repeat_ends: 'count', repeat_count: '' }, 'repeat_count', /whole number/],
    ['a last date before the start', { repeat: 'daily', repeat_ends: 'until', repeat_until: '2027-01-04' }, 'repeat_until', /before the event's start/],
    ['a last date that is no date', { repeat: 'daily', repeat_ends: 'until', repeat_until: '2027-02-30' }, 'repeat_until', /YYYY-MM-DD/],
    ['a day of the month of 32', { repeat: 'monthly', repeat_monthly: 'day', repeat_monthday: '32' }, 'repeat_monthday', /1 to 31/],
    ['a week of the month that is none', { repeat: 'monthly', repeat_monthly: 'weekday', repeat_nth: '7', repeat_weekday: 'FR' }, 'repeat_nth', /first/],
    ['an exception date that is none', { repeat: 'daily', repeat_exdates: '2027-01-12\n12/01/2027' }, 'repeat_exdates', /"12\/01\/2027" is not a date/],
    ['an extra date at 25:00', { repeat: 'daily', repeat_rdates: '2027-01-12 25:00' }, 'repeat_rdates', /is not a date/],
    ['an empty custom rule', { repeat: 'custom', repeat_rule: ' ' }, 'repeat_rule', /Enter a rule/],
  ])('%s', (_name, changes, field, message) => {
    const errors = errorsOf(changes);
    expect(errors).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it('says what the API says of a custom rule it refuses, beside "Custom rule"', () => {
    for (const rule of ['FREQ=HOURLY', 'FREQ=DAILY;COUNT=3;UNTIL=20270201', 'FREQ=WEEKLY;BYMONTHDAY=3', 'FREQ=DAILY;FOO=1', 'RRULE:FREQ=WEEKLY;BYDAY=ZZ']) {
      const text = rule.replace(/^RRULE:/, '');
      expect(errorsOf({ repeat: 'custom', repeat_rule: rule })).toEqual([{ field: 'repeat_rule', message: apiMessage([`RRULE:${text}`]) }]);
    }
    expect(errorsOf({ repeat: 'custom', repeat_rule: 'FREQ=DAILY\nRDATE:20270101' })[0].field).toBe('repeat_rule');
  });

  it('checks the whole rule with the API’s validator: too many occurrences, none at all, the start excluded, an extra date before it', () => {
    const few = { max: 10, horizon: limits.horizon };
    expect(errorsOf({ repeat: 'daily' }, ny, few)).toEqual([{ field: 'repeat', message: apiMessage(['RRULE:FREQ=DAILY'], few) }]);
    expect(errorsOf({ repeat: 'custom', repeat_rule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' })).toEqual([]);
    expect(errorsOf({ repeat: 'daily', repeat_exdates: '2027-01-05' })).toEqual([
      { field: 'repeat_exdates', message: "The rule's first occurrence must be the event itself (an EXDATE removes it)." },
    ]);
    expect(errorsOf({ repeat: 'daily', repeat_ends: 'count', repeat_count: '3', repeat_rdates: '2027-01-01 10:00' })).toEqual([
      { field: 'repeat_rdates', message: apiMessage(['RRULE:FREQ=DAILY;COUNT=3', 'RDATE:20270101T100000']) },
    ]);
  });

  it('checks the section’s own fields when the event’s start is itself wrong', () => {
    expect(errorsOf({ repeat: 'weekly', repeat_days: [] }, null)).toEqual([{ field: 'repeat_days_MO', message: 'Choose at least one day of the week.' }]);
    expect(errorsOf({ repeat: 'daily', repeat_ends: 'until', repeat_until: '2000-01-01' }, null)).toEqual([]);
  });
});

describe('previewRule: the words of the public page and the next dates from the service’s expander', () => {
  /** What the service's expander gives for these lines: the first `n` starts from `from`. */
  const expanded = (lines: string[], timing: SeriesTiming, from?: string) =>
    expandRecurrence(timing, parseRecurrence(lines, timing), { from, to: '2100-01-01 00:00:00' }, 5).occurrences.map((o) => ({
      start: o.start,
      utcStart: o.utcStart,
    }));
  const shown = (p: ReturnType<typeof previewRule>) => p.dates.map(({ start, utcStart }) => ({ start, utcStart }));

  it('weekly across the spring change in Europe/Berlin: 19:00 on the clock, an hour earlier in UTC', () => {
    const timing = berlin('2027-03-14 19:00:00');
    const p = previewRule(form({ repeat: 'weekly', repeat_days: ['SU'] }, timing.startDate), timing, limits);
    expect(p.errors).toEqual([]);
    expect(p.words).toBe('Every Sunday');
    expect(shown(p)).toEqual(expanded(['RRULE:FREQ=WEEKLY;BYDAY=SU'], timing));
    expect(shown(p)).toEqual([
      { start: '2027-03-14 19:00:00', utcStart: '2027-03-14 18:00:00' },
      { start: '2027-03-21 19:00:00', utcStart: '2027-03-21 18:00:00' },
      { start: '2027-03-28 19:00:00', utcStart: '2027-03-28 17:00:00' },
      { start: '2027-04-04 19:00:00', utcStart: '2027-04-04 17:00:00' },
      { start: '2027-04-11 19:00:00', utcStart: '2027-04-11 17:00:00' },
    ]);
    expect(p.dates[2].label).toBe('Sunday 28 March 2027, 19:00');
  });

  it('monthly on the last Friday', () => {
    const timing = berlin('2027-01-29 19:00:00');
    const values = form({ repeat: 'monthly', repeat_monthly: 'weekday', repeat_nth: '-1', repeat_weekday: 'FR' }, timing.startDate);
    const p = previewRule(values, timing, limits);
    expect(p.words).toBe(describeRecurrence(parseRecurrence(['RRULE:FREQ=MONTHLY;BYDAY=-1FR'], timing), timing));
    expect(p.words).toBe('Every month on the last Friday');
    expect(shown(p)).toEqual(expanded(['RRULE:FREQ=MONTHLY;BYDAY=-1FR'], timing));
    expect(p.dates.map((d) => d.start.slice(0, 10))).toEqual(['2027-01-29', '2027-02-26', '2027-03-26', '2027-04-30', '2027-05-28']);
  });

  it('yearly from 29 February: leap years only, beyond the horizon too', () => {
    const timing = berlin('2028-02-29 19:00:00');
    const p = previewRule(form({ repeat: 'yearly' }, timing.startDate), timing, limits);
    expect(p.words).toBe('Every year on 29 February');
    expect(shown(p)).toEqual(expanded(['RRULE:FREQ=YEARLY'], timing));
    expect(p.dates.map((d) => d.start.slice(0, 10))).toEqual(['2028-02-29', '2032-02-29', '2036-02-29', '2040-02-29', '2044-02-29']);
  });

  it('stops at the count and at the last date', () => {
    const timing = berlin('2027-01-05 19:00:00');
    const counted = previewRule(form({ repeat: 'weekly', repeat_days: ['TU'], repeat_ends: 'count', repeat_count: '3' }, timing.startDate), timing, limits);
    expect(counted.words).toBe('Every Tuesday, 3 times');
    expect(counted.dates.map((d) => d.start)).toEqual(['2027-01-05 19:00:00', '2027-01-12 19:00:00', '2027-01-19 19:00:00']);
    const until = previewRule(form({ repeat: 'daily', repeat_ends: 'until', repeat_until: '2027-01-07' }, timing.startDate), timing, limits);
    expect(until.words).toBe('Every day until 7 January 2027');
    expect(until.dates.map((d) => d.start)).toEqual(['2027-01-05 19:00:00', '2027-01-06 19:00:00', '2027-01-07 19:00:00']);
    expect(shown(until)).toEqual(expanded(['RRULE:FREQ=DAILY;UNTIL=20270107'], timing));
  });

  it('lists the next dates from a given instant, with exceptions and extra dates applied, and all-day dates without a time', () => {
    const timing = berlin('2027-01-05 19:00:00');
    const values = form({ repeat: 'daily', repeat_exdates: '2027-02-02', repeat_rdates: '2027-02-03 08:00' }, timing.startDate);
    const p = previewRule(values, timing, limits, '2027-02-01 00:00:00');
    expect(p.words).toBe('Every day, plus 1 other date, except 1 date');
    expect(p.dates.map((d) => d.start)).toEqual([
      '2027-02-01 19:00:00',
      '2027-02-03 08:00:00',
      '2027-02-03 19:00:00',
      '2027-02-04 19:00:00',
      '2027-02-05 19:00:00',
    ]);
    const allDay: SeriesTiming = { startDate: '2027-01-05 00:00:00', endDate: '2027-01-05 23:59:59', timezone: 'Europe/Berlin', allDay: true };
    expect(previewRule(form({ repeat: 'weekly', repeat_days: ['TU'] }, allDay.startDate), allDay, limits).dates[0].label).toBe('Tuesday 5 January 2027');
  });

  it('gives the errors a save would give, and nothing for "never"', () => {
    const timing = berlin('2027-01-05 19:00:00');
    expect(previewRule(form({ repeat: 'weekly', repeat_days: [] }), timing, limits)).toEqual({
      words: '',
      dates: [],
      errors: [{ field: 'repeat_days_MO', message: 'Choose at least one day of the week.' }],
    });
    expect(previewRule(form({ repeat: 'never' }), timing, limits)).toEqual({ words: '', dates: [], errors: [] });
  });

  it('computes the limits as the API’s writes do', () => {
    expect(ruleLimits({ recurrenceMax: 1000, recurrenceHorizonDays: 730 }, '2027-01-01 00:00:00')).toEqual({ max: 1000, horizon: '2028-12-31 00:00:00' });
  });
});

describe('ruleWrite: what a save adds to the event’s write', () => {
  const series = savedEvent(['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10'], ny);
  const opened = seriesToRuleForm(series);

  it('sends no rule when it did not change, so that a save of one occurrence is allowed', () => {
    expect(ruleWrite(opened, series, ny, limits)).toEqual({ ruleChanged: false, errors: [] });
  });

  it('sends the changed rule, [] to end a series, and nothing for an event that stays single', () => {
    expect(ruleWrite({ ...opened, repeat_count: '12' }, series, ny, limits)).toEqual({
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=12'],
      ruleChanged: true,
      errors: [],
    });
    expect(ruleWrite({ ...opened, repeat: 'never' }, series, ny, limits)).toEqual({ recurrence: [], ruleChanged: true, errors: [] });
    const single: RuleFormEvent = { ...series, recurrence: [], series: null };
    expect(ruleWrite(form({}), single, ny, limits)).toEqual({ ruleChanged: false, errors: [] });
    expect(ruleWrite(form({}), null, ny, limits)).toEqual({ ruleChanged: false, errors: [] });
    expect(ruleWrite(form({ repeat: 'daily' }), null, ny, limits)).toEqual({ recurrence: ['RRULE:FREQ=DAILY'], ruleChanged: true, errors: [] });
    expect(ruleWrite(form({ repeat: 'daily', repeat_interval: 'x' }), null, ny, limits).errors).toHaveLength(1);
  });
});

describe('an occurrence other than the first: the series from here', () => {
  const lines = [
    'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10',
    'RDATE:20270107T190000',
    'RDATE;VALUE=DATE:20270304',
    'EXDATE;VALUE=DATE:20270112',
    'EXDATE:20270223T190000',
  ];
  const whole = savedEvent(lines, ny);
  const later: RuleFormEvent = {
    ...whole,
    id: 61,
    start_date: '2027-02-02 19:00:00',
    end_date: '2027-02-02 20:00:00',
    series: { id: 57, original_start: '2027-02-02 19:00:00', detached: false },
  };
  const laterTiming: SeriesTiming = { ...ny, startDate: later.start_date, endDate: later.end_date };

  it('leaves the dates before this occurrence to the earlier part with "This and following events"', () => {
    expect(recurrenceForScope(whole.recurrence!, 'following', later)).toEqual([whole.recurrence![0], 'RDATE;VALUE=DATE:20270304', 'EXDATE:20270223T190000']);
    expect(recurrenceForScope(whole.recurrence!, 'all', later)).toEqual(whole.recurrence);
    expect(recurrenceForScope(whole.recurrence!, 'following', whole)).toEqual(whole.recurrence);
    // A UTC value is compared as the wall time it is in the event's zone.
    expect(recurrenceForScope(['RDATE:20270203T000000Z', 'RDATE:20270202T235959Z'], 'following', later)).toEqual(['RDATE:20270203T000000Z']);
  });

  it('does not refuse the earlier extra dates of an unchanged or a changed rule, and previews from here', () => {
    const opened = seriesToRuleForm(later);
    expect(ruleWrite(opened, later, laterTiming, limits)).toEqual({ ruleChanged: false, errors: [] });
    // Checked against this occurrence's start, the earlier RDATE alone would be refused.
    expect(ruleFormToRecurrence(opened, laterTiming, limits).errors.map((e) => e.field)).toEqual(['repeat_rdates']);
    const changed = ruleWrite({ ...opened, repeat_count: '', repeat_ends: 'never' }, later, laterTiming, limits);
    expect(changed).toEqual({ recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU', ...whole.recurrence!.slice(1)], ruleChanged: true, errors: [] });
    const p = previewRule(opened, laterTiming, limits, undefined, later);
    expect(p.errors).toEqual([]);
    expect(p.dates.map((d) => d.start.slice(0, 10))).toEqual(['2027-02-02', '2027-02-09', '2027-02-16', '2027-03-02', '2027-03-04']);
  });
});

describe('the this / following / all question', () => {
  const first = { id: 57, series: { id: 57, original_start: '2027-01-05 19:00:00' } };
  const later = { id: 60, series: { id: 57, original_start: '2027-01-26 19:00:00' } };
  const single = { id: 3, series: null };
  const labels = (q: ReturnType<typeof saveScopeQuestion>) => q.choices.map((c) => `${c.value}: ${c.label}`);

  it('asks on saving a changed occurrence, with the three choices', () => {
    const q = saveScopeQuestion(later, { fields: true, rule: false });
    expect(q.ask).toBe(true);
    expect(labels(q)).toEqual(['this: This event', 'following: This and following events', 'all: All events in the series']);
    expect(labels(saveScopeQuestion(first, { fields: true, rule: false }))).toEqual(['this: This event', 'all: All events in the series']);
  });

  it('does not offer "This event" for a changed rule, and takes the only choice left without asking', () => {
    expect(labels(saveScopeQuestion(later, { fields: false, rule: true }))).toEqual(['following: This and following events', 'all: All events in the series']);
    expect(saveScopeQuestion(first, { fields: true, rule: true })).toMatchObject({ ask: false, scope: 'all' });
  });

  it('does not ask outside a series or when nothing changed', () => {
    expect(saveScopeQuestion(single, { fields: true, rule: true })).toEqual({ ask: false, choices: [] });
    expect(saveScopeQuestion(later, { fields: false, rule: false })).toEqual({ ask: false, choices: [] });
    expect(deleteScopeQuestion(single)).toEqual({ ask: false, choices: [] });
  });

  it('asks on deleting an occurrence', () => {
    expect(labels(deleteScopeQuestion(later))).toEqual(['this: This event', 'following: This and following events', 'all: All events in the series']);
    expect(labels(deleteScopeQuestion(first))).toEqual(['this: This event', 'all: All events in the series']);
  });

  it('maps the answer to the API’s scope, and refuses one that was not offered', () => {
    const q = saveScopeQuestion(later, { fields: false, rule: true });
    expect(scopeOfAnswer(q, { repeat_scope: 'following' })).toBe('following');
    expect(scopeOfAnswer(q, { repeat_scope: 'this' })).toBeNull();
    expect(scopeOfAnswer(q, {})).toBeNull();
    expect(scopeOfAnswer(saveScopeQuestion(first, { fields: true, rule: true }), {})).toBe('all');
    expect(scopeOfAnswer(saveScopeQuestion(single, { fields: true, rule: false }), { repeat_scope: 'all' })).toBeUndefined();
  });

  it('renders the question as a group of labelled radios', () => {
    const html = renderScopeQuestion(deleteScopeQuestion(later), 'Delete which events?', 'following');
    expect(html).toContain('<legend>Delete which events?</legend>');
    expect(html).toContain('<input type="radio" id="repeat_scope_following" name="repeat_scope" value="following" checked>');
    expect(html).toContain('<label for="repeat_scope_all">All events in the series</label>');
    const refused = renderScopeQuestion(deleteScopeQuestion(later), 'Delete which events?', undefined, 'Choose one.');
    expect(refused).toContain('aria-describedby="repeat_scope-error"');
    expect(refused).toContain('<p class="field-error" id="repeat_scope-error">Choose one.</p>');
    expect(renderScopeQuestion(deleteScopeQuestion(single), 'x')).toBe('');
  });
});

describe('renderRuleSection', () => {
  /** The id of the control a `<label for>` with this exact text names. */
  const labelled = (html: string, text: string) =>
    [...html.matchAll(/<label for="([^"]+)"[^>]*>([^<]*)</g)].filter((m) => m[2].trim() === text).map((m) => m[1]);

  it('labels every field with the names a test finds, and groups radios and boxes in fieldsets', () => {
    const html = renderRuleSection(form({ repeat: 'weekly', repeat_days: ['TU', 'TH'] }), [], null);
    for (const [text, id] of [
      ['Repeats', 'repeat'],
      ['Every', 'repeat_interval'],
      ['After', 'repeat_count'],
      ['On date', 'repeat_until'],
      ['Exception dates', 'repeat_exdates'],
      ['Extra dates', 'repeat_rdates'],
      ['Custom rule', 'repeat_rule'],
    ]) {
      expect(labelled(html, text)).toEqual([id]);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toMatch(/<fieldset[^>]*><legend>On<\/legend>/);
    expect(html).toMatch(/<fieldset[^>]*><legend>Ends<\/legend>/);
    expect(html).toContain('<input type="checkbox" id="repeat_days_TU" name="repeat_days[]" value="TU" checked>');
    expect(html).toContain('<input type="checkbox" id="repeat_days_WE" name="repeat_days[]" value="WE">');
    expect(html).toContain('<option value="weekly" selected>Weekly</option>');
    expect(html).toContain('<button type="submit" name="repeat_preview" value="1" formnovalidate>Show the next dates</button>');
    // Every control has a label.
    const ids = [...html.matchAll(/<(?:input|select|textarea) [^>]*id="([^"]+)"/g)].map((m) => m[1]);
    for (const id of ids) expect(html).toContain(`<label for="${id}"`);
  });

  it('escapes every value', () => {
    const html = renderRuleSection(
      form({ repeat: 'custom', repeat_rule: '"><script>alert(1)</script>', repeat_exdates: '</textarea><b>x</b>', repeat_count: `1" onfocus="x` }),
      [{ field: 'repeat_rule', message: 'Bad <rule> & "quote"' }],
      { words: 'Every <b>day</b>', dates: [{ start: '2027-01-05 19:00:00', utcStart: '2027-01-05 18:00:00', label: '<i>x</i>' }], errors: [] },
    );
    expect(html).not.toMatch(/<script|<b>|<i>|onfocus="x"|<\/textarea><b>/);
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain('Bad &lt;rule&gt; &amp; &quot;quote&quot;');
    expect(html).toContain('Every &lt;b&gt;day&lt;/b&gt;');
  });

  it('puts each error beside its field, tied with aria-describedby', () => {
    const errors = ruleFormToRecurrence(form({ repeat: 'weekly', repeat_days: [], repeat_ends: 'count', repeat_count: '0' }), ny, limits).errors;
    const html = renderRuleSection(form({ repeat: 'weekly', repeat_days: [], repeat_ends: 'count', repeat_count: '0' }), errors, null);
    expect(html).toMatch(/<input id="repeat_count" [^>]*aria-describedby="repeat_count-error" aria-invalid="true">/);
    expect(html).toContain('<p class="field-error" id="repeat_count-error">Enter how many times: a whole number of 1 or more.</p>');
    expect(html).toMatch(/<input type="checkbox" id="repeat_days_MO"[^>]*aria-describedby="repeat_days_MO-error"/);
    expect(html).toContain('<p class="field-error" id="repeat_days_MO-error">Choose at least one day of the week.</p>');
    expect(html).not.toContain('repeat_interval-error');
  });

  it('shows the preview: the words and the next dates', () => {
    const timing = berlin('2027-03-14 19:00:00');
    const values = form({ repeat: 'weekly', repeat_days: ['SU'], repeat_ends: 'count', repeat_count: '2' }, timing.startDate);
    const html = renderRuleSection(values, [], previewRule(values, timing, limits));
    expect(html).toContain('<p class="recurrence-rule">Every Sunday, 2 times</p>');
    expect(html).toContain('<li><time datetime="2027-03-14T18:00:00Z">Sunday 14 March 2027, 19:00</time></li>');
    expect(html).toContain('<li><time datetime="2027-03-21T18:00:00Z">Sunday 21 March 2027, 19:00</time></li>');
    expect(renderRuleSection(values, [], null)).not.toContain('recurrence-next');
  });
});
