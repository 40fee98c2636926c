import { Options, RRule } from 'rrule';
import { isoAtWallTime, utcSqlMillis, utcToWall } from '../common/datetime/format';
import { ParsedRrule, RecurrenceRule, RuleDate, SeriesTiming } from './recurrence-rule';

// The occurrences of a series (recurrence.md §3). The rule's arithmetic is done on wall times
// (RFC 5545 recurs in local time: a weekly 19:00 in Europe/Paris stays at 19:00 across DST), by
// the `rrule` package on "floating" dates: a wall time is written as the UTC instant with the
// same reading, and no zone is given to rrule, so it never shifts one. Each wall time is then
// placed in the series' zone by the service's own rule (common/datetime/format.ts, atWallTime):
// a time a spring-forward gap skips moves forward by the gap, a time a fall-back repeats is the
// earlier pass. ical.js reads the rule (recurrence-rule.ts) but does not expand it: its iterator
// has no bound on how far it searches (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30 never returns), and it
// turns days a month lacks into the next month's (FREQ=YEARLY from 29 February gives 1 March).

/** One occurrence: its original start (the rule's start, RFC 5545 RECURRENCE-ID) and its times. */
export interface Occurrence {
  /** Which occurrence of the series this is, by date: `2027-01-12`, or `2027-01-12#2` for the second that day (§3, ids kept by date). */
  key: string;
  /** Wall time in the series' zone, `YYYY-MM-DD HH:MM:SS`, and the same instant in UTC. */
  originalStart: string;
  utcOriginalStart: string;
  start: string;
  end: string;
  utcStart: string;
  utcEnd: string;
}

/** Which occurrences to return: those starting in [from, to), both UTC `YYYY-MM-DD HH:MM:SS`. */
export interface ExpansionWindow {
  /** Default: none (an RDATE may come before the series' start; validateRecurrence refuses that). */
  from?: string;
  /** Exclusive; typically now + CALENDAR_RECURRENCE_HORIZON_DAYS. */
  to: string;
}

export interface Expansion {
  /** In start order (UTC, then wall time), at most `limit`. */
  occurrences: Occurrence[];
  /** True when there were more than `limit` in the window (the rest are not returned). */
  truncated: boolean;
}

/** Every zone's offset lies within ±14 h of UTC: the bound that turns a UTC window into a floating one. */
const MAX_OFFSET_MS = 14 * 3_600_000;

/**
 * The occurrences of a series that start in the window: the series' own start (DTSTART is
 * always the first occurrence, even when the RRULE would not give it), every start the RRULE
 * gives up to its COUNT or UNTIL, and the RDATEs, less the EXDATEs (matched by original start;
 * a date removes every occurrence on that day). The rule is always counted from the series'
 * start, so COUNT and INTERVAL mean the same whatever the window.
 */
export function expandRecurrence(timing: SeriesTiming, rule: RecurrenceRule, window: ExpansionWindow, limit = Infinity): Expansion {
  const toMs = utcSqlMillis(window.to);
  const fromUtc = window.from ?? '';
  // How many rule starts could be needed: the limit, plus the ones EXDATEs may remove.
  const wanted = limit + rule.exdates.length + 1;

  const utcOf = rememberedUtc(timing.timezone);
  const walls = new Set<string>();
  const untilOk = untilCheck(rule, utcOf);
  if (untilOk(timing.startDate)) walls.add(timing.startDate);
  for (const wall of ruleStarts(timing, rule, fromUtc, toMs, wanted)) if (untilOk(wall)) walls.add(wall);
  for (const d of rule.rdates) walls.add(rdateWall(d, timing));

  const excluded = exclusion(rule.exdates, timing, utcOf);
  const all = [...walls]
    .filter((wall) => !excluded(wall))
    .map((wall) => ({ wall, utc: utcOf(wall) }))
    .sort((a, b) => (a.utc === b.utc ? (a.wall < b.wall ? -1 : 1) : a.utc < b.utc ? -1 : 1));

  // Every occurrence lasts what the series' first one was written to last (end − start as
  // written): for a timed series as an exact duration, so that an occurrence across a DST change
  // keeps its length and one whose start a gap skips still lasts it (RFC 5545 §3.8.2.5); for an
  // all-day series in days.
  const lengthMs = floating(timing.endDate) - floating(timing.startDate);
  const occurrences: Occurrence[] = [];
  const perDay = new Map<string, number>();
  let truncated = false;
  for (const { wall, utc } of all) {
    const day = wall.slice(0, 10);
    const nth = (perDay.get(day) ?? 0) + 1;
    perDay.set(day, nth);
    if (utc < fromUtc || utcSqlMillis(utc) >= toMs) continue;
    if (occurrences.length >= limit) {
      truncated = true;
      break;
    }
    const key = nth === 1 ? day : `${day}#${nth}`;
    if (timing.allDay) {
      const end = fromFloating(floating(wall) + lengthMs);
      occurrences.push({ key, originalStart: wall, utcOriginalStart: utc, start: wall, end, utcStart: utc, utcEnd: toUtc(end, timing.timezone) });
      continue;
    }
    // A start in a spring-forward gap is the instant the clock reads it after the gap (03:30 for
    // 02:30): the occurrence shows that reading; its original start stays the rule's.
    const utcEnd = fromFloating(floating(utc) + lengthMs);
    occurrences.push({
      key,
      originalStart: wall,
      utcOriginalStart: utc,
      start: utcToWall(utc, timing.timezone),
      end: utcToWall(utcEnd, timing.timezone),
      utcStart: utc,
      utcEnd,
    });
  }
  return { occurrences, truncated };
}

/**
 * The wall times the RRULE gives, from the series' start up to (a little past) `toMs`: all
 * those before `fromUtc` (or a little after), then at most `wanted` (some before it may be
 * left out when the rule has no COUNT, but never one of a day that has one in the window). The work is bounded by the
 * window, not by how far the series' start lies in the past: a rule without COUNT gives after any
 * start moved forward by whole periods what it gives after that start, so the scan begins there;
 * DAILY and WEEKLY rules (which only filter days, recurrence-rule.ts) are walked here day by day
 * in plain arithmetic, which costs nanoseconds a day where `rrule` costs tens of microseconds.
 */
function ruleStarts(timing: SeriesTiming, rule: RecurrenceRule, fromUtc: string, toMs: number, wanted: number): string[] {
  if (!rule.rrule) return [];
  const rrule = rule.rrule;
  const dtstart = new Date(floating(timing.startDate));
  const options = { ...RRule.parseString(rrule.body), dtstart };
  // Floating times: a wall time later than the window's end by more than any offset is past it.
  let boundMs = toMs + MAX_OFFSET_MS;
  if (rrule.until) {
    const untilWall = rrule.until.kind === 'date' ? `${rrule.until.date} 23:59:59` : rrule.until.utc;
    boundMs = Math.min(boundMs, floating(untilWall) + MAX_OFFSET_MS);
  }
  if (boundMs < dtstart.getTime() || !findsADay(rrule, dtstart) || !givesAnyStart(options)) return [];
  // Floating times again: a wall time up to a day's worth of offsets around the window's start
  // may be in it or not; only those past that count towards `wanted`.
  const fromMs = fromUtc === '' ? -Infinity : floating(fromUtc) + MAX_OFFSET_MS;
  const daily = rrule.freq === 'DAILY' || rrule.freq === 'WEEKLY';
  // DTSTART always counts as the first occurrence (RFC 5545 §3.8.5.3), also when the rule itself
  // would not give it: the rule then gives one start fewer than its COUNT.
  let count = rrule.count;
  if (count !== null) {
    if (!givesItsStart(rrule, dtstart)) count -= 1;
    if (count === 0) return [];
  }
  if (daily) return dayRuleStarts(rrule, dtstart.getTime(), boundMs, fromMs, wanted, count).map(fromFloating);
  const start = count === null ? skippedStart(rrule, dtstart, fromMs - 2 * MAX_OFFSET_MS) : dtstart;
  let inWindow = 0;
  const dates = new RRule({ ...options, dtstart: start, count }).between(start, new Date(boundMs), true, (d) => d.getTime() < fromMs || inWindow++ < wanted);
  return dates.map((d) => fromFloating(d.getTime()));
}

/** Whether the RRULE itself gives the series' start (which is the first occurrence either way), for a rule known to give some start. */
function givesItsStart(rrule: ParsedRrule, dtstart: Date): boolean {
  const first =
    rrule.freq === 'DAILY' || rrule.freq === 'WEEKLY'
      ? dayRuleStarts(rrule, dtstart.getTime(), Infinity, -Infinity, 1, 1)[0]
      : new RRule({ ...RRule.parseString(rrule.body), dtstart, count: 1 }).all()[0]?.getTime();
  return first === dtstart.getTime();
}

/**
 * Whether a series' RRULE gives its DTSTART itself. RFC 5545 calls a set whose DTSTART is out of
 * step with its rule undefined, and readers differ on it: the feed writes such a DTSTART out as an
 * RDATE too (series-feed.ts).
 */
export function ruleGivesStart(timing: SeriesTiming, rrule: ParsedRrule): boolean {
  const dtstart = new Date(floating(timing.startDate));
  if (!findsADay(rrule, dtstart) || !givesAnyStart({ ...RRule.parseString(rrule.body), dtstart })) return false;
  return givesItsStart(rrule, dtstart);
}

/**
 * A MONTHLY or YEARLY rule's start moved forward by whole 400-year cycles (the calendar's period)
 * that are also whole multiples of its INTERVAL, as far as stays before `fromMs`: the rule gives
 * the same starts after it. Only for rules without COUNT (a COUNT is counted from the start).
 */
function skippedStart(rrule: ParsedRrule, dtstart: Date, fromMs: number): Date {
  if (!Number.isFinite(fromMs)) return dtstart;
  const cycleYears = lcm(CYCLE_YEARS, rrule.freq === 'YEARLY' ? rrule.interval : rrule.interval / gcd(rrule.interval, 12) /* months → whole years */);
  const years = Math.floor((new Date(fromMs).getUTCFullYear() - dtstart.getUTCFullYear() - 1) / cycleYears) * cycleYears;
  if (!(years > 0)) return dtstart;
  const moved = new Date(dtstart);
  moved.setUTCFullYear(dtstart.getUTCFullYear() + years);
  return moved;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}

/**
 * The starts of a DAILY or WEEKLY rule (floating ms), in order, from `dtstartMs` up to `boundMs`:
 * every one before `fromMs`, then at most `wanted`; at most `count` in all when given. DAILY
 * visits every INTERVAL-th day from the start's; WEEKLY every day of every INTERVAL-th week (weeks
 * begin on WKST), the start's weekday when BYDAY is not given (RFC 5545 §3.3.10). A day the
 * filters keep gives the rule's times of day (BYHOUR × BYMINUTE × BYSECOND, the start's where not
 * given). Without COUNT the walk begins at the last whole step before `fromMs`.
 */
function dayRuleStarts(rrule: ParsedRrule, dtstartMs: number, boundMs: number, fromMs: number, wanted: number, count: number | null): number[] {
  const start = new Date(dtstartMs);
  const firstDay = Math.floor(dtstartMs / DAY_MS) * DAY_MS;
  const weekly = rrule.freq === 'WEEKLY';
  const stepMs = (weekly ? 7 : 1) * rrule.interval * DAY_MS;
  const keeps = dayFilter(rrule, weekly ? WEEKDAY_CODES[start.getUTCDay()] : null);
  const times = timesOfDay(rrule, dtstartMs - firstDay);
  let periodStart = weekly ? firstDay - ((start.getUTCDay() - weekStartDay(rrule) + 7) % 7) * DAY_MS : firstDay;
  const skipTo = fromMs - 2 * MAX_OFFSET_MS - DAY_MS;
  if (count === null && skipTo > periodStart + stepMs) periodStart += Math.floor((skipTo - periodStart) / stepMs) * stepMs;
  const out: number[] = [];
  let inWindow = 0;
  for (; periodStart <= boundMs; periodStart += stepMs) {
    for (let day = periodStart; day < periodStart + (weekly ? 7 : 1) * DAY_MS; day += DAY_MS) {
      if (day < firstDay || !keeps(day)) continue;
      for (const t of times) {
        const ms = day + t;
        if (ms < dtstartMs) continue;
        if (ms > boundMs) return out;
        out.push(ms);
        if (count !== null && out.length >= count) return out;
        if (ms >= fromMs && ++inWindow >= wanted) return out;
      }
    }
  }
  return out;
}

/** Whether a DAILY or WEEKLY rule keeps a day (UTC midnight ms, floating): BYMONTH, BYMONTHDAY and BYDAY. */
function dayFilter(rrule: ParsedRrule, defaultWeekday: string | null): (ms: number) => boolean {
  const months = rrule.parts.BYMONTH?.split(',').map(Number);
  const monthDays = rrule.parts.BYMONTHDAY?.split(',').map(Number);
  const weekdays = rrule.parts.BYDAY?.split(',') ?? (defaultWeekday ? [defaultWeekday] : undefined);
  return (ms) => {
    const d = new Date(ms);
    if (months && !months.includes(d.getUTCMonth() + 1)) return false;
    if (weekdays && !weekdays.includes(WEEKDAY_CODES[d.getUTCDay()])) return false;
    if (!monthDays) return true;
    const last = monthLength(d.getUTCFullYear(), d.getUTCMonth() + 1);
    return monthDays.some((n) => n === d.getUTCDate() || n === d.getUTCDate() - last - 1);
  };
}

/** Days in a month of the proleptic Gregorian calendar (Date.UTC would read years 0–99 as 1900–1999). */
function monthLength(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The rule's times of day as ms after midnight, in order: BYHOUR × BYMINUTE × BYSECOND, each the start's when not given. */
function timesOfDay(rrule: ParsedRrule, startTimeMs: number): number[] {
  const list = (part: string, fallback: number) => rrule.parts[part]?.split(',').map(Number) ?? [fallback];
  const hours = list('BYHOUR', Math.floor(startTimeMs / 3_600_000));
  const minutes = list('BYMINUTE', Math.floor(startTimeMs / 60_000) % 60);
  const seconds = list('BYSECOND', Math.floor(startTimeMs / 1000) % 60);
  const times = hours.flatMap((h) => minutes.flatMap((m) => seconds.map((s) => ((h * 60 + m) * 60 + s) * 1000)));
  return [...new Set(times)].sort((a, b) => a - b);
}

/** Days in the Gregorian calendar's 400-year cycle, a whole number of weeks: every pattern of days repeats after it. */
const CYCLE_DAYS = 146_097;
const DAY_MS = 86_400_000;
const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * Whether a DAILY or WEEKLY rule can give any day at all. rrule checks its end (the window,
 * UNTIL) only on days the rule gives, so a rule giving none (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`,
 * `FREQ=DAILY;INTERVAL=7;BYDAY=TU` from a Monday) would be scanned day by day to the year 9999
 * (tens of seconds). Such rules filter days by BYMONTH, BYMONTHDAY and BYDAY only
 * (recurrence-rule.ts), so the days they may visit are tried here, one 400-year cycle of steps:
 * a few milliseconds. MONTHLY and YEARLY rules are checked by givesAnyStart.
 */
function findsADay(rrule: ParsedRrule, dtstart: Date): boolean {
  if (rrule.freq !== 'DAILY' && rrule.freq !== 'WEEKLY') return true;
  if (!rrule.parts.BYMONTH && !rrule.parts.BYMONTHDAY && !rrule.parts.BYDAY) return true;
  return dayRuleStarts(rrule, dtstart.getTime(), dtstart.getTime() + CYCLE_DAYS * rrule.interval * 7 * DAY_MS, -Infinity, 1, 1).length > 0;
}

/** rrule's last year: its scan of a rule stops there. */
const RRULE_LAST_YEAR = 9999;
const CYCLE_YEARS = 400;

/**
 * Whether a MONTHLY or YEARLY rule gives any start at all (`FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30`
 * gives none, and rrule would scan 96,000 months to learn it, about two seconds). Days, weekdays
 * and months repeat every 400 years, and so does what such a rule gives (its periods are whole
 * months or years, every INTERVAL-th of them, so moving DTSTART by 400 years moves every start by
 * 400 years). The rule is asked from DTSTART moved by a multiple of 400 years to between 400 and
 * 800 years before the year rrule stops at: a rule that gives nothing there gives nothing ever.
 */
function givesAnyStart(options: Partial<Options> & { dtstart: Date }): boolean {
  if (options.freq !== RRule.MONTHLY && options.freq !== RRule.YEARLY) return true;
  const year = options.dtstart.getUTCFullYear();
  const probe = new Date(options.dtstart);
  probe.setUTCFullYear(year + Math.max(0, Math.floor((RRULE_LAST_YEAR - CYCLE_YEARS - year) / CYCLE_YEARS)) * CYCLE_YEARS);
  return new RRule({ ...options, dtstart: probe, count: null }).all((_d, i) => i < 1).length > 0;
}

/** WKST as a JavaScript weekday (0 = Sunday); Monday when not given. */
function weekStartDay(rrule: ParsedRrule): number {
  const wkst = /(?:^|;)WKST=([A-Z]{2})/.exec(rrule.body)?.[1] ?? 'MO';
  return WEEKDAY_CODES.indexOf(wkst);
}

/** UNTIL bounds the rule's starts (§3: as an instant for a timed series, a day for an all-day one). */
function untilCheck(rule: RecurrenceRule, utcOf: (wall: string) => string): (wall: string) => boolean {
  const until = rule.rrule?.until;
  if (!until) return () => true;
  if (until.kind === 'date') return (wall) => wall.slice(0, 10) <= until.date;
  return (wall) => utcOf(wall) <= until.utc;
}

/** An RDATE's wall time: a date at the series' time of day; a UTC instant read in the series' zone. */
function rdateWall(d: RuleDate, timing: SeriesTiming): string {
  const time = timing.startDate.slice(11);
  switch (d.kind) {
    case 'date':
      return `${d.date} ${time}`;
    case 'wall':
      return timing.allDay ? `${d.wall.slice(0, 10)} ${time}` : d.wall;
    case 'utc':
      return timing.allDay ? `${utcToWall(d.utc, timing.timezone).slice(0, 10)} ${time}` : utcToWall(d.utc, timing.timezone);
  }
}

/** Whether an original start is excluded: a date by its day, a wall time as written, a UTC value as that instant. */
function exclusion(exdates: RuleDate[], timing: SeriesTiming, utcOf: (wall: string) => string): (wall: string) => boolean {
  const days = new Set<string>();
  const walls = new Set<string>();
  const instants = new Set<string>();
  for (const d of exdates) {
    if (d.kind === 'date' || timing.allDay)
      days.add(d.kind === 'date' ? d.date : d.kind === 'wall' ? d.wall.slice(0, 10) : utcToWall(d.utc, timing.timezone).slice(0, 10));
    else if (d.kind === 'wall') walls.add(d.wall);
    else instants.add(d.utc);
  }
  return (wall) => days.has(wall.slice(0, 10)) || walls.has(wall) || (instants.size > 0 && instants.has(utcOf(wall)));
}

/**
 * common/datetime's wallToUtc, from the offsets it remembers per zone and hour (isoAtWallTime)
 * rather than luxon's objects, which ask Intl each time: about 140 µs a call against a few, and
 * a two-year daily series has 730 of them. The same rule (gap forward, overlap the earlier pass);
 * expand.spec.ts compares the two across DST changes.
 */
export function toUtc(wall: string, zone: string): string {
  return new Date(Date.parse(isoAtWallTime(wall, zone))).toISOString().slice(0, 19).replace('T', ' ');
}

/** toUtc for one zone, each wall time converted once (UNTIL, EXDATE and the result all ask). */
function rememberedUtc(zone: string): (wall: string) => string {
  const known = new Map<string, string>();
  return (wall) => {
    let utc = known.get(wall);
    if (utc === undefined) known.set(wall, (utc = toUtc(wall, zone)));
    return utc;
  };
}

/** A wall time as the UTC instant with the same reading (the rule's arithmetic is done on these). */
function floating(wall: string): number {
  return utcSqlMillis(wall);
}

function fromFloating(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
