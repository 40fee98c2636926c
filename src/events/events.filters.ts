import { Brackets, SelectQueryBuilder } from 'typeorm';
import type { Dialect } from '../database/dialect';
import { effectiveStatusIn, type ListVisibility } from '../items';
import { EventOrganizerEntity } from '../organizers';
import { EventTermEntity } from '../taxonomies';
import { searchTokens } from './search-grams';
import type { EventEntity } from './entities/event.entity';

/** A validated event list query, every date already a `YYYY-MM-DD HH:MM:SS` wall time (spec endpoints.md §4.1). */
export interface EventListFilters {
  visibility: ListVisibility;
  /** start ≥ startFrom */
  startFrom?: string;
  /** start ≤ startTo */
  startTo?: string;
  /** end ≥ endFrom */
  endFrom?: string;
  /** end ≤ endTo */
  endTo?: string;
  /** Words that must each occur in title, description or excerpt. */
  words?: string[];
  /**
   * Where the words' candidates come from (search-grams.ts): a list of ids the full-text index
   * gave (few matches: the query starts from them), the index itself as a subquery (many
   * matches, for counting), or nothing (LIKE alone: walking the list index in order fills a
   * page soonest when many events match). The LIKE conditions decide in every case.
   */
  searchCandidates?: number[] | 'index';
  /** Term ids (categories already expanded with their descendants). */
  categoryIds?: number[];
  tagIds?: number[];
  /**
   * How to test term membership: `in` starts from the terms' events (best when they are few),
   * `exists` walks the list index in order and tests each event (best when they are many: the
   * page fills after a few rows instead of sorting thousands).
   */
  termMatch?: 'in' | 'exists';
  venueIds?: number[];
  organizerIds?: number[];
  featured?: boolean;
  include?: number[];
  parentId?: number;
  /** modified_utc > modifiedAfter (UTC, sync.md `modified_after`). */
  modifiedAfter?: string;
  /**
   * Set (to now, UTC) while a scheduled event is due but not yet published by the
   * ScheduledPublisher: `future` events dated up to it count as `publish` (§3 rule 5).
   */
  dueBefore?: string;
  /**
   * The editing pages' orders (editing.md §2): by start backwards, by last change either way, or
   * by publication date, oldest first (the review queue: when each event was sent). Absent: the list order of spec §4.1.4. Such a list is read from the events themselves.
   */
  order?: EventListOrder;
  /** The editing pages list events hidden from listings too (they are still the editor's events). */
  listHidden?: boolean;
}

/** An order of the editing pages' list; the API's own is start ascending. */
export type EventListOrder = 'start-desc' | 'modified-asc' | 'modified-desc' | 'date-asc';

/** Conditions added to a query over `e` (EventEntity) by optional extensions such as the geo module. */
export type EventQueryExtension = (qb: SelectQueryBuilder<EventEntity>) => void;

/**
 * Where a list's listing columns are read: the events themselves (`e`), or the
 * link rows of the terms or organizers that drive it (`l`, ListingColumns), which carry the
 * same values; `id` is the event id there, `driven` the filter the link table answers itself.
 */
export interface ListingSource {
  alias: string;
  id: string;
  driven?: LinkDrive['filter'];
}

/** The events' own columns. */
export const ON_EVENTS: ListingSource = { alias: 'e', id: 'e.id' };

/**
 * A list driven from a link table's listing index: the events of these terms or organizers are
 * a range of ix_event_terms_listing / ix_event_organizers_listing in list order.
 */
export interface LinkDrive {
  filter: 'cat' | 'tag' | 'organizer';
  ids: number[];
}

/**
 * The link table a list walks, or undefined when the events' indexes serve
 * it better or must: a short id list (`include`, a few search candidates) and a venue (its own
 * listing index, ix_events_venue) are narrower starts, and extensions' conditions (a join of
 * their own, an order of their own, a subquery over `e` taken whole) are written for `e`. Of
 * several term or organizer filters the categories drive, then the tags, then the organizers;
 * the others stay conditions on the event id.
 */
export function linkDrive(f: EventListFilters, extensions: number): LinkDrive | undefined {
  if (extensions > 0 || f.order !== undefined || f.include !== undefined || Array.isArray(f.searchCandidates) || f.venueIds !== undefined) return undefined;
  if (f.categoryIds !== undefined) return { filter: 'cat', ids: nonEmpty(f.categoryIds) };
  if (f.tagIds !== undefined) return { filter: 'tag', ids: nonEmpty(f.tagIds) };
  if (f.organizerIds !== undefined) return { filter: 'organizer', ids: nonEmpty(f.organizerIds) };
  return undefined;
}

/** Does a list driven from a link table still need the event rows (conditions on columns only `events` has)? */
export function needsEvents(f: EventListFilters): boolean {
  return f.visibility.ownerId !== undefined || f.words !== undefined || f.featured !== undefined || f.parentId !== undefined || f.modifiedAfter !== undefined;
}

/** Adds the WHERE conditions of an event list (no ordering, no paging), on the listing columns of `on`. */
export function applyEventFilters<T extends object>(
  qb: SelectQueryBuilder<T>,
  f: EventListFilters,
  dialect: Dialect,
  on: ListingSource = ON_EVENTS,
): SelectQueryBuilder<T> {
  const l = on.alias;
  // A short list of search candidates is the best start: the status must not lure the planner
  // into walking the list index instead (100 lookups against ~100,000 entries).
  if (f.dueBefore !== undefined) {
    // Reads never write: a due scheduled event is listed as published until it is stored so.
    qb.where(effectiveStatusIn(l, f.visibility.statuses, 'dueBefore'), { dueBefore: f.dueBefore });
  } else {
    const status = Array.isArray(f.searchCandidates) && f.words ? dialect.unindexed(`${l}.status`) : `${l}.status`;
    qb.where(`${status} IN (:...statuses)`, { statuses: f.visibility.statuses });
  }
  if (f.visibility.ownerId !== undefined) {
    const published = f.dueBefore !== undefined ? effectiveStatusIn(l, ['publish'], 'dueBefore') : `${l}.status = 'publish'`;
    qb.andWhere(`(${published} OR e.authorId = :ownerId)`, { ownerId: f.visibility.ownerId });
  }
  // Hidden events stay reachable by id/slug but are never listed (spec §4.1.3).
  if (f.listHidden !== true) qb.andWhere(`${l}.hideFromListings = :hidden`, { hidden: false });

  // Whatever bounds the end also bounds the start (an event ends at or after it starts), so
  // the index on the start date is walked over a closed range, never to the end of time.
  const startTo = minOf(f.startTo, f.endTo);
  if (f.startFrom !== undefined) qb.andWhere(`${l}.startDate >= :startFrom`, { startFrom: f.startFrom });
  if (startTo !== undefined) qb.andWhere(`${l}.startDate <= :startTo`, { startTo });
  if (f.endFrom !== undefined) qb.andWhere(`${l}.endDate >= :endFrom`, { endFrom: f.endFrom });
  if (f.endTo !== undefined) qb.andWhere(`${l}.endDate <= :endTo`, { endTo: f.endTo });

  if (f.words && f.searchCandidates !== undefined) {
    if (f.searchCandidates === 'index') {
      const tokens = searchTokens(f.words);
      if (tokens.length > 0) qb.andWhere(`${on.id} IN (${dialect.searchCandidates(':searchExpr')})`, { searchExpr: dialect.searchExpression(tokens) });
    } else {
      // Ids from the index, written inline: a bound parameter each costs more to build than the lookup.
      qb.andWhere(`${on.id} IN (${idList(f.searchCandidates)})`);
    }
  }
  f.words?.forEach((word, i) => {
    qb.andWhere(
      new Brackets((w) => {
        for (const column of ['title', 'description', 'excerpt']) {
          const [sql, params] = dialect.containsInsensitive(`e.${column}`, `w${i}_${column}`, word);
          w.orWhere(sql, params);
        }
      }),
    );
  });
  for (const [name, ids] of [
    ['cat', f.categoryIds],
    ['tag', f.tagIds],
  ] as const) {
    if (ids === undefined || on.driven === name) continue;
    const sub = qb.subQuery().from(EventTermEntity, `${name}_et`);
    const sql =
      f.termMatch === 'exists'
        ? `EXISTS ${sub.select('1').where(`${name}_et.event_id = ${on.id} AND ${name}_et.term_id IN (:...${name}Ids)`).getQuery()}`
        : `${on.id} IN ${sub.select(`${name}_et.event_id`).where(`${name}_et.term_id IN (:...${name}Ids)`).getQuery()}`;
    qb.andWhere(sql, { [`${name}Ids`]: ids.length > 0 ? ids : [0] });
  }
  if (f.venueIds !== undefined) qb.andWhere('e.venueId IN (:...venueIds)', { venueIds: nonEmpty(f.venueIds) });
  if (f.organizerIds !== undefined && on.driven !== 'organizer') {
    qb.andWhere(
      `${on.id} IN ${qb.subQuery().select('eo.event_id').from(EventOrganizerEntity, 'eo').where('eo.organizer_id IN (:...organizerIds)').getQuery()}`,
      {
        organizerIds: nonEmpty(f.organizerIds),
      },
    );
  }
  if (f.featured !== undefined) qb.andWhere('e.featured = :featured', { featured: f.featured });
  if (f.include !== undefined) qb.andWhere('e.id IN (:...include)', { include: nonEmpty(f.include) });
  if (f.parentId !== undefined) qb.andWhere('e.parentId = :parentId', { parentId: f.parentId });
  if (f.modifiedAfter !== undefined) qb.andWhere('e.modifiedUtc > :modifiedAfter', { modifiedAfter: f.modifiedAfter });
  return qb;
}

/**
 * Default order: start, publication date, id; with `include`: publication date, id (spec §4.1.4).
 * `DESC` walks the same order backwards (the calendar feed's past events, nearestFirst).
 */
export function applyEventOrder<T extends object>(
  qb: SelectQueryBuilder<T>,
  byInclude: boolean,
  direction: 'ASC' | 'DESC' = 'ASC',
  on: ListingSource = ON_EVENTS,
): SelectQueryBuilder<T> {
  if (!byInclude) qb.addOrderBy(`${on.alias}.startDate`, direction);
  return qb.addOrderBy(`${on.alias}.dateUtc`, direction).addOrderBy(on.id, direction);
}

/** The editing pages' orders (EventListFilters.order), over the events themselves; the id breaks ties. */
export function applyEditingOrder<T extends object>(qb: SelectQueryBuilder<T>, order: EventListOrder): SelectQueryBuilder<T> {
  if (order === 'start-desc') return applyEventOrder(qb, false, 'DESC');
  // Publication date, then id: the order `include` lists in, which ix_events_status_date walks for one status.
  if (order === 'date-asc') return applyEventOrder(qb, true, 'ASC');
  const direction = order === 'modified-asc' ? 'ASC' : 'DESC';
  return qb.addOrderBy('e.modifiedUtc', direction).addOrderBy('e.id', direction);
}

/** A listed event's id with its start (a wall time, as the list compares them). */
export interface IdAndStart {
  id: number;
  start: string;
}

/**
 * The `limit` events nearest to `pivot`, in list order (the calendar feed, ical.md: "at most
 * CALENDAR_ICS_MAX_EVENTS events, nearest first"): `later` starts at or after the pivot in
 * list order, `earlier` before it in reverse list order; the one whose start is closer to the
 * pivot is taken first (a tie goes to the later one), so a full feed keeps the coming weeks
 * and the recent past rather than the oldest events of its window.
 */
export function nearestFirst(earlier: IdAndStart[], later: IdAndStart[], pivot: string, limit: number): number[] {
  const at = (wall: string) => Date.parse(`${wall.replace(' ', 'T')}Z`);
  const now = at(pivot);
  let [before, after] = [0, 0];
  while (before + after < limit && (before < earlier.length || after < later.length)) {
    const takeLater = before >= earlier.length || (after < later.length && at(later[after].start) - now <= now - at(earlier[before].start));
    if (takeLater) after++;
    else before++;
  }
  return [
    ...earlier
      .slice(0, before)
      .reverse()
      .map((e) => e.id),
    ...later.slice(0, after).map((e) => e.id),
  ];
}

/**
 * Splits a search string into words on whitespace; a "quoted phrase" is one word (spec §4.1.3).
 */
export function searchWords(search: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (let m = pattern.exec(search); m; m = pattern.exec(search)) {
    const word = (m[1] ?? m[2]).trim();
    if (word !== '') words.push(word);
  }
  return words;
}

const minOf = (a?: string, b?: string) => (a === undefined ? b : b === undefined ? a : a < b ? a : b);
/** Whole numbers only, so a list can be written into the SQL; never empty. */
const idList = (ids: number[]): string => (ids.length > 0 ? ids.map((id) => String(Math.trunc(Number(id)) || 0)).join(',') : '0');
const nonEmpty = (ids: number[]) => (ids.length > 0 ? ids : [0]);
