import { DateTime, FixedOffsetZone, Zone } from 'luxon';
import { resolveZone, timezoneAbbr } from '../datetime/zones';

// VTIMEZONE components (RFC 5545 §3.6.5) for the IANA zones an iCalendar feed uses. Node has
// the zone rules (through Intl) but no way to list them, so the offset changes are found by
// asking the zone for its offset day by day and narrowing each change down to the minute.
// Every change in the years covered becomes one STANDARD or DAYLIGHT observance with its own
// DTSTART (no RRULE): exact for those years whatever the zone's history, and what a client needs
// to resolve the feed's local times.

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** An offset change: from `atMs` (UTC milliseconds) on, the zone is `to` minutes ahead of UTC instead of `from`. */
export interface OffsetChange {
  atMs: number;
  from: number;
  to: number;
}

/** Whole years, inclusive. */
export interface YearSpan {
  from: number;
  to: number;
}

/**
 * The offset changes of `zone` in [fromMs, toMs), in order. Checked once a day: no zone has
 * changed its offset twice within one day, and a change between two checks is found by
 * bisection to the minute (zones change on whole minutes).
 */
export function offsetChanges(zone: Zone, fromMs: number, toMs: number): OffsetChange[] {
  const changes: OffsetChange[] = [];
  let t = Math.floor(fromMs / MINUTE_MS) * MINUTE_MS;
  let offset = zone.offset(t);
  while (t < toMs) {
    const next = Math.min(t + DAY_MS, toMs);
    const nextOffset = zone.offset(next);
    if (nextOffset === offset) {
      t = next;
      continue;
    }
    // zone.offset(lo) === offset and zone.offset(hi) !== offset, both on whole minutes.
    let lo = t;
    let hi = Math.ceil(next / MINUTE_MS) * MINUTE_MS;
    while (hi - lo > MINUTE_MS) {
      const mid = lo + Math.floor((hi - lo) / MINUTE_MS / 2) * MINUTE_MS;
      if (zone.offset(mid) === offset) lo = mid;
      else hi = mid;
    }
    const to = zone.offset(hi);
    if (hi < toMs) changes.push({ atMs: hi, from: offset, to });
    t = hi;
    offset = to;
  }
  return changes;
}

/** `+0530`, `-0300`, `+0000` (seconds only when there are any, as RFC 5545 allows). */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const whole = Math.trunc(abs);
  const seconds = Math.round((abs - whole) * 60);
  const hhmm = `${String(Math.floor(whole / 60)).padStart(2, '0')}${String(whole % 60).padStart(2, '0')}`;
  return `${sign}${hhmm}${seconds === 0 ? '' : String(seconds).padStart(2, '0')}`;
}

/** The first instant of the span and the first after it, one day wider on each side (zones up to ±14 h). */
function spanBounds(years: YearSpan): { fromMs: number; toMs: number } {
  return { fromMs: Date.UTC(years.from, 0, 1) - DAY_MS, toMs: Date.UTC(years.to + 1, 0, 1) + DAY_MS };
}

/** One observance: from `atMs` on, `to`, reached from `from`; DTSTART is the onset in the old offset's local time. */
function observance(name: string, zone: Zone, change: OffsetChange): string[] {
  const onsetLocal = DateTime.fromMillis(change.atMs, { zone: FixedOffsetZone.instance(change.from) });
  const kind = DateTime.fromMillis(change.atMs, { zone }).isInDST ? 'DAYLIGHT' : 'STANDARD';
  const abbr = timezoneAbbr(name, DateTime.fromMillis(change.atMs, { zone: 'utc' }));
  return [
    `BEGIN:${kind}`,
    `DTSTART:${onsetLocal.toFormat("yyyyLLdd'T'HHmmss")}`,
    `TZOFFSETFROM:${formatUtcOffset(change.from)}`,
    `TZOFFSETTO:${formatUtcOffset(change.to)}`,
    ...(abbr !== '' ? [`TZNAME:${abbr}`] : []),
    `END:${kind}`,
  ];
}

const REMEMBERED = new Map<string, string | null>();
const REMEMBERED_CHANGES = new Map<string, OffsetChange[]>();
const MAX_REMEMBERED = 500;

/** A bounded memo: zones and year spans in use are few; a full map starts over. */
function remember<T>(memo: Map<string, T>, key: string, compute: () => T): T {
  const known = memo.get(key);
  if (known !== undefined) return known;
  const value = compute();
  if (memo.size >= MAX_REMEMBERED) memo.clear();
  memo.set(key, value);
  return value;
}

/** The offset changes of an IANA zone in the years covered (a day wider on each side); none for any other name. */
export function zoneChanges(name: string, years: YearSpan): OffsetChange[] {
  return remember(REMEMBERED_CHANGES, `${name}|${years.from}|${years.to}`, () => {
    const zone = resolveZone(name);
    if (!zone || zone.type !== 'iana') return [];
    const { fromMs, toMs } = spanBounds(years);
    return offsetChanges(zone, fromMs, toMs);
  });
}

/**
 * The VTIMEZONE of an IANA zone for the years covered (lines joined by CRLF, unfolded), or
 * null for a name that is not an IANA zone (`UTC±N` zones are written in UTC form instead).
 * It starts with the offset in force at the start of the span (an observance whose DTSTART is
 * that instant and whose offset does not change), then one observance per change.
 */
export function vtimezone(name: string, years: YearSpan): string | null {
  return remember(REMEMBERED, `${name}|${years.from}|${years.to}`, () => {
    const zone = resolveZone(name);
    return zone && zone.type === 'iana' ? buildVtimezone(name, zone, years) : null;
  });
}

function buildVtimezone(name: string, zone: Zone, years: YearSpan): string {
  const { fromMs } = spanBounds(years);
  const initial = zone.offset(fromMs);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${name}`, `X-LIC-LOCATION:${name}`];
  lines.push(...observance(name, zone, { atMs: fromMs, from: initial, to: initial }));
  for (const change of zoneChanges(name, years)) lines.push(...observance(name, zone, change));
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

/**
 * True when `ms` falls in the time a zone repeats when its clocks go back (one of `changes`),
 * at the second pass: its local time then names the first pass in iCalendar (RFC 5545
 * §3.3.5), so a time meant for the second pass cannot be written as local time with a TZID.
 */
export function isRepeatedLocalTime(changes: OffsetChange[], ms: number): boolean {
  return changes.some((c) => c.to < c.from && ms >= c.atMs && ms < c.atMs + (c.from - c.to) * MINUTE_MS);
}

/**
 * True when `ms` falls in the time a zone repeats when its clocks go back, at either pass: its
 * local time names two instants, and calendar clients do not agree on which one it means
 * (RFC 5545 §3.3.5 says the first; ical.js takes the second, and so do node-ical,
 * ts-ics and Python's icalendar), so such a time is written in UTC form.
 */
export function isAmbiguousLocalTime(changes: OffsetChange[], ms: number): boolean {
  const firstPass = (c: OffsetChange) => c.to < c.from && ms < c.atMs && ms >= c.atMs - (c.from - c.to) * MINUTE_MS;
  return changes.some(firstPass) || isRepeatedLocalTime(changes, ms);
}
