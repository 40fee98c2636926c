import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { atWallTime } from '../../common/datetime/format';
import { Moment, momentKey, momentMillis } from './ics-times';

// RRULE/RDATE/EXDATE expansion (ical.md, Import: "RRULEs are expanded into separate events for
// the import window, honouring EXDATE and overridden occurrences"). ical.js's RecurIterator does
// the rule arithmetic on wall times (RFC 5545 recurs in local time: a weekly 09:00 meeting stays
// at 09:00 across a DST change); each wall time is then placed in the series' zone by luxon.
// UNTIL is compared here as an instant, because ical.js would compare a floating wall time with
// a UTC UNTIL as if both were UTC.
//
// Two faults of the iterator are handled here (docs/compatibility.md). It searches
// for the next day a rule gives without end, so a rule that gives none (FREQ=DAILY;BYMONTH=2;
// BYMONTHDAY=30) never returned: its search is stopped once it passes the window's end or UNTIL
// (searchBounded). And it turns a day a month lacks into the next month's (31 April into 1 May,
// a yearly 29 February into 1 March), where RFC 5545 skips the day: such days are left out and
// COUNT counted here, on the days the rule means (daysOfRule).

/** The occurrences of one series to import, and what was left out. */
export interface Expansion {
  /** Occurrence starts in the window, in order, at most `cap`. */
  starts: Moment[];
  /** Occurrences in the window past the cap (not imported). */
  overCap: number;
  /** True when the rule was still producing occurrences after `maxSteps` (too dense to expand). */
  truncated: boolean;
}

export interface Window {
  fromMs: number;
  toMs: number;
}

export interface SeriesRules {
  start: Moment;
  /** Length of one occurrence: milliseconds for timed series, days for all-day ones (end exclusive). */
  lengthMs: number;
  rrules: ICAL.Recur[];
  /** RDATE values already read as moments. */
  rdates: Moment[];
  /** EXDATE values already read as moments. */
  exdates: Moment[];
  /** Reads an UNTIL value (UTC, floating or a date) as an instant bound. */
  untilMs: (until: ICAL.Time) => number;
}

/** The default cap on occurrences per series (reported as skipped beyond it). */
export const MAX_OCCURRENCES = 1000;
/** Rule steps tried per series before giving up (a SECONDLY rule over a year is millions). */
export const MAX_STEPS = 200_000;
/** Candidate times the iterator may try per rule, given or not, before the series is called too dense. */
export const MAX_SEARCH = 1_000_000;
/** How far past the window's end (or UNTIL) a wall time may lie and still be before it as an instant: more than any zone's offset. */
const SEARCH_MARGIN_MS = 2 * 86_400_000;

/**
 * The occurrence starts of a series that overlap the window (an occurrence that started before it
 * and is still going counts), EXDATEs removed, RDATEs added, in order; at most `cap`.
 */
export function expandSeries(series: SeriesRules, window: Window, cap = MAX_OCCURRENCES, maxSteps = MAX_STEPS): Expansion {
  const found = new Map<string, Moment>();
  let truncated = false;
  const overlaps = (m: Moment) => {
    const startMs = momentMillis(m);
    return startMs < window.toMs && startMs + series.lengthMs > window.fromMs;
  };
  const add = (m: Moment) => {
    if (overlaps(m)) found.set(momentKey(m), m);
  };

  add(series.start);
  for (const rule of series.rrules) {
    truncated = iterate(series, rule, window, maxSteps, add) || truncated;
  }
  for (const m of series.rdates) add(m);
  const excluded = new Set(series.exdates.map((m) => exdateKey(m, series.start)));
  const starts = [...found.entries()]
    .filter(([key]) => !excluded.has(key))
    .map(([, m]) => m)
    .sort((a, b) => momentMillis(a) - momentMillis(b));
  return { starts: starts.slice(0, cap), overCap: Math.max(0, starts.length - cap), truncated };
}

/**
 * Every start one RRULE gives from the series' start (DTSTART first, COUNT and UNTIL applied) that
 * begins before `toMs`, in order, at most `maxSteps`; null when the rule was still going then
 * (too dense to list). The n-th start is the rule's n-th occurrence, which is what COUNT counts.
 */
export function ruleStarts(series: SeriesRules, rule: ICAL.Recur, toMs: number, maxSteps = MAX_STEPS): Moment[] | null {
  const starts: Moment[] = [];
  const truncated = iterate(series, rule, { fromMs: -Infinity, toMs }, maxSteps, (m) => starts.push(m));
  return truncated ? null : starts;
}

/** An EXDATE's key in the series' terms: a DATE EXDATE of a timed series removes that day's occurrence at the series' time. */
export function exdateKey(ex: Moment, start: Moment): string {
  if (start.kind === 'day' && ex.kind === 'instant') return ex.at.toFormat('yyyyLLdd');
  if (start.kind === 'instant' && ex.kind === 'day') {
    const local = start.at;
    const at = atWallTime(
      { year: ex.date.year, month: ex.date.month, day: ex.date.day, hour: local.hour, minute: local.minute, second: local.second },
      local.zone,
    );
    return momentKey({ kind: 'instant', at, zone: start.zone });
  }
  return momentKey(ex);
}

/** Runs one RRULE from the series start; true when it stopped on `maxSteps` with occurrences left. */
function iterate(series: SeriesRules, rule: ICAL.Recur, window: Window, maxSteps: number, add: (m: Moment) => void): boolean {
  const recur = rule.clone();
  const untilMs = recur.until ? series.untilMs(recur.until) : Infinity;
  const count = recur.count;
  recur.until = null;
  recur.count = null;
  const start = series.start;
  const first =
    start.kind === 'day'
      ? ICAL.Time.fromData({ year: start.date.year, month: start.date.month, day: start.date.day, isDate: true })
      : ICAL.Time.fromData({
          year: start.at.year,
          month: start.at.month,
          day: start.at.day,
          hour: start.at.hour,
          minute: start.at.minute,
          second: start.at.second,
        });
  const isRuleDay = daysOfRule(recur, first);
  const search = searchBounded(recur.iterator(first), Math.min(untilMs, window.toMs) + SEARCH_MARGIN_MS);
  let given = 0;
  for (let step = 0; step < maxSteps; step++) {
    const next = search.next();
    if (!next) return search.exhausted();
    const m: Moment =
      start.kind === 'day'
        ? { kind: 'day', date: DateTime.utc(next.year, next.month, next.day) }
        : {
            kind: 'instant',
            at: atWallTime({ year: next.year, month: next.month, day: next.day, hour: next.hour, minute: next.minute, second: next.second }, start.at.zone),
            zone: start.zone,
          };
    const ms = momentMillis(m);
    if (ms > untilMs || ms >= window.toMs) return false;
    // DTSTART is the first occurrence whatever the rule says (RFC 5545 §3.8.5.3), and counts.
    if (next.compare(first) !== 0 && !isRuleDay(next)) continue;
    if (count !== null && ++given > count) return false;
    add(m);
  }
  return true;
}

/** The iterator stopped: its search passed the bound, or tried `MAX_SEARCH` times. */
class SearchStopped extends Error {
  constructor(readonly exhausted: boolean) {
    super(exhausted ? 'search budget spent' : 'search past its bound');
  }
}

/**
 * The iterator's `next()`, which returns null instead of searching past `boundMs` (a wall time
 * read as UTC) or longer than `MAX_SEARCH` candidates. ical.js tries each candidate time with
 * `check_contracting_rules()` after moving `last` to it, so that is where the search is watched.
 */
function searchBounded(iterator: ICAL.RecurIterator, boundMs: number): { next: () => ICAL.Time | null; exhausted: () => boolean } {
  let tried = 0;
  let exhausted = false;
  const check = iterator.check_contracting_rules.bind(iterator);
  iterator.check_contracting_rules = () => {
    const last = iterator.last;
    if (Date.UTC(last.year, last.month - 1, last.day, last.hour, last.minute, last.second) > boundMs) throw new SearchStopped(false);
    if (++tried > MAX_SEARCH) throw new SearchStopped(true);
    return check();
  };
  return {
    next: () => {
      if (exhausted) return null;
      try {
        return iterator.next();
      } catch (err) {
        if (!(err instanceof SearchStopped)) throw err;
        exhausted = err.exhausted;
        return null;
      }
    },
    exhausted: () => exhausted,
  };
}

/**
 * Whether a time the iterator gives is on a day the rule means. ical.js rolls a day a month lacks
 * over into the next month (BYMONTH=4;BYMONTHDAY=31 gives 1 May; a yearly series from 29 February
 * gives 1 March, a monthly one from the 31st is right); RFC 5545 skips such days. Only MONTHLY and
 * YEARLY rules pick days by date, so only theirs are checked: BYMONTH and BYMONTHDAY, or the
 * series' own day (and, yearly, month) when the rule names no day.
 */
function daysOfRule(recur: ICAL.Recur, first: ICAL.Time): (t: ICAL.Time) => boolean {
  if (recur.freq !== 'MONTHLY' && recur.freq !== 'YEARLY') return () => true;
  const { BYMONTH, BYMONTHDAY, BYDAY, BYYEARDAY, BYWEEKNO } = recur.parts;
  const namesNoDay = !BYMONTHDAY && !BYDAY && !BYYEARDAY && !BYWEEKNO;
  const months = BYMONTH ?? (recur.freq === 'YEARLY' && namesNoDay ? [first.month] : null);
  const monthDays = BYMONTHDAY ?? (namesNoDay ? [first.day] : null);
  return (t) => {
    if (months && !months.includes(t.month)) return false;
    if (!monthDays) return true;
    const fromEnd = t.day - ICAL.Time.daysInMonth(t.month, t.year) - 1;
    return monthDays.some((n) => n === t.day || n === fromEnd);
  };
}
