import { utcSqlMillis, utcToWall, wallToUtc } from '../common/datetime/format';
import type { Occurrence } from './expand';
import type { RecurrenceRule, RuleDate, SeriesTiming } from './recurrence-rule';

// Pure pieces of the series writes (recurrence.md §3–§4): what an occurrence's own write says,
// which fields a series edit carries to the others, how a series moves and where it is cut.
// The database work that uses them is series-writer.ts.

type Json = Record<string, unknown>;

export type Scope = 'this' | 'following' | 'all';
export const SCOPES: readonly Scope[] = ['this', 'following', 'all'];
export const SCOPE_MESSAGE = 'Must be one of this, following, all.';

/**
 * The `scope` of the writes this module makes itself through EventWrites (occurrences made,
 * changed or removed for a series write): an object no request body can hold, so the module's
 * own hooks know these writes and leave them alone.
 */
export const OWN_WRITE: unique symbol = Symbol('recurrence: the module’s own write');

export function isOwnWrite(input: Json): boolean {
  return input.scope === OWN_WRITE;
}

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

/** The rule's RDATEs and EXDATEs given as wall times, moved with the series (dates and UTC values stay). */
export function movedRule(rule: RecurrenceRule, from: SeriesTiming, to: SeriesTiming): RecurrenceRule {
  const shift = floating(to.startDate) - floating(from.startDate);
  if (shift === 0) return rule;
  const move = (d: RuleDate): RuleDate => (d.kind === 'wall' ? { kind: 'wall', wall: wallOf(floating(d.wall) + shift) } : d);
  return { ...rule, rdates: rule.rdates.map(move), exdates: rule.exdates.map(move) };
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
