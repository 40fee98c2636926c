import { utcSqlMillis, utcToWall, wallToUtc } from '../common/datetime/format';
import type { Occurrence } from './expand';
import type { ParsedRrule, RecurrenceRule, RuleDate, RuleUntil, SeriesTiming } from './recurrence-rule';

// Pure pieces of the series writes (recurrence.md §3–§4): the request's scope, which fields a series edit carries to the others, how a series moves and where it is cut.
// The database work that uses them is series-writer.ts.

type Json = Record<string, unknown>;

export type Scope = 'this' | 'following' | 'all';
export const SCOPES: readonly Scope[] = ['this', 'following', 'all'];
export const SCOPE_MESSAGE = 'Must be one of this, following, all.';

/** The request's scope; undefined when not given (the default, `this`, where it matters). */
export function readScope(input: Json): Scope | 'invalid' | undefined {
  const value = input.scope;
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value.trim().toLowerCase()) ? (value.trim().toLowerCase() as Scope) : 'invalid';
}

/** The write parameters that are no event field a series edit carries to the other occurrences. */
const NOT_CARRIED = new Set(['id', 'slug', 'scope', 'recurrence', 'force', 'start_date', 'end_date', 'timezone', 'all_day', 'date', 'date_utc']);
/** Whose value, when given, is replaced by what the addressed event ended with (no nested item created twice, no name resolved twice). */
export const LINK_FIELDS = ['venue', 'organizer', 'categories', 'tags', 'image'] as const;

/** What a series edit changes on the other occurrences: the fields the request gave, links as stored ids. */
export function carriedFields(input: Json, links: Partial<Record<(typeof LINK_FIELDS)[number], unknown>>): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(input)) {
    if (NOT_CARRIED.has(key) || value === undefined) continue;
    out[key] = (LINK_FIELDS as readonly string[]).includes(key) ? links[key as (typeof LINK_FIELDS)[number]] : value;
  }
  return out;
}

/** Whether the request moves the series: a new time, length, zone or all-day flag, or a new rule. */
export function movesSeries(input: Json): boolean {
  return ['start_date', 'end_date', 'timezone', 'all_day'].some((k) => input[k] !== undefined) || Array.isArray(input.recurrence);
}

const WRITTEN_WALL = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A `start_date`/`end_date` written as a plain wall time, `YYYY-MM-DD HH:MM:SS`; null for any other form. */
function writtenWall(value: unknown): string | null {
  const m = typeof value === 'string' ? WRITTEN_WALL.exec(value.trim()) : null;
  return m ? `${m[1]} ${m[2]}:${m[3]}:${m[4] ?? '00'}` : null;
}

/**
 * The series' timing with its start as the request wrote it, when that is a wall time a
 * spring-forward gap skips (02:30 on the night New York's clocks go from 02:00 to 03:00): the
 * event shows the clock's reading (03:30), but the rule recurs at 02:30 on every other day
 * (RFC 5545 §3.3.5), and every occurrence lasts end − start as written.
 */
export function writtenTiming(input: Json, timing: SeriesTiming): SeriesTiming {
  const start = writtenWall(input.start_date);
  if (timing.allDay || start === null || start === timing.startDate) return timing;
  try {
    const utc = wallToUtc(start, timing.timezone);
    if (utcToWall(utc, timing.timezone) === start || utc !== wallToUtc(timing.startDate, timing.timezone)) return timing;
  } catch {
    return timing;
  }
  const end = writtenWall(input.end_date) ?? timing.endDate;
  return end < start ? timing : { ...timing, startDate: start, endDate: end };
}

/** An occurrence's timing fields for its write, and its slug: the series' slug with the date (§3). */
export function occurrenceFields(o: Pick<Occurrence, 'start' | 'end'>, timing: Pick<SeriesTiming, 'timezone' | 'allDay'>): Json {
  return { start_date: o.start, end_date: o.end, timezone: timing.timezone, all_day: timing.allDay };
}

export function occurrenceSlug(seriesSlug: string, day: string): string {
  return `${seriesSlug}-${day}`;
}

/**
 * The series' slug, read off its first occurrence's (`yoga-in-the-park-2027-01-12`, or with the
 * usual `-2` when that was taken; a trashed one's suffix dropped): what every occurrence's dated
 * slug is made from. Only the one date suffix goes, so a title that ends in a date keeps it.
 */
export function seriesSlugOf(firstSlug: string): string {
  return firstSlug.replace(/__trashed$/, '').replace(/-\d{4}-\d{2}-\d{2}(-\d+)?$/, '');
}

/** `2027-01-12` and 1 → `2027-01-12`; the second that day → `2027-01-12#2` (expand.ts's keys). */
export function occurrenceKey(day: string, nth: number): string {
  return nth === 1 ? day : `${day}#${nth}`;
}

export function splitKey(key: string): { day: string; nth: number } {
  const [day, nth] = key.split('#');
  return { day, nth: nth === undefined ? 1 : Number(nth) };
}

const DAY_MS = 86_400_000;

/** A wall time as the UTC instant with the same reading: wall-clock arithmetic without a zone. */
function floating(wall: string): number {
  return utcSqlMillis(wall);
}

function wallOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** `day` moved by whole days. */
export function shiftDay(day: string, days: number): string {
  return days === 0 ? day : wallOf(floating(`${day} 00:00:00`) + days * DAY_MS).slice(0, 10);
}

/**
 * A series moved by a `scope=all` (or `following`) edit of one of its occurrences (§4): the
 * occurrence went from `before` to `after` (wall times), so the series' start moves by as much
 * on the clock (a new time of day, or a new first date when whole days), its length becomes the
 * occurrence's new length, and the zone and all-day flag become the occurrence's. `days`: by
 * how many days the dates moved, by which the occurrences keep their ids.
 */
export function movedTiming(
  series: SeriesTiming,
  before: { startDate: string },
  after: { startDate: string; endDate: string; timezone: string; allDay: boolean },
): { timing: SeriesTiming; days: number } {
  const start = wallOf(floating(series.startDate) + floating(after.startDate) - floating(before.startDate));
  const allDayStart = after.allDay ? `${start.slice(0, 10)} 00:00:00` : start;
  const end = wallOf(floating(allDayStart) + floating(after.endDate) - floating(after.startDate));
  const days = Math.round((floating(`${start.slice(0, 10)} 00:00:00`) - floating(`${series.startDate.slice(0, 10)} 00:00:00`)) / DAY_MS);
  return { timing: { startDate: allDayStart, endDate: end, timezone: after.timezone, allDay: after.allDay }, days };
}

/** Why a series cannot move as asked (400 naming `start_date`): its rule has no form that gives every occurrence moved by as much. */
export class SeriesMoveError extends Error {}

const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
/** Days every month has: a day of the month moved within these is the same day of every month. */
const SURE_MONTH_DAYS = 28;

/**
 * The rule of a series moved with one of its occurrences (§4, `scope=all` or `following`): every
 * occurrence moves by the same time on the clock as the series' start, as calendar apps do. The
 * RRULE's weekdays (and WKST, which groups them into weeks) shift by the days the start moved,
 * its days of the month likewise, its hours, minutes and seconds by the change of time of day;
 * UNTIL, RDATEs and EXDATEs move by as much (UTC values keep their wall time's reading in a new
 * zone). Throws SeriesMoveError for the parts that have no moved form (a day of the month some
 * months lack, a weekday of the month, BYYEARDAY, BYSETPOS, months that filter days); the
 * caller also checks the result (the writer compares the two expansions), which catches what is
 * left (a monthly start on the 29th moved to the 30th).
 */
export function movedRule(rule: RecurrenceRule, from: SeriesTiming, to: SeriesTiming): RecurrenceRule {
  const shift = floating(to.startDate) - floating(from.startDate);
  if (shift === 0 && from.timezone === to.timezone) return rule;
  const days = Math.round((floating(`${to.startDate.slice(0, 10)} 00:00:00`) - floating(`${from.startDate.slice(0, 10)} 00:00:00`)) / DAY_MS);
  const moveUtc = (utc: string) => wallToUtc(wallOf(floating(utcToWall(utc, from.timezone)) + shift), to.timezone);
  const move = (d: RuleDate): RuleDate =>
    d.kind === 'wall'
      ? { kind: 'wall', wall: wallOf(floating(d.wall) + shift) }
      : d.kind === 'date'
        ? { kind: 'date', date: shiftDay(d.date, days) }
        : { kind: 'utc', utc: moveUtc(d.utc) };
  const rrule = rule.rrule;
  const moved: RecurrenceRule = { rrule, rdates: rule.rdates.map(move), exdates: rule.exdates.map(move) };
  if (!rrule) return moved;
  const parts = movedParts(rrule, from, to, days, shift);
  const until: RuleUntil | null = !rrule.until
    ? null
    : rrule.until.kind === 'date'
      ? { kind: 'date', date: shiftDay(rrule.until.date, days) }
      : { kind: 'utc', utc: moveUtc(rrule.until.utc) };
  return { ...moved, rrule: { ...rrule, body: withParts(rrule.body, parts), parts: { ...rrule.parts, ...parts }, until } };
}

/** The RRULE parts that change when its series moves by `days` on the calendar and `shift` ms on the clock. */
function movedParts(rrule: ParsedRrule, from: SeriesTiming, to: SeriesTiming, days: number, shift: number): Record<string, string> {
  const out: Record<string, string> = {};
  const p = rrule.parts;
  if (!from.allDay && !to.allDay) Object.assign(out, movedTimeParts(p, from.startDate, shift));
  if (days === 0) return out;
  const by = `moved by ${days} day${Math.abs(days) === 1 ? '' : 's'}`;
  const monthly = rrule.freq === 'MONTHLY' || rrule.freq === 'YEARLY';
  if (p.BYYEARDAY !== undefined) throw new SeriesMoveError(`The series' rule has BYYEARDAY, which has no form ${by}; change the rule (recurrence) instead.`);
  if (p.BYSETPOS !== undefined) throw new SeriesMoveError(`The series' rule has BYSETPOS, which has no form ${by}; change the rule (recurrence) instead.`);
  if (p.BYMONTH !== undefined && !monthly) {
    throw new SeriesMoveError(`The series' rule keeps days of some months only (BYMONTH), which has no form ${by}; change the rule (recurrence) instead.`);
  }
  if (p.BYDAY !== undefined) {
    if (monthly) {
      throw new SeriesMoveError(
        `The series' rule names weekdays of the month or year (BYDAY=${p.BYDAY}), which have no form ${by}; change the rule (recurrence) instead.`,
      );
    }
    out.BYDAY = p.BYDAY.split(',')
      .map((code) => WEEKDAY_CODES[(WEEKDAY_CODES.indexOf(code) + (days % 7) + 7) % 7])
      .join(',');
    // Weeks of more than one day's choice, every INTERVAL-th of them: their first day moves too.
    if (rrule.freq === 'WEEKLY' && rrule.interval > 1 && days % 7 !== 0) {
      const wkst = /(?:^|;)WKST=([A-Z]{2})/.exec(rrule.body)?.[1] ?? 'MO';
      out.WKST = WEEKDAY_CODES[(WEEKDAY_CODES.indexOf(wkst) + (days % 7) + 7) % 7];
    }
  }
  if (p.BYMONTHDAY !== undefined) {
    out.BYMONTHDAY = p.BYMONTHDAY.split(',')
      .map((value) => {
        const n = Number(value);
        const m = n + days;
        const sure = (x: number) => (n > 0 ? x >= 1 && x <= SURE_MONTH_DAYS : x <= -1 && x >= -SURE_MONTH_DAYS);
        if (!sure(n) || !sure(m)) throw new SeriesMoveError(`BYMONTHDAY=${n} ${by} is not the same day of every month; change the rule (recurrence) instead.`);
        return String(m);
      })
      .join(',');
  }
  return out;
}

/**
 * BYHOUR, BYMINUTE and BYSECOND moved by the change of time of day (modulo a day: a time that
 * crosses midnight lands on the next or previous day, which the writer's check of the whole
 * series judges). The times the rule gives are every combination of the three (the start's own
 * for a part not given); moved, they must still be such combinations.
 */
function movedTimeParts(p: Readonly<Record<string, string>>, start: string, shift: number): Record<string, string> {
  const given = ['BYHOUR', 'BYMINUTE', 'BYSECOND'].filter((k) => p[k] !== undefined);
  if (given.length === 0) return {};
  const [h, mi, s] = start
    .slice(11)
    .split(':')
    .map((x) => [Number(x)]);
  const list = (key: string, own: number[]) => (p[key] !== undefined ? p[key].split(',').map(Number) : own);
  const hours = list('BYHOUR', h);
  const minutes = list('BYMINUTE', mi);
  const seconds = list('BYSECOND', s);
  const delta = (((shift / 1000) % 86_400) + 86_400) % 86_400;
  const moved = new Set<number>();
  for (const a of hours) for (const b of minutes) for (const c of seconds) moved.add((a * 3600 + b * 60 + c + delta) % 86_400);
  const of = (f: (t: number) => number) => [...new Set([...moved].map(f))].sort((x, y) => x - y);
  const parts: Record<string, number[]> = {
    BYHOUR: of((t) => Math.floor(t / 3600)),
    BYMINUTE: of((t) => Math.floor(t / 60) % 60),
    BYSECOND: of((t) => t % 60),
  };
  const combinations = parts.BYHOUR.length * parts.BYMINUTE.length * parts.BYSECOND.length;
  const ownOnly = ['BYHOUR', 'BYMINUTE', 'BYSECOND'].every((k) => given.includes(k) || parts[k].length === 1);
  if (combinations !== moved.size || !ownOnly) {
    throw new SeriesMoveError(
      `The series' times of day (${given.map((k) => `${k}=${p[k]}`).join(';')}) have no form moved by this much; change the rule (recurrence) instead.`,
    );
  }
  return Object.fromEntries(given.map((k) => [k, parts[k].join(',')]));
}

/** An RRULE value with these parts replaced or added. */
function withParts(body: string, parts: Record<string, string>): string {
  const kept = body.split(';').filter((part) => !(part.split('=', 1)[0] in parts));
  return [...kept, ...Object.entries(parts).map(([k, v]) => `${k}=${v}`)].join(';');
}

/** A wall time moved by `shift` ms on the clock (no zone: the reading moves, as the series' rule does). */
export function shiftWall(wall: string, shift: number): string {
  return shift === 0 ? wall : wallOf(floating(wall) + shift);
}

/** The EXDATE a `scope=this` delete adds (§4): the occurrence's original start (its day for all-day series). */
export function exclusionOf(originalStart: string, allDay: boolean): RuleDate {
  return allDay ? { kind: 'date', date: originalStart.slice(0, 10) } : { kind: 'wall', wall: originalStart };
}

/** The rule without the exclusions that name this original start (the restore of a `scope=this` delete, §4). */
export function withoutExclusionOf(rule: RecurrenceRule, originalStart: string, utcOriginalStart: string): RecurrenceRule {
  const names = (d: RuleDate) =>
    (d.kind === 'wall' && d.wall === originalStart) ||
    (d.kind === 'date' && d.date === originalStart.slice(0, 10)) ||
    (d.kind === 'utc' && d.utc === utcOriginalStart);
  return { ...rule, exdates: rule.exdates.filter((d) => !names(d)) };
}

/** Where a series is cut (`scope=following`, §4): at an occurrence's original start. */
export interface Cut {
  originalStart: string;
  utcOriginalStart: string;
}

/**
 * The two rules of a series cut before `cut`: the earlier part ends with an UNTIL one second
 * before it (the day before, for all-day series) and gives up its COUNT; the later part keeps
 * the RRULE, with the COUNT that remains (`countBefore`: how many of the RRULE's starts came
 * before the cut). RDATEs and EXDATEs go to the part they fall in.
 */
export function cutRule(rule: RecurrenceRule, timing: SeriesTiming, cut: Cut, countBefore: number): { before: RecurrenceRule; after: RecurrenceRule } {
  const later = (d: RuleDate) =>
    d.kind === 'date' ? d.date >= cut.originalStart.slice(0, 10) : d.kind === 'wall' ? d.wall >= cut.originalStart : d.utc >= cut.utcOriginalStart;
  const until = timing.allDay
    ? { kind: 'date' as const, date: shiftDay(cut.originalStart.slice(0, 10), -1) }
    : { kind: 'utc' as const, utc: wallOf(floating(cut.utcOriginalStart) - 1000) };
  const rrule = rule.rrule;
  const before: RecurrenceRule = {
    rrule: rrule && { ...rrule, body: withCount(rrule.body, null), count: null, until },
    rdates: rule.rdates.filter((d) => !later(d)),
    exdates: rule.exdates.filter((d) => !later(d)),
  };
  const remaining = rrule?.count === null || rrule?.count === undefined ? null : Math.max(1, rrule.count - countBefore);
  const after: RecurrenceRule = {
    rrule: rrule && { ...rrule, body: withCount(rrule.body, remaining), count: remaining },
    rdates: rule.rdates.filter(later),
    exdates: rule.exdates.filter(later),
  };
  return { before, after };
}

/** An RRULE value (without UNTIL) with its COUNT replaced (null: none). */
function withCount(body: string, count: number | null): string {
  const parts = body.split(';').filter((p) => !p.startsWith('COUNT='));
  return [...parts, ...(count === null ? [] : [`COUNT=${count}`])].join(';');
}

/**
 * Whether `after` (the moved series' expansion) is `before` (the series' own) with every original
 * start moved by `shift` on the clock: the check that a moved rule means what the move asked. Both
 * run to the same horizon (UTC); the last two days before it, where one list may stop earlier
 * than the other, are left out.
 */
export function sameSeriesMoved(
  before: readonly Pick<Occurrence, 'originalStart'>[],
  after: readonly Pick<Occurrence, 'originalStart'>[],
  shift: number,
  horizonUtc: string,
): boolean {
  const cutoff = floating(horizonUtc) + Math.min(shift, 0) - 2 * DAY_MS;
  const starts = (list: readonly Pick<Occurrence, 'originalStart'>[], by: number) =>
    list
      .map((o) => floating(o.originalStart) + by)
      .filter((ms) => ms < cutoff)
      .sort((x, y) => x - y);
  const moved = starts(before, shift);
  const made = starts(after, 0);
  return moved.length === made.length && moved.every((ms, i) => ms === made[i]);
}
