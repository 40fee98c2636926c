import { utcToWall } from '../common/datetime/format';
import { ParsedRrule, RecurrenceRule, SeriesTiming } from './recurrence-rule';

// The words an occurrence's page uses for its series (recurrence.md §6: "Every Tuesday and
// Thursday until 31 December 2027"). English, like the rest of the pages. Rules with parts the
// words do not cover (BYHOUR, BYSETPOS, BYYEARDAY, …) are said as their frequency "on a custom
// schedule", and the page's list of next occurrences says the rest.

const WEEKDAYS: Readonly<Record<string, string>> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};
const WEEKDAY_ORDER = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const UNITS = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' } as const;
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];
/** Parts the sentence can say. */
const SAID: ReadonlySet<string> = new Set(['BYDAY', 'BYMONTHDAY', 'BYMONTH', 'UNTIL']);

/** The rule in words, e.g. `Every 2 weeks on Tuesday and Thursday, 10 times`; '' outside a series. */
export function describeRecurrence(rule: RecurrenceRule, timing: SeriesTiming): string {
  const extra = [
    rule.rdates.length > 0 ? `plus ${count(rule.rdates.length, 'other date')}` : '',
    rule.exdates.length > 0 ? `except ${count(rule.exdates.length, 'date')}` : '',
  ].filter((s) => s !== '');
  if (!rule.rrule) return rule.rdates.length > 0 ? `On ${count(rule.rdates.length + 1, 'date')}` : '';
  return [describeRrule(rule.rrule, timing), ...extra].join(', ');
}

function describeRrule(r: ParsedRrule, timing: SeriesTiming): string {
  let words = Object.keys(r.parts).every((p) => SAID.has(p)) ? pattern(r, timing) : `${every(r)}, on a custom schedule`;
  if (r.count !== null) words += `, ${count(r.count, 'time')}`;
  if (r.until) words += ` until ${longDate(r.until.kind === 'date' ? r.until.date : utcToWall(r.until.utc, timing.timezone).slice(0, 10))}`;
  return words;
}

/** `Every week` / `Every 3 days`. */
function every(r: ParsedRrule): string {
  const unit = UNITS[r.freq];
  return r.interval === 1 ? `Every ${unit}` : `Every ${r.interval} ${unit}s`;
}

function pattern(r: ParsedRrule, timing: SeriesTiming): string {
  const start = new Date(`${timing.startDate.slice(0, 10)}T00:00:00Z`);
  const days = r.parts.BYDAY?.split(',') ?? [];
  const monthDays = r.parts.BYMONTHDAY?.split(',').map(Number) ?? [];
  const months = r.parts.BYMONTH?.split(',').map(Number) ?? [];
  const plainDays = days.filter((d) => /^[A-Z]{2}$/.test(d));
  // Each with its article: `the second Tuesday`, `every Friday` (a plain weekday in a month is all of them).
  const onDays = days.map((d) => (/^[A-Z]{2}$/.test(d) ? `every ${WEEKDAYS[d]}` : `the ${dayWords(d)}`));
  const inMonths = months.length > 0 ? ` in ${list(months.map((m) => MONTHS[m - 1]))}` : '';

  // Both weekdays and days of the month (Friday the 13th) are not said in words.
  if (days.length > 0 && monthDays.length > 0) return `${every(r)}, on a custom schedule`;
  switch (r.freq) {
    case 'DAILY':
      // Every day that is a Tuesday or a Thursday is every Tuesday and Thursday.
      if (days.length > 0) return onWeekdays(r, sortWeekdays(plainDays), inMonths, 'days');
      return monthDays.length > 0 ? `${every(r)} on the ${list(monthDays.map(dayOfMonth))}${inMonths}` : `${every(r)}${inMonths}`;
    case 'WEEKLY':
      return onWeekdays(r, days.length > 0 ? sortWeekdays(plainDays) : [WEEKDAY_ORDER[(start.getUTCDay() + 6) % 7]], inMonths);
    case 'MONTHLY': {
      const on = days.length > 0 ? onDays : (monthDays.length > 0 ? monthDays : [start.getUTCDate()]).map((d) => `the ${dayOfMonth(d)}`);
      return `${every(r)} on ${list(on)}${inMonths}`;
    }
    case 'YEARLY': {
      const inYear = months.length > 0 ? months : [start.getUTCMonth() + 1];
      if (days.length > 0) return `${every(r)} on ${list(onDays)} of ${list(inYear.map((m) => MONTHS[m - 1]))}`;
      const dates = monthDays.length > 0 ? monthDays : [start.getUTCDate()];
      return `${every(r)} on ${list(inYear.flatMap((m) => dates.map((d) => (d > 0 ? `${d} ${MONTHS[m - 1]}` : `the ${dayOfMonth(d)} of ${MONTHS[m - 1]}`))))}`;
    }
  }
}

/** `Every Tuesday and Thursday`, `Every weekday`, `Every 2 weeks on Monday`. */
function onWeekdays(r: ParsedRrule, weekdays: string[], inMonths: string, unit = 'weeks'): string {
  const names = list(weekdays.map((d) => WEEKDAYS[d]));
  if (r.interval === 1) return weekdays.join() === 'MO,TU,WE,TH,FR' ? `Every weekday${inMonths}` : `Every ${names}${inMonths}`;
  return `Every ${r.interval} ${unit} on ${names}${inMonths}`;
}

/** `TU` → `Tuesday`; `-1FR` → `last Friday`; `2TU` → `second Tuesday`. */
function dayWords(byday: string): string {
  const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(byday)!;
  const name = WEEKDAYS[m[2]];
  if (m[1] === undefined) return name;
  return `${nth(Number(m[1]))} ${name}`;
}

/** `3` → `3rd`; `-1` → `last day`. */
function dayOfMonth(d: number): string {
  return d > 0 ? ordinalNumber(d) : `${nth(d)} day`;
}

/** 1 → first, -1 → last, -2 → second to last, 12 → 12th. */
function nth(n: number): string {
  if (n === -1) return 'last';
  if (n < 0) return `${nth(-n)} to last`;
  return ORDINALS[n - 1] ?? ordinalNumber(n);
}

function ordinalNumber(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function sortWeekdays(days: string[]): string[] {
  return [...new Set(days)].sort((a, b) => WEEKDAY_ORDER.indexOf(a) - WEEKDAY_ORDER.indexOf(b));
}

/** `a`, `a and b`, `a, b and c`. */
function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function count(n: number, noun: string): string {
  return n === 1 ? `1 ${noun}` : `${n} ${noun}s`;
}

/** `2027-12-31` → `31 December 2027`. */
function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}
