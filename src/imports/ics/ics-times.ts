import ICAL from 'ical.js';
import { DateTime, Duration, FixedOffsetZone, Zone } from 'luxon';
import { atWallTime, formatSql, WallTime } from '../../common/datetime/format';
import { isFixedOffsetName } from '../../common/datetime/zones';
import { TzidResolver } from './ics-zones';

// DTSTART, DTEND, RECURRENCE-ID, EXDATE and RDATE values as instants (or days) in a zone.
// ical.js reads the values; the zone comes from ics-zones.ts, and luxon turns wall times into
// instants with the service's own rule for the hour a zone repeats (common/datetime/format.ts,
// atWallTime: the earlier pass, which is also what RFC 5545 §3.3.5 says a local time means).

/** A time the calendar means: a day (all-day), or an instant and the zone the event keeps. */
export type Moment = { kind: 'day'; date: DateTime } | { kind: 'instant'; at: DateTime; zone: string };

/** An iCalendar time that names no instant: unknown TZID without a VTIMEZONE. */
export class IcsTimeError extends Error {}

/** TZIDs that mean UTC itself; the event then has the zone `UTC` (the service's name for it). */
const UTC_TZIDS: ReadonlySet<string> = new Set(['utc', 'gmt', 'z', 'etc/utc', 'etc/gmt', 'etc/zulu', 'zulu', 'universal', 'etc/universal']);

/** How the times of one calendar are read: its TZIDs, and the zone of floating times. */
export class TimeReader {
  constructor(
    private readonly tzids: TzidResolver,
    /** X-WR-TIMEZONE when the calendar names one (Google), else the site zone. */
    readonly floatingZone: string,
  ) {}

  /** The moment a DATE or DATE-TIME value means; `tzid` is its TZID parameter. */
  moment(value: ICAL.Time, tzid: string | null): Moment {
    if (value.isDate) return { kind: 'day', date: DateTime.utc(value.year, value.month, value.day) };
    const wall: WallTime = { year: value.year, month: value.month, day: value.day, hour: value.hour, minute: value.minute, second: value.second };
    if (value.zone === ICAL.Timezone.utcTimezone) {
      return { kind: 'instant', at: DateTime.fromObject(wall, { zone: 'utc' }), zone: 'UTC' };
    }
    if (tzid === null || tzid.trim() === '') return this.inZone(wall, this.floatingZone);
    if (UTC_TZIDS.has(tzid.trim().toLowerCase())) return this.inZone(wall, 'UTC');
    const resolved = this.tzids.resolve(tzid);
    if (!resolved) throw new IcsTimeError(`unknown time zone "${tzid}" (no VTIMEZONE describes it)`);
    if (resolved.name) return this.inZone(wall, resolved.name, resolved.rules);
    const at = atWallTime(wall, resolved.rules);
    return { kind: 'instant', at, zone: fixedOffsetName(resolved.rules.offset(at.toMillis())) };
  }

  /** A wall time in `zone` (by name), with `rules` when already resolved. */
  private inZone(wall: WallTime, zone: string, rules?: Zone): Moment {
    return { kind: 'instant', at: atWallTime(wall, rules ?? zone).setZone(rules ?? zone), zone };
  }
}

/** `UTC`, `UTC+2`, `UTC-3:30`: the service's spelling of a fixed offset (common/datetime/zones.ts). */
export function fixedOffsetName(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const hm = abs % 60 === 0 ? String(abs / 60) : `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
  const name = `UTC${minutes < 0 ? '-' : '+'}${hm}`;
  if (!isFixedOffsetName(name)) throw new IcsTimeError(`offset ${minutes} minutes is out of range`);
  return name;
}

/** The key of a moment in a series: `20250310T090000Z` for an instant, `20250310` for a day (RECURRENCE-ID form in UTC). */
export function momentKey(m: Moment): string {
  return m.kind === 'day' ? m.date.toFormat('yyyyLLdd') : m.at.toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'");
}

/** Milliseconds since the epoch, a day read as its midnight UTC (only used to order and to window). */
export function momentMillis(m: Moment): number {
  return m.kind === 'day' ? m.date.toMillis() : m.at.toMillis();
}

/** The times of an event as the API takes them (endpoints.md §4.3). */
export interface EventTimes {
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
}

/**
 * The end of an event from DTEND or DURATION (RFC 5545 §3.6.1): an all-day event's DTEND is
 * the day after its last day; without either, a timed event ends when it starts and an all-day
 * event lasts one day. An end before the start is read as the start.
 */
export function endOf(start: Moment, end: Moment | null, duration: ICAL.Duration | null): Moment {
  if (start.kind === 'day') {
    let last: DateTime;
    if (end) last = (end.kind === 'day' ? end.date : DateTime.utc(end.at.year, end.at.month, end.at.day)).minus({ days: 1 });
    else if (duration) last = start.date.plus(luxonDuration(duration)).minus({ days: 1 });
    else last = start.date;
    return { kind: 'day', date: last < start.date ? start.date : last };
  }
  let at: DateTime;
  if (end) at = end.kind === 'day' ? start.at : end.at;
  else if (duration) at = start.at.plus(luxonDuration(duration));
  else at = start.at;
  return { kind: 'instant', at: at < start.at ? start.at : at.setZone(start.at.zone), zone: start.zone };
}

/** An iCalendar duration for luxon: weeks and days as calendar days (DST-aware), the rest exact. */
export function luxonDuration(d: ICAL.Duration): Duration {
  const sign = d.isNegative ? -1 : 1;
  return Duration.fromObject({
    weeks: sign * d.weeks,
    days: sign * d.days,
    hours: sign * d.hours,
    minutes: sign * d.minutes,
    seconds: sign * d.seconds,
  });
}

/**
 * The API's start_date/end_date/timezone/all_day for a start and an (inclusive) end. A day is
 * in `dayZone` (X-WR-TIMEZONE or the site zone): an all-day event in iCalendar has no zone.
 */
export function eventTimes(start: Moment, end: Moment, dayZone: string): EventTimes {
  if (start.kind === 'day' && end.kind === 'day') {
    return {
      start_date: `${start.date.toISODate()} 00:00:00`,
      end_date: `${end.date.toISODate()} 23:59:59`,
      timezone: dayZone,
      all_day: true,
    };
  }
  if (start.kind !== 'instant' || end.kind !== 'instant') throw new IcsTimeError('DTSTART and DTEND are not of the same kind');
  const zone = start.at.zone instanceof FixedOffsetZone || start.at.zone.type === 'iana' ? start.at.zone : FixedOffsetZone.instance(start.at.offset);
  return {
    start_date: formatSql(start.at.setZone(zone)),
    end_date: formatSql(end.at.setZone(zone)),
    timezone: start.zone,
    all_day: false,
  };
}
