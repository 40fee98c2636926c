import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { atWallTime } from '../../common/datetime/format';
import { Moment, momentKey, momentMillis } from './ics-times';

// RRULE/RDATE/EXDATE expansion (ical.md, Import: "RRULEs are expanded into separate events for
// the import window, honouring EXDATE and overridden instances"). ical.js's RecurIterator does
// the rule arithmetic on wall times (RFC 5545 recurs in local time: a weekly 09:00 meeting stays
// at 09:00 across a DST change); each wall time is then placed in the series' zone by luxon.
// UNTIL is compared here as an instant, because ical.js would compare a floating wall time with
// a UTC UNTIL as if both were UTC.

/** The instances of one series to import, and what was left out. */
export interface Expansion {
  /** Instance starts in the window, in order, at most `cap`. */
  starts: Moment[];
  /** Instances in the window past the cap (not imported). */
  overCap: number;
  /** True when the rule was still producing instances after `maxSteps` (too dense to expand). */
  truncated: boolean;
}

export interface Window {
  fromMs: number;
  toMs: number;
}

export interface SeriesRules {
  start: Moment;
  /** Length of one instance: milliseconds for timed series, days for all-day ones (end exclusive). */
  lengthMs: number;
  rrules: ICAL.Recur[];
  /** RDATE values already read as moments. */
  rdates: Moment[];
  /** EXDATE values already read as moments. */
  exdates: Moment[];
  /** Reads an UNTIL value (UTC, floating or a date) as an instant bound. */
  untilMs: (until: ICAL.Time) => number;
}

/** The default cap on instances per series (reported as skipped beyond it). */
export const MAX_INSTANCES = 1000;
/** Rule steps tried per series before giving up (a SECONDLY rule over a year is millions). */
export const MAX_STEPS = 200_000;

/**
 * The instance starts of a series that overlap the window (an instance that started before it
 * and is still going counts), EXDATEs removed, RDATEs added, in order; at most `cap`.
 */
export function expandSeries(series: SeriesRules, window: Window, cap = MAX_INSTANCES, maxSteps = MAX_STEPS): Expansion {
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

/** An EXDATE's key in the series' terms: a DATE EXDATE of a timed series removes that day's instance at the series' time. */
function exdateKey(ex: Moment, start: Moment): string {
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

/** Runs one RRULE from the series start; true when it stopped on `maxSteps` with instances left. */
function iterate(series: SeriesRules, rule: ICAL.Recur, window: Window, maxSteps: number, add: (m: Moment) => void): boolean {
  const recur = rule.clone();
  const untilMs = recur.until ? series.untilMs(recur.until) : Infinity;
  recur.until = null;
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
  const iterator = recur.iterator(first);
  for (let step = 0; step < maxSteps; step++) {
    const next = iterator.next();
    if (!next) return false;
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
    add(m);
  }
  return true;
}
