import { DateTime, Zone } from 'luxon';
import { requireZone } from './zones';

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
  return dt.toFormat(SQL_FORMAT);
}

/** `2025-03-14 09:30:00` → its fields, checked against the calendar (no Feb 30, no hour 24). */
function parseWallSql(s: string): WallTime {
  const m = typeof s === 'string' ? SQL_PATTERN.exec(s) : null;
  if (!m) throw new RangeError(`Not a YYYY-MM-DD HH:MM:SS date-time: ${String(s)}`);
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const wall = { year, month, day, hour, minute, second };
  // luxon takes hour 24 as the next day's 00:00; the spec's 24-hour clock stops at 23
  if (hour > 23 || !DateTime.fromObject(wall, { zone: 'utc' }).isValid) throw new RangeError(`No such date-time: ${s}`);
  return wall;
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
  const dt = DateTime.fromObject(wall, { zone: requireZone(zone) });
  if (!dt.isValid) return dt;
  return dt.getPossibleOffsets().reduce((earliest, candidate) => (candidate < earliest ? candidate : earliest));
}

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

/** Wall-clock time in `zoneName` (IANA or `UTC±N`) → the same instant in UTC, DST honoured (see atWallTime). */
export function wallToUtc(wallSql: string, zoneName: string): string {
  return formatSql(parseSql(wallSql, zoneName).toUTC());
}

/** UTC → the wall-clock time in `zoneName` at that instant. */
export function utcToWall(utcSql: string, zoneName: string): string {
  const zone = requireZone(zoneName);
  return formatSql(parseSql(utcSql, 'UTC').setZone(zone));
}
