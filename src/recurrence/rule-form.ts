import { utcSqlMillis, utcToWall } from '../common/datetime/format';
import { describeRecurrence } from './describe';
import { expandRecurrence } from './expand';
import { parseRecurrence, ParsedRrule, RecurrenceError, RecurrenceRule, RuleDate, rruleValue, SeriesTiming } from './recurrence-rule';
import { Scope } from './series-plan';
import { RecurrenceLimits, validateRecurrence } from './validate-recurrence';

export { deleteScopeQuestion, SCOPE_ERROR, SCOPE_FIELD, type ScopeChoice, type ScopeQuestion, saveScopeQuestion, scopeOfAnswer } from './rule-form-scope';

// The "Repeats" part of the event form (editing.md §3): the form's fields, what they mean as the
// `recurrence` write field (recurrence.md §2), the way back from a series as the API shows it, the
// preview of the next dates and the this / following / all question (recurrence.md §4). Pure
// functions: the event form's controller reads the body, calls these and writes through the API's
// write path. Every rule goes through the recurrence feature's own reader and validator, so that a
// message here is the one the API would give, and the dates shown are those the service would make.

/** A problem of the form: the id of the input it is about and what is wrong (the shape of the editing pages' FieldError). */
export interface RuleFieldError {
  field: string;
  message: string;
}

export type RepeatKind = 'never' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'custom';
export type MonthlyMode = 'day' | 'weekday';
export type EndsKind = 'never' | 'count' | 'until';

/** The section's fields, by input name (= id; `repeat_days` is posted as `repeat_days[]`). Every value as the form sends it. */
export interface RuleFormValues {
  repeat: RepeatKind;
  repeat_interval: string;
  /** `MO`…`SU`, weekly only. */
  repeat_days: string[];
  repeat_monthly: MonthlyMode;
  /** 1–31, monthly on day N. */
  repeat_monthday: string;
  /** `1`–`4` or `-1` (last), monthly on the Nth weekday. */
  repeat_nth: string;
  /** `MO`…`SU`, monthly on the Nth weekday. */
  repeat_weekday: string;
  repeat_ends: EndsKind;
  repeat_count: string;
  /** `YYYY-MM-DD`: the last day an occurrence may start on. */
  repeat_until: string;
  /** One per line: `YYYY-MM-DD` or `YYYY-MM-DD HH:MM[:SS]`, wall time in the event's zone. */
  repeat_exdates: string;
  repeat_rdates: string;
  /** The RRULE value (with or without `RRULE:`), custom only. */
  repeat_rule: string;
}

/** The event as the API's JSON gives it (resources.md, recurrence.md §3): what the section reads. */
export interface RuleFormEvent {
  id: number;
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
  recurrence?: string[];
  series?: { id: number; original_start: string; detached?: boolean } | null;
}

export const WEEKDAYS: readonly { code: string; name: string }[] = [
  { code: 'MO', name: 'Monday' },
  { code: 'TU', name: 'Tuesday' },
  { code: 'WE', name: 'Wednesday' },
  { code: 'TH', name: 'Thursday' },
  { code: 'FR', name: 'Friday' },
  { code: 'SA', name: 'Saturday' },
  { code: 'SU', name: 'Sunday' },
];
const WEEKDAY_CODES = WEEKDAYS.map((d) => d.code);
export const NTH_CHOICES: readonly { value: string; label: string }[] = [
  { value: '1', label: 'first' },
  { value: '2', label: 'second' },
  { value: '3', label: 'third' },
  { value: '4', label: 'fourth' },
  { value: '-1', label: 'last' },
];
/** The choices of the "Repeats" select, in the order shown. */
export const KINDS: readonly RepeatKind[] = ['never', 'daily', 'weekly', 'monthly', 'yearly', 'custom'];
const FREQ_OF: Record<'daily' | 'weekly' | 'monthly' | 'yearly', string> = { daily: 'DAILY', weekly: 'WEEKLY', monthly: 'MONTHLY', yearly: 'YEARLY' };
/** The name of the "Show the next dates" button: a post that carries it asks for the preview, not a save. */
export const PREVIEW_BUTTON = 'repeat_preview';
/** How many dates the preview lists (editing.md §3). */
export const PREVIEW_COUNT = 5;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

// ------------------------------------------------------------------ reading the body

/** The section's values from a form body as qs parses it (other fields of the event form are left alone); missing fields get their defaults. */
export function readRuleForm(body: Record<string, unknown>, startDate = ''): RuleFormValues {
  const defaults = emptyRuleForm(startDate);
  const text = (name: keyof RuleFormValues) => {
    const v = body[name];
    return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
  };
  const pick = <T extends string>(name: keyof RuleFormValues, allowed: readonly T[], fallback: T): T => {
    const v = text(name)?.trim();
    return v !== undefined && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
  };
  const rawDays = body.repeat_days;
  const days = (Array.isArray(rawDays) ? rawDays : typeof rawDays === 'string' ? [rawDays] : []).filter((d): d is string => typeof d === 'string');
  const kind = pick('repeat', KINDS, 'never');
  return {
    repeat: kind,
    repeat_interval: text('repeat_interval') ?? defaults.repeat_interval,
    // A form that was posted with no day ticked sends none: keep it empty so that it is refused, not replaced.
    repeat_days: 'repeat' in body ? WEEKDAY_CODES.filter((c) => days.includes(c)) : defaults.repeat_days,
    repeat_monthly: pick('repeat_monthly', ['day', 'weekday'] as const, 'day'),
    repeat_monthday: text('repeat_monthday') ?? defaults.repeat_monthday,
    repeat_nth: text('repeat_nth') ?? defaults.repeat_nth,
    repeat_weekday: text('repeat_weekday') ?? defaults.repeat_weekday,
    // A post that filled "After" or "On date" without choosing how the series ends means that one.
    repeat_ends: pick(
      'repeat_ends',
      ['never', 'count', 'until'] as const,
      text('repeat_count')?.trim() ? 'count' : text('repeat_until')?.trim() ? 'until' : 'never',
    ),
    repeat_count: text('repeat_count') ?? '',
    repeat_until: text('repeat_until') ?? '',
    repeat_exdates: text('repeat_exdates') ?? '',
    repeat_rdates: text('repeat_rdates') ?? '',
    repeat_rule: text('repeat_rule') ?? '',
  };
}

/** The section of a new event, or of one outside a series: "never", with the day, weekday and week of `startDate` (`YYYY-MM-DD…`) ready for weekly and monthly. */
export function emptyRuleForm(startDate = ''): RuleFormValues {
  const day = DAY.exec(startDate.slice(0, 10)) ? startDate.slice(0, 10) : null;
  const weekday = day ? weekdayOf(day) : 'MO';
  const dom = day ? Number(day.slice(8, 10)) : 1;
  return {
    repeat: 'never',
    repeat_interval: '1',
    repeat_days: [weekday],
    repeat_monthly: 'day',
    repeat_monthday: String(dom),
    repeat_nth: dom > 28 ? '-1' : String(Math.ceil(dom / 7)),
    repeat_weekday: weekday,
    repeat_ends: 'never',
    repeat_count: '',
    repeat_until: '',
    repeat_exdates: '',
    repeat_rdates: '',
    repeat_rule: '',
  };
}

/** Whether the post asks for the preview ("Show the next dates") rather than a save. */
export function isPreviewRequest(body: Record<string, unknown>): boolean {
  return body[PREVIEW_BUTTON] !== undefined;
}

// ------------------------------------------------------------------ form → `recurrence`

export interface RuleFormResult {
  /** The `recurrence` write field: RRULE, RDATE and EXDATE lines; `[]` for "never". Meaningful only without errors. */
  recurrence: string[];
  errors: RuleFieldError[];
}

/**
 * The form's values as the `recurrence` write field (recurrence.md §2), with a message beside
 * each field that is wrong. `timing` is the event's start, end, zone and all-day as the form
 * gives them (null when those fields are themselves wrong: then only the section's own fields
 * are checked). With `limits`, the lines are also checked by the API's validator
 * (validateRecurrence), so "gives no occurrence", "more than 1,000 occurrences" and the like are
 * said here in the API's words; a custom rule is read by the API's reader either way.
 */
export function ruleFormToRecurrence(values: RuleFormValues, timing: SeriesTiming | null, limits?: RecurrenceLimits): RuleFormResult {
  const errors: RuleFieldError[] = [];
  if (values.repeat === 'never') return { recurrence: [], errors };
  const rrule = values.repeat === 'custom' ? customRrule(values, timing, errors) : structuredRrule(values, timing, errors);
  const rdates = dateLines('RDATE', 'repeat_rdates', values.repeat_rdates, timing, errors);
  const exdates = dateLines('EXDATE', 'repeat_exdates', values.repeat_exdates, timing, errors);
  const recurrence = [...(rrule ? [`RRULE:${rrule}`] : []), ...rdates, ...exdates];
  if (errors.length > 0 || !timing || !limits) return { recurrence, errors };
  errors.push(...checkLines(recurrence, values, timing, limits));
  return { recurrence, errors };
}

/** The API's checks of a rule for a series with this timing, as field errors. */
function checkLines(recurrence: string[], values: RuleFormValues, timing: SeriesTiming, limits: RecurrenceLimits): RuleFieldError[] {
  const errors: RuleFieldError[] = [];
  try {
    const valid = validateRecurrence(recurrence, timing, limits);
    // A new series' first occurrence is the event itself (recurrence.md §3); the API refuses an EXDATE that removes it.
    if (valid.expansion.occurrences[0]?.originalStart !== timing.startDate) {
      errors.push({ field: 'repeat_exdates', message: "The rule's first occurrence must be the event itself (an EXDATE removes it)." });
    }
  } catch (e) {
    if (!(e instanceof RecurrenceError)) throw e;
    errors.push({ field: fieldOfMessage(e.message, values), message: e.message });
  }
  return errors;
}

/**
 * The lines to send with `scope`: with "This and following events" on an occurrence other than
 * the series' first, the new series starts at this occurrence, so the exception and extra dates
 * before its original start (which the form shows, being the series') stay with the earlier part
 * and are left out, as the API's cut leaves them (an RDATE before a series' start is refused).
 */
export function recurrenceForScope(recurrence: string[], scope: Scope | undefined, event: RuleFormEvent | null): string[] {
  const from = laterOccurrenceStart(event);
  if (scope !== 'following' || from === null) return recurrence;
  const day = from.slice(0, 10).replace(/-/g, '');
  const wall = from.replace(/-/g, '').replace(' ', 'T').replace(/:/g, '');
  return recurrence.filter((line) => {
    const m = /^(?:RDATE|EXDATE)(;VALUE=DATE)?:(\d{8}(?:T\d{6})?)(Z?)$/.exec(line);
    if (!m) return true;
    const value =
      m[3] === 'Z'
        ? utcToWall(
            `${m[2].slice(0, 4)}-${m[2].slice(4, 6)}-${m[2].slice(6, 8)} ${m[2].slice(9, 11)}:${m[2].slice(11, 13)}:${m[2].slice(13, 15)}`,
            event!.timezone,
          )
            .replace(/-/g, '')
            .replace(' ', 'T')
            .replace(/:/g, '')
        : m[2];
    return m[1] ? value >= day : value >= wall;
  });
}

/** The original start of an occurrence that is not its series' first; null otherwise. */
function laterOccurrenceStart(event: RuleFormEvent | null): string | null {
  return event?.series && event.series.id !== event.id ? event.series.original_start : null;
}

/** The input a message of the API's `data.params.recurrence` is about, for this form (also for a refusal of the write itself). */
export function fieldOfMessage(message: string, values: Pick<RuleFormValues, 'repeat'>): string {
  if (/^"?RDATE|\bRDATE\b/.test(message)) return 'repeat_rdates';
  if (/^"?EXDATE|\bEXDATE\b/.test(message)) return 'repeat_exdates';
  return values.repeat === 'custom' ? 'repeat_rule' : 'repeat';
}

function customRrule(values: RuleFormValues, timing: SeriesTiming | null, errors: RuleFieldError[]): string | null {
  const text = values.repeat_rule.trim().replace(/^RRULE:/i, '');
  // A series of extra dates alone (RDATEs without a rule) is a custom one with no rule text.
  if (text === '' && values.repeat_rdates.trim() !== '') return null;
  if (text === '') {
    errors.push({ field: 'repeat_rule', message: 'Enter a rule, e.g. FREQ=WEEKLY;BYDAY=TU,TH.' });
    return null;
  }
  if (/[\r\n]/.test(text)) {
    errors.push({ field: 'repeat_rule', message: 'Enter the rule on one line; exception and extra dates have fields of their own.' });
    return null;
  }
  try {
    parseRecurrence([`RRULE:${text}`], timing ?? { startDate: '2000-01-01 00:00:00', endDate: '2000-01-01 00:00:00', timezone: 'UTC', allDay: false });
  } catch (e) {
    if (!(e instanceof RecurrenceError)) throw e;
    errors.push({ field: 'repeat_rule', message: e.message });
    return null;
  }
  return text.toUpperCase();
}

function structuredRrule(values: RuleFormValues, timing: SeriesTiming | null, errors: RuleFieldError[]): string | null {
  const kind = values.repeat as keyof typeof FREQ_OF;
  const parts = [`FREQ=${FREQ_OF[kind]}`];
  const interval = positiveInteger(values.repeat_interval);
  if (interval === null) errors.push({ field: 'repeat_interval', message: 'Enter a whole number of 1 or more.' });
  else if (interval > 1) parts.push(`INTERVAL=${interval}`);

  if (kind === 'weekly') {
    const days = WEEKDAY_CODES.filter((c) => values.repeat_days.includes(c));
    if (days.length === 0) errors.push({ field: 'repeat_days_MO', message: 'Choose at least one day of the week.' });
    else parts.push(`BYDAY=${days.join(',')}`);
  } else if (kind === 'monthly' && values.repeat_monthly === 'day') {
    const day = positiveInteger(values.repeat_monthday);
    if (day === null || day > 31) errors.push({ field: 'repeat_monthday', message: 'Enter a day of the month from 1 to 31.' });
    else parts.push(`BYMONTHDAY=${day}`);
  } else if (kind === 'monthly') {
    const nth = NTH_CHOICES.find((c) => c.value === values.repeat_nth.trim());
    const weekday = WEEKDAY_CODES.find((c) => c === values.repeat_weekday.trim());
    if (!nth) errors.push({ field: 'repeat_nth', message: 'Choose first, second, third, fourth or last.' });
    if (!weekday) errors.push({ field: 'repeat_weekday', message: 'Choose a day of the week.' });
    if (nth && weekday) parts.push(`BYDAY=${nth.value}${weekday}`);
  }

  if (values.repeat_ends === 'count') {
    const count = positiveInteger(values.repeat_count);
    if (count === null) errors.push({ field: 'repeat_count', message: 'Enter how many times: a whole number of 1 or more.' });
    else parts.push(`COUNT=${count}`);
  } else if (values.repeat_ends === 'until') {
    const until = values.repeat_until.trim();
    if (!isRealDay(until)) errors.push({ field: 'repeat_until', message: 'Enter a date as YYYY-MM-DD.' });
    else if (timing && until < timing.startDate.slice(0, 10))
      errors.push({ field: 'repeat_until', message: "The last date must not be before the event's start date." });
    // A date: the series ends after that whole day in its zone (recurrence-rule.ts, readUntil), all-day or not.
    else parts.push(`UNTIL=${until.replace(/-/g, '')}`);
  }
  return parts.join(';');
}

function dateLines(name: 'RDATE' | 'EXDATE', field: string, text: string, timing: SeriesTiming | null, errors: RuleFieldError[]): string[] {
  const lines: string[] = [];
  const bad: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const item = raw.trim();
    if (item === '') continue;
    const day = DAY.exec(item);
    const dayTime = DAY_TIME.exec(item);
    if (day && isRealDay(item)) {
      lines.push(`${name};VALUE=DATE:${item.replace(/-/g, '')}`);
    } else if (dayTime && isRealDay(item.slice(0, 10)) && Number(dayTime[4]) <= 23 && Number(dayTime[5]) <= 59 && Number(dayTime[6] ?? 0) <= 59) {
      // An all-day series has days only: a time there would be dropped by the service anyway.
      const [, y, mo, d, h, mi, s] = dayTime;
      lines.push(timing?.allDay ? `${name};VALUE=DATE:${y}${mo}${d}` : `${name}:${y}${mo}${d}T${h}${mi}${s ?? '00'}`);
    } else {
      bad.push(item);
    }
  }
  if (bad.length > 0) {
    const shown = bad[0].length > 40 ? `${bad[0].slice(0, 39)}…` : bad[0];
    errors.push({ field, message: `"${shown}" is not a date: write one per line as YYYY-MM-DD, or YYYY-MM-DD HH:MM.` });
  }
  return [...new Set(lines)].sort();
}

// ------------------------------------------------------------------ series → form

/**
 * The section's values for an event as the API's JSON gives it: "never" outside a series; else
 * the series' rule as the structured fields when they can say it exactly, or as "custom" with
 * its RRULE text. `UNTIL` (stored in UTC) is shown as the last day an occurrence starts on, in
 * the event's zone; exception and extra dates one per line, as days or wall times in that zone.
 */
export function seriesToRuleForm(event: RuleFormEvent): RuleFormValues {
  const anchor = event.series?.original_start ?? event.start_date;
  const values = emptyRuleForm(anchor);
  const lines = event.recurrence ?? [];
  if (!event.series || lines.length === 0) return values;
  const timing: SeriesTiming = { startDate: anchor, endDate: event.end_date, timezone: event.timezone, allDay: event.all_day };
  let rule: RecurrenceRule;
  try {
    rule = parseRecurrence(lines, timing);
  } catch {
    // The service wrote these lines and reads them back; should one ever not parse, show it as it is.
    const rruleLine = lines.find((l) => /^RRULE:/i.test(l));
    return { ...values, repeat: 'custom', repeat_rule: rruleLine ? rruleLine.slice(6) : '' };
  }
  values.repeat_rdates = rule.rdates.map((d) => dateText(d, timing)).join('\n');
  values.repeat_exdates = rule.exdates.map((d) => dateText(d, timing)).join('\n');
  if (!rule.rrule) return { ...values, repeat: 'custom', repeat_rule: '' };
  const structured = structuredOf(rule.rrule, timing);
  if (!structured) return { ...values, repeat: 'custom', repeat_rule: rruleValue(rule.rrule) };
  return { ...values, ...structured };
}

function structuredOf(r: ParsedRrule, timing: SeriesTiming): Partial<RuleFormValues> | null {
  // WKST only matters to a weekly rule of several weeks; the form writes none, which is Monday.
  const wkst = /(?:^|;)WKST=([A-Z]{2})/.exec(r.body)?.[1];
  if (wkst !== undefined && wkst !== 'MO' && r.freq === 'WEEKLY' && r.interval > 1) return null;
  const keys = Object.keys(r.parts).filter((k) => k !== 'UNTIL');
  const out: Partial<RuleFormValues> = { repeat_interval: String(r.interval) };
  const only = (...allowed: string[]) => keys.every((k) => allowed.includes(k));
  const start = timing.startDate.slice(0, 10);
  switch (r.freq) {
    case 'DAILY':
      if (!only()) return null;
      out.repeat = 'daily';
      break;
    case 'WEEKLY': {
      if (!only('BYDAY')) return null;
      const days = r.parts.BYDAY ? r.parts.BYDAY.split(',') : [weekdayOf(start)];
      if (!days.every((d) => WEEKDAY_CODES.includes(d))) return null;
      out.repeat = 'weekly';
      out.repeat_days = WEEKDAY_CODES.filter((c) => days.includes(c));
      break;
    }
    case 'MONTHLY': {
      out.repeat = 'monthly';
      if (keys.length === 0) {
        out.repeat_monthly = 'day';
        out.repeat_monthday = String(Number(start.slice(8, 10)));
      } else if (only('BYMONTHDAY') && /^([1-9]|[12]\d|3[01])$/.test(r.parts.BYMONTHDAY)) {
        out.repeat_monthly = 'day';
        out.repeat_monthday = r.parts.BYMONTHDAY;
      } else {
        const m = only('BYDAY') ? /^\+?(-1|[1-4])([A-Z]{2})$/.exec(r.parts.BYDAY) : null;
        if (!m) return null;
        out.repeat_monthly = 'weekday';
        out.repeat_nth = m[1];
        out.repeat_weekday = m[2];
      }
      break;
    }
    case 'YEARLY': {
      // "Yearly" is on the start's day: the rule may also say that day itself.
      const month = String(Number(start.slice(5, 7)));
      const day = String(Number(start.slice(8, 10)));
      const sameDay = keys.length === 0 || (only('BYMONTH', 'BYMONTHDAY') && r.parts.BYMONTH === month && (r.parts.BYMONTHDAY ?? day) === day);
      if (!sameDay) return null;
      out.repeat = 'yearly';
      break;
    }
  }
  if (r.count !== null) {
    out.repeat_ends = 'count';
    out.repeat_count = String(r.count);
  } else if (r.until) {
    out.repeat_ends = 'until';
    out.repeat_until = untilDay(r, timing);
  }
  return out;
}

/**
 * The last day an occurrence may start on, for an UNTIL. The form's date means "up to the end of
 * that day", the stored UNTIL is an instant (a series cut before an occurrence ends one second
 * before it): the occurrences come at the start's time of day, so an UNTIL earlier in its day
 * than that time ends the series on the day before.
 */
function untilDay(r: ParsedRrule, timing: SeriesTiming): string {
  const until = r.until!;
  if (until.kind === 'date') return until.date;
  const wall = utcToWall(until.utc, timing.timezone);
  if (timing.allDay || wall.slice(11) >= timing.startDate.slice(11)) return wall.slice(0, 10);
  return shiftDay(wall.slice(0, 10), -1);
}

function dateText(d: RuleDate, timing: SeriesTiming): string {
  const wall = d.kind === 'date' ? d.date : d.kind === 'wall' ? d.wall : utcToWall(d.utc, timing.timezone);
  if (d.kind === 'date' || timing.allDay) return wall.slice(0, 10);
  return wall.endsWith(':00') ? wall.slice(0, 16) : wall;
}

// ------------------------------------------------------------------ what a save sends

export interface RuleWrite {
  /** The `recurrence` write field to send, or undefined to leave the rule as it is (not given). */
  recurrence?: string[];
  /** Whether the form's rule differs from the event's (what the scope question needs). */
  ruleChanged: boolean;
  errors: RuleFieldError[];
}

/**
 * What the section adds to the event's write: `recurrence` only when the form's rule differs from
 * the one the event had (`current`: null for a new event). The API refuses `recurrence` with
 * scope=this, and moves a series' rule itself when its start moves, so an unchanged rule is
 * never sent. "Never" on an event in a series sends `[]` (recurrence.md §2: ends the series).
 */
export function ruleWrite(values: RuleFormValues, current: RuleFormEvent | null, timing: SeriesTiming | null, limits?: RecurrenceLimits): RuleWrite {
  const inSeries = !!current?.series;
  const before = current && inSeries ? ruleFormToRecurrence(seriesToRuleForm(current), null).recurrence : [];
  const result = ruleFormToRecurrence(values, timing);
  // A form the rule cannot be read from differs from any rule (its lines are incomplete, maybe empty).
  const ruleChanged = result.errors.length > 0 || !sameLines(before, result.recurrence);
  // An unchanged rule is not sent, so there is nothing to refuse in it.
  if (!ruleChanged) return { ruleChanged, errors: [] };
  if (result.errors.length > 0) return { ruleChanged, errors: result.errors };
  if (!inSeries && result.recurrence.length === 0) return { ruleChanged: false, errors: [] };
  // Checked as the new series it may start here (the API checks "All events" against the series' own start).
  const errors =
    timing && limits && result.recurrence.length > 0 ? checkLines(recurrenceForScope(result.recurrence, 'following', current), values, timing, limits) : [];
  return errors.length > 0 ? { ruleChanged, errors } : { recurrence: result.recurrence, ruleChanged, errors: [] };
}

function sameLines(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

// ------------------------------------------------------------------ preview

export interface PreviewDate {
  /** Wall time in the event's zone, `YYYY-MM-DD HH:MM:SS`, and the same instant in UTC. */
  start: string;
  utcStart: string;
  /** `Sunday 28 March 2027, 19:00` (all-day: no time). */
  label: string;
}

export interface RulePreview {
  /** The rule in the public page's words (describeRecurrence); '' for "never". */
  words: string;
  /** The next dates (at most five) from `from`, as the service's expander gives them. */
  dates: PreviewDate[];
  errors: RuleFieldError[];
}

/**
 * The preview under "Repeats" (editing.md §3): the rule in words and its next five dates from
 * `from` (UTC, default the series' start), computed by expandRecurrence, the expander the service
 * makes occurrences with, for the series the form would write: `timing` is the event's start,
 * end, zone and all-day from the form. For an edit with scope=all of a later occurrence the
 * series' rule starts at the series' first occurrence: pass that timing to preview the series.
 * Errors are those a save would show (ruleFormToRecurrence); then there are no words or dates.
 * `current`: the event edited; for an occurrence other than the series' first, the series from
 * this occurrence on is previewed (recurrenceForScope), as ruleWrite checks it.
 */
export function previewRule(
  values: RuleFormValues,
  timing: SeriesTiming,
  limits: RecurrenceLimits,
  from?: string,
  current: RuleFormEvent | null = null,
): RulePreview {
  const built = ruleFormToRecurrence(values, timing);
  if (built.errors.length > 0) return { words: '', dates: [], errors: built.errors };
  const recurrence = recurrenceForScope(built.recurrence, 'following', current);
  const errors = recurrence.length > 0 ? checkLines(recurrence, values, timing, limits) : [];
  if (errors.length > 0 || recurrence.length === 0) return { words: '', dates: [], errors };
  const rule = parseRecurrence(recurrence, timing);
  const words = describeRecurrence(rule, timing);
  // The rule's dates beyond the horizon are dates all the same (the service makes them as time passes): look a long way ahead.
  const startMs = utcSqlMillis(`${timing.startDate.slice(0, 10)} 00:00:00`);
  const to = new Date(Math.max(from ? utcSqlMillis(from) : startMs, startMs) + 400 * 366 * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
  const { occurrences } = expandRecurrence(timing, rule, { from, to }, PREVIEW_COUNT);
  const dates = occurrences.map((o) => ({ start: o.start, utcStart: o.utcStart, label: dateLabel(o.start, timing.allDay) }));
  return { words, dates, errors: [] };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2027-03-28 19:00:00` → `Sunday 28 March 2027, 19:00`. */
export function dateLabel(wall: string, allDay: boolean): string {
  const day = wall.slice(0, 10);
  const name = WEEKDAYS[WEEKDAY_CODES.indexOf(weekdayOf(day))].name;
  const text = `${name} ${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
  return allDay ? text : `${text}, ${wall.slice(11, 16)}`;
}

// ------------------------------------------------------------------ small pieces

function positiveInteger(text: string): number | null {
  const t = text.trim();
  return /^\d{1,6}$/.test(t) && Number(t) >= 1 ? Number(t) : null;
}

function isRealDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** `2027-03-28` → `SU`. */
function weekdayOf(day: string): string {
  return WEEKDAY_CODES[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7];
}

function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The limits a preview or a form check uses, as the API's writes compute them (SeriesWriter.limits) from the configuration. */
export function ruleLimits(config: { recurrenceMax: number; recurrenceHorizonDays: number }, nowUtc: string): RecurrenceLimits {
  const horizonMs = utcSqlMillis(nowUtc) + config.recurrenceHorizonDays * 86_400_000;
  return { max: config.recurrenceMax, horizon: new Date(horizonMs).toISOString().slice(0, 19).replace('T', ' ') };
}
