import { DateTime, Zone } from 'luxon';
import { offsetAt, requireZone } from './zones';

/**
 * The one writer and reader of the service's date-time strings (spec README §6.1, STYLE §8):
 * `YYYY-MM-DD HH:MM:SS`, 24-hour clock, no offset. Which zone a string is in depends on the field.
 */
export const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const SQL_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A wall-clock reading: what a clock on the wall in some zone shows. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

export function formatSql(dt: DateTime): string {
  if (!dt.isValid) throw new RangeError(`Cannot format an invalid date-time: ${dt.invalidExplanation ?? dt.invalidReason}`);
  // The same text as dt.toFormat(SQL_FORMAT), without parsing the format on every call.
  return sqlText(dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second);
}

function sqlText(year: number, month: number, day: number, hour: number, minute: number, second: number): string {
  const two = (n: number) => (n < 10 ? `0${n}` : String(n));
  const yyyy = year >= 0 && year < 1000 ? String(year).padStart(4, '0') : String(year);
  return `${yyyy}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}:${two(second)}`;
}

/** `2025-03-14 09:30:00` → its fields, checked against the calendar (no Feb 30, no hour 24). */
function parseWallSql(s: string): WallTime {
  const m = typeof s === 'string' ? SQL_PATTERN.exec(s) : null;
  if (!m) throw new RangeError(`Not a YYYY-MM-DD HH:MM:SS date-time: ${String(s)}`);
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  // The spec's 24-hour clock stops at 23 (luxon would take hour 24 as the next day's 00:00).
  const valid = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 && second <= 59;
  if (!valid) throw new RangeError(`No such date-time: ${s}`);
  return { year, month, day, hour, minute, second };
}

/** Proleptic Gregorian, as luxon and both databases count. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Milliseconds since the epoch of a UTC wall time (Date.UTC alone would read years 0–99 as 1900–1999). */
function utcMillis(w: WallTime): number {
  const d = new Date(Date.UTC(2000, 0, 1, w.hour, w.minute, w.second));
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  return d.getTime();
}

/** A stored UTC string (`YYYY-MM-DD HH:MM:SS`) as milliseconds since the epoch. Throws on a malformed string. */
export function utcSqlMillis(s: string): number {
  return utcMillis(parseWallSql(s));
}

/**
 * The instant at which clocks in `zone` show `wall`.
 *
 * Daylight-saving switches make some wall times special; we behave like PHP (and so like TEC):
 * - gap (spring forward, e.g. 02:30 on 2025-03-09 in New York does not exist): luxon's own rule,
 *   which moves the time forward by the length of the gap → 03:30 EDT.
 * - overlap (fall back, e.g. 01:30 on 2025-11-02 in New York happens twice): the earlier instant,
 *   i.e. the offset in force before the switch → 01:30 EDT (-04:00), not 01:30 EST.
 * Luxon alone picks an overlap's offset from a guess based on the process's start-up date (so a
 * server started in winter would answer differently from one started in summer); asking for
 * getPossibleOffsets() and taking the earliest makes the answer fixed.
 */
export function atWallTime(wall: WallTime, zone: Zone | string): DateTime {
  const resolved = requireZone(zone);
  // Remembered (DateTime is immutable): luxon asks Intl for the zone's offset several times per
  // call, and one write reads the same wall time in the same zone several times (its checks, its
  // timing; a series' occurrences each).
  const key = `${resolved.name}|${wall.year}-${wall.month}-${wall.day} ${wall.hour}:${wall.minute}:${wall.second}`;
  const known = Object.keys(wall).length === WALL_FIELDS ? INSTANTS.get(key) : undefined;
  if (known) return known;
  const dt = DateTime.fromObject(wall, { zone: resolved });
  if (!dt.isValid) return dt;
  const instant = dt.getPossibleOffsets().reduce((earliest, candidate) => (candidate < earliest ? candidate : earliest));
  if (Object.keys(wall).length === WALL_FIELDS) {
    // Bounded: emptied rather than evicted one by one, as zones.ts' offsets are.
    if (INSTANTS.size >= MAX_REMEMBERED_INSTANTS) INSTANTS.clear();
    INSTANTS.set(key, instant);
  }
  return instant;
}

/** atWallTime's answers by zone and wall time (only for walls of exactly WallTime's six fields). */
const INSTANTS = new Map<string, DateTime>();
const MAX_REMEMBERED_INSTANTS = 20_000;
const WALL_FIELDS = 6;

/** Inverse of formatSql: the wall-clock string read in `zone`. Throws on a malformed string. */
export function parseSql(s: string, zone: Zone | string): DateTime {
  return atWallTime(parseWallSql(s), zone);
}

/** The `*_details` object of spec README §6.1, all zero-padded strings. */
export function dateDetails(sql: string): DateDetails {
  const m = typeof sql === 'string' ? SQL_PATTERN.exec(sql) : null;
  if (!m) throw new RangeError(`Not a YYYY-MM-DD HH:MM:SS date-time: ${String(sql)}`);
  const [, year, month, day, hour, minutes, seconds] = m;
  return { year, month, day, hour, minutes, seconds };
}

/** ISO 8601 with a numeric offset and no milliseconds, as JSON-LD wants: `2025-04-12T19:30:00-04:00`, never `Z`. */
export function toIsoWithOffset(dt: DateTime): string {
  if (!dt.isValid) throw new RangeError(`Cannot format an invalid date-time: ${dt.invalidExplanation ?? dt.invalidReason}`);
  return dt.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

const DAY_MS = 86_400_000;

/** toIsoWithOffset's text of the instant `ts` shown at `offset` minutes (luxon's `ZZ`: hours and whole minutes). */
function isoText(ts: number, offset: number): string {
  const wall = new Date(ts + offset * 60_000);
  const text = sqlText(wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate(), wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds());
  const abs = Math.abs(offset);
  const hh = Math.trunc(abs / 60);
  const mm = Math.trunc(abs % 60);
  return `${text.slice(0, 10)}T${text.slice(11)}${offset >= 0 ? '+' : '-'}${hh < 10 ? '0' : ''}${hh}:${mm < 10 ? '0' : ''}${mm}`;
}

/**
 * `toIsoWithOffset(parseSql(wallSql, zone))`, the same text, from remembered offsets (offsetAt)
 * instead of luxon's objects, which ask Intl for the offset each time: JSON-LD shows every
 * event's start and end so. The instant follows atWallTime's rules: of the offsets in force a
 * day before and a day after, those at which the wall time exists (both in an overlap: the
 * larger, i.e. the earlier instant); in a gap neither, and the wall time is read with the offset
 * before the gap, which moves it forward by the gap's length.
 */
export function isoAtWallTime(wallSql: string, zoneName: string): string {
  const zone = requireZone(zoneName);
  const wallMs = utcMillis(parseWallSql(wallSql));
  const before = offsetAt(zone, wallMs - DAY_MS);
  const after = offsetAt(zone, wallMs + DAY_MS);
  let offset: number | undefined;
  for (const candidate of [before, after]) {
    if (offsetAt(zone, wallMs - candidate * 60_000) === candidate && (offset === undefined || candidate > offset)) offset = candidate;
  }
  const ts = wallMs - (offset ?? Math.min(before, after)) * 60_000;
  return isoText(ts, offsetAt(zone, ts));
}

/**
 * `toIsoWithOffset(DateTime.fromSQL(utcSql, { zone: 'UTC' }).setZone(zone).startOf('day'))`, the
 * same text, from remembered offsets: the start of the day in `zone` on which the UTC instant
 * falls (JSON-LD's offer `validFrom`). Midnight is placed as luxon's startOf places it, starting
 * from the instant's own offset: kept when midnight has it too, else the offset at the first
 * guess, and in a gap at midnight the wall time moves forward by the gap.
 */
export function isoStartOfDay(utcSql: string, zoneName: string): string {
  const zone = requireZone(zoneName);
  const instant = utcSqlMillis(utcSql);
  const offset = offsetAt(zone, instant);
  const wall = instant + offset * 60_000;
  const midnight = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
  const guess = midnight - offset * 60_000;
  const second = offsetAt(zone, guess);
  if (second === offset) return isoText(guess, offset);
  const retry = guess - (second - offset) * 60_000;
  const third = offsetAt(zone, retry);
  if (third === second) return isoText(retry, second);
  return isoText(midnight - Math.min(second, third) * 60_000, Math.max(second, third));
}

/** Wall-clock time in `zoneName` (IANA or `UTC±N`) → the same instant in UTC, DST honoured (see atWallTime). */
export function wallToUtc(wallSql: string, zoneName: string): string {
  const zone = requireZone(zoneName);
  // Away from a change of offset the instant is plain arithmetic: when the zone keeps one offset
  // from a day before the wall time to a day after it, the wall time exists exactly once, at
  // that offset (tzdb's changes are days apart). Near a change, atWallTime's rules decide.
  const local = utcSqlMillis(wallSql);
  const offset = offsetAt(zone, local - DAY_MS);
  if (offsetAt(zone, local + DAY_MS) === offset && offsetAt(zone, local - offset * 60_000) === offset) return formatUtcMillis(local - offset * 60_000);
  return formatSql(parseSql(wallSql, zone).toUTC());
}

/**
 * The later instant at which clocks in `zoneName` show `wallSql` when a fall-back shows it twice
 * (01:15 on a New York November night: 05:15 and 06:15 UTC); wallToUtc's answer otherwise.
 */
export function laterWallToUtc(wallSql: string, zoneName: string): string {
  const zone = requireZone(zoneName);
  const local = utcSqlMillis(wallSql);
  let latest: number | null = null;
  for (const offset of [offsetAt(zone, local - DAY_MS), offsetAt(zone, local + DAY_MS)]) {
    const ts = local - offset * 60_000;
    if (offsetAt(zone, ts) === offset && (latest === null || ts > latest)) latest = ts;
  }
  return latest === null ? wallToUtc(wallSql, zoneName) : formatUtcMillis(latest);
}

/** Milliseconds since the epoch as a stored UTC string (`YYYY-MM-DD HH:MM:SS`). */
export function formatUtcMillis(ts: number): string {
  const d = new Date(ts);
  return sqlText(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}

/** UTC → the wall-clock time in `zoneName` at that instant. */
export function utcToWall(utcSql: string, zoneName: string): string {
  const zone = requireZone(zoneName);
  // UTC has no gaps or folds: the instant is plain arithmetic, and so is the wall time once the
  // zone's offset at that instant is known (what setZone() would do, without its objects).
  const instant = utcSqlMillis(utcSql);
  const wall = new Date(instant + offsetAt(zone, instant) * 60_000);
  return sqlText(wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate(), wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds());
}
