import ICAL from 'ical.js';
import { RRule } from 'rrule';
import { utcToWall, wallToUtc } from '../common/datetime/format';

// The `recurrence` write field (recurrence.md §2): RFC 5545 content lines without DTSTART, read
// into a rule and written back in the canonical form the representation shows (§3: upper case,
// UNTIL in UTC, one EXDATE line per excluded start). ical.js reads the RRULE value: it checks
// every part's value strictly (BYMONTHDAY=40, BYDAY=ZZ, COUNT=x are errors); the parts it does
// not know, and a part given twice, are refused here, since ical.js drops or overwrites them.

/** When a series happens: its first occurrence's wall-clock start and end in its zone (the event's own fields). */
export interface SeriesTiming {
  /** `YYYY-MM-DD HH:MM:SS`, wall time in `timezone` (the series' DTSTART). */
  startDate: string;
  /** `YYYY-MM-DD HH:MM:SS`, wall time in `timezone`; end − start is every occurrence's length. */
  endDate: string;
  /** IANA name or `UTC±N` (already validated by the event's own rules). */
  timezone: string;
  allDay: boolean;
}

/** An RDATE or EXDATE value: a day, a wall time in the series' zone, or a UTC instant (all `YYYY-MM-DD[ HH:MM:SS]`). */
export type RuleDate = { kind: 'date'; date: string } | { kind: 'wall'; wall: string } | { kind: 'utc'; utc: string };

/** UNTIL as stored: a UTC instant for timed series, a day for all-day ones. */
export type RuleUntil = { kind: 'utc'; utc: string } | { kind: 'date'; date: string };

export interface ParsedRrule {
  /** The canonical RRULE value without UNTIL (`FREQ=WEEKLY;BYDAY=TU,TH`), as ical.js writes it. */
  body: string;
  freq: Frequency;
  interval: number;
  count: number | null;
  until: RuleUntil | null;
  /** The parts besides FREQ, INTERVAL, COUNT, UNTIL and WKST, upper case, values as written (`BYDAY` → `TU,TH`). */
  parts: Readonly<Record<string, string>>;
}

/** A series' rule: at most one RRULE, extra starts and excluded starts. */
export interface RecurrenceRule {
  rrule: ParsedRrule | null;
  rdates: RuleDate[];
  exdates: RuleDate[];
}

export type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
const FREQUENCIES: ReadonlySet<string> = new Set<Frequency>(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
/** The rule parts of RFC 5545 §3.3.10. */
export const RULE_PARTS: ReadonlySet<string> = new Set([
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);

/** Starts one day may have from the rule's times of day (hourly at most: FREQ finer than DAILY is refused too). */
export const MAX_STARTS_PER_DAY = 24;

/** A problem with the field, worded for `data.params.recurrence`. */
export class RecurrenceError extends Error {}

const LINE = /^(RRULE|RDATE|EXDATE)((?:;[A-Z-]+=[^;:]*)*):(.+)$/;
const DATE_VALUE = /^(\d{4})(\d{2})(\d{2})$/;
const DATE_TIME_VALUE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;

/**
 * Reads the field's lines (already known to be an array of strings) for a series with this
 * timing. Throws RecurrenceError naming the first problem. Does not count occurrences: see
 * validateRecurrence for the limits.
 */
export function parseRecurrence(lines: readonly string[], timing: SeriesTiming): RecurrenceRule {
  const rule: RecurrenceRule = { rrule: null, rdates: [], exdates: [] };
  for (const raw of lines) {
    const text = raw.trim();
    const m = LINE.exec(text.toUpperCase());
    if (!m) throw new RecurrenceError(`${quote(text)} is not an RRULE, RDATE or EXDATE line.`);
    const [, name, params, value] = m;
    if (name === 'RRULE') {
      if (params !== '') throw new RecurrenceError(`${quote(text)}: an RRULE line takes no parameters.`);
      if (rule.rrule) throw new RecurrenceError('Only one RRULE line is allowed.');
      rule.rrule = parseRrule(value, timing);
    } else {
      const dates = parseDateList(text, params, value);
      (name === 'RDATE' ? rule.rdates : rule.exdates).push(...dates);
    }
  }
  return rule;
}

function parseRrule(value: string, timing: SeriesTiming): ParsedRrule {
  const seen = new Set<string>();
  for (const part of value.split(';')) {
    const key = part.split('=', 1)[0];
    if (!RULE_PARTS.has(key) || !part.includes('=')) throw new RecurrenceError(`RRULE: ${quote(part)} is not a rule part of RFC 5545.`);
    if (seen.has(key)) throw new RecurrenceError(`RRULE: ${key} is given twice.`);
    seen.add(key);
  }
  let recur: ICAL.Recur;
  try {
    recur = ICAL.Recur.fromString(value);
  } catch (e) {
    throw doesNotParse(e);
  }
  const freq = recur.freq as string | null | undefined;
  if (!freq) throw new RecurrenceError('RRULE needs a FREQ.');
  if (!FREQUENCIES.has(freq)) throw new RecurrenceError(`RRULE: FREQ=${freq} is not allowed; use DAILY, WEEKLY, MONTHLY or YEARLY.`);
  if (seen.has('COUNT') && seen.has('UNTIL')) throw new RecurrenceError('RRULE: COUNT and UNTIL cannot both be given.');
  // ical.js reads COUNT=0 and INTERVAL=0 as "not given".
  const count = seen.has('COUNT') ? Number(/(?:^|;)COUNT=([^;]*)/.exec(value)![1]) : null;
  if (count !== null && !(count >= 1)) throw new RecurrenceError('RRULE: COUNT must be 1 or more.');
  const interval = seen.has('INTERVAL') ? Number(/(?:^|;)INTERVAL=([^;]*)/.exec(value)![1]) : 1;
  if (!(interval >= 1)) throw new RecurrenceError('RRULE: INTERVAL must be 1 or more.');
  if (seen.has('BYWEEKNO')) throw new RecurrenceError('RRULE: BYWEEKNO is not supported.');
  checkPartsForFrequency(freq as Frequency, value);
  const perDay = ['BYHOUR', 'BYMINUTE', 'BYSECOND'].reduce((n, part) => n * (new RegExp(`(?:^|;)${part}=([^;]*)`).exec(value)?.[1].split(',').length ?? 1), 1);
  if (perDay > MAX_STARTS_PER_DAY)
    throw new RecurrenceError(`RRULE: BYHOUR, BYMINUTE and BYSECOND give ${perDay} starts a day; at most ${MAX_STARTS_PER_DAY} are allowed.`);

  const until = recur.until ? readUntil(recur.until, timing) : null;
  recur.until = null;
  const parts: Record<string, string> = {};
  for (const part of recur.toString().split(';')) {
    const [key, val] = part.split('=');
    if (!['FREQ', 'INTERVAL', 'COUNT', 'WKST'].includes(key)) parts[key] = val;
  }
  const body = recur.toString();
  try {
    // rrule, which expands the rule, has checks of its own (BYSETPOS=0): what it refuses is refused here.
    new RRule({ ...RRule.parseString(body), dtstart: new Date(0) });
  } catch (e) {
    throw doesNotParse(e);
  }
  return { body, freq: freq as Frequency, interval, count, until, parts };
}

function doesNotParse(e: unknown): RecurrenceError {
  return new RecurrenceError(`RRULE does not parse: ${String(e instanceof Error ? e.message : e).slice(0, 120)}.`);
}

/**
 * RFC 5545 §3.3.10's MUST NOTs (BYYEARDAY only with YEARLY, BYMONTHDAY not with WEEKLY, a
 * numbered BYDAY only with MONTHLY or YEARLY), and BYSETPOS only with MONTHLY or YEARLY (ours:
 * it would pick among the times of one day or week). With these, a DAILY or WEEKLY rule filters
 * days by month, day of month and weekday only, which expand.ts can check cheaply.
 */
function checkPartsForFrequency(freq: Frequency, value: string): void {
  const has = (part: string) => new RegExp(`(?:^|;)${part}=`).test(value);
  if (has('BYYEARDAY') && freq !== 'YEARLY') throw new RecurrenceError('RRULE: BYYEARDAY is only allowed with FREQ=YEARLY.');
  if (has('BYMONTHDAY') && freq === 'WEEKLY') throw new RecurrenceError('RRULE: BYMONTHDAY is not allowed with FREQ=WEEKLY.');
  if (has('BYSETPOS') && (freq === 'DAILY' || freq === 'WEEKLY')) throw new RecurrenceError('RRULE: BYSETPOS is only allowed with FREQ=MONTHLY or YEARLY.');
  if (/(?:^|;)BYDAY=[^;]*[0-9]/.test(value) && (freq === 'DAILY' || freq === 'WEEKLY')) {
    throw new RecurrenceError('RRULE: a numbered BYDAY (2TU, -1FR) is only allowed with FREQ=MONTHLY or YEARLY.');
  }
}

/**
 * UNTIL in the stored form (recurrence.md §3: "UNTIL in UTC"). A UTC value is kept; a local
 * value is a wall time in the series' zone; a date on a timed series includes that whole day.
 * All-day series keep a date, as RFC 5545 §3.3.10 wants UNTIL of the same type as DTSTART.
 */
function readUntil(value: ICAL.Time, timing: SeriesTiming): RuleUntil {
  const date = `${pad(value.year, 4)}-${pad(value.month)}-${pad(value.day)}`;
  const time = `${pad(value.hour)}:${pad(value.minute)}:${pad(value.second)}`;
  const utc = value.isDate
    ? wallToUtc(`${date} 23:59:59`, timing.timezone)
    : value.zone === ICAL.Timezone.utcTimezone
      ? `${date} ${time}`
      : wallToUtc(`${date} ${time}`, timing.timezone);
  if (!timing.allDay) return { kind: 'utc', utc };
  return { kind: 'date', date: value.isDate ? date : utcToWall(utc, timing.timezone).slice(0, 10) };
}

function parseDateList(text: string, params: string, value: string): RuleDate[] {
  let valueType = 'DATE-TIME';
  for (const param of params.split(';').slice(1)) {
    const [key, val] = param.split('=');
    if (key !== 'VALUE' || (val !== 'DATE' && val !== 'DATE-TIME'))
      throw new RecurrenceError(`${quote(text)}: only VALUE=DATE or VALUE=DATE-TIME may be given.`);
    valueType = val;
  }
  return value.split(',').map((item) => {
    const d = valueType === 'DATE' ? DATE_VALUE.exec(item) : DATE_TIME_VALUE.exec(item);
    if (!d)
      throw new RecurrenceError(
        `${quote(text)}: ${quote(item)} is not a ${valueType === 'DATE' ? 'date (YYYYMMDD)' : 'date-time (YYYYMMDDTHHMMSS, Z for UTC)'}.`,
      );
    const [, y, mo, day, h, mi, s, z] = d;
    const date = `${y}-${mo}-${day}`;
    if (!isRealDate(date) || (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59))) {
      throw new RecurrenceError(`${quote(text)}: ${quote(item)} is no such date.`);
    }
    if (h === undefined) return { kind: 'date', date };
    const wall = `${date} ${h}:${mi}:${s}`;
    return z === 'Z' ? { kind: 'utc', utc: wall } : { kind: 'wall', wall };
  });
}

/** A client's text in a message, cut to 80 characters: a line may be as long as the body. */
function quote(text: string): string {
  return `"${text.length > 80 ? `${text.slice(0, 79)}…` : text}"`;
}

function isRealDate(date: string): boolean {
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

/**
 * The canonical lines of a rule (recurrence.md §3): the RRULE first (UNTIL in UTC, or a date
 * for all-day series), then one RDATE line per added start and one EXDATE line per excluded
 * start, each sorted and without repeats. formatRecurrence(parseRecurrence(x)) is stable.
 */
export function formatRecurrence(rule: RecurrenceRule): string[] {
  return ruleLines(rule, (name, dates) => sortedUnique(dates.map((d) => `${name}${dateLineValue(d)}`)));
}

/** The RRULE line, then the lines `datesLines` makes of the RDATEs and of the EXDATEs. */
export function ruleLines(rule: RecurrenceRule, datesLines: (name: 'RDATE' | 'EXDATE', dates: RuleDate[]) => string[]): string[] {
  return [...(rule.rrule ? [`RRULE:${rruleValue(rule.rrule)}`] : []), ...datesLines('RDATE', rule.rdates), ...datesLines('EXDATE', rule.exdates)];
}

export function sortedUnique(values: string[]): string[] {
  return [...new Set(values)].sort();
}

/** The RRULE value with its UNTIL: `FREQ=WEEKLY;BYDAY=TU;UNTIL=20271231T225959Z`. */
export function rruleValue(rrule: ParsedRrule): string {
  if (!rrule.until) return rrule.body;
  return `${rrule.body};UNTIL=${rrule.until.kind === 'utc' ? `${compact(rrule.until.utc)}Z` : compact(rrule.until.date)}`;
}

/** `;VALUE=DATE:20270105`, `:20270105T190000`, `:20270105T180000Z`. */
function dateLineValue(d: RuleDate): string {
  switch (d.kind) {
    case 'date':
      return `;VALUE=DATE:${compact(d.date)}`;
    case 'wall':
      return `:${compact(d.wall)}`;
    case 'utc':
      return `:${compact(d.utc)}Z`;
  }
}

/** `2027-01-05 19:00:00` → `20270105T190000`; `2027-01-05` → `20270105`. */
export function compact(sql: string): string {
  return sql.replace(/-/g, '').replace(' ', 'T').replace(/:/g, '');
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}
