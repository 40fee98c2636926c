// What venues and organizers share (spec endpoints.md §5, resources.md §2–§3, §7): the entity
// shape, the list filters, the head and tail of their representation, their error family.
// Pure code: no database, no Nest. The repository and the reads, writes and deletes built on it
// sit beside this file.
import {
  effectiveStatus,
  effectiveStatusIn,
  globalIdFields,
  isEmptyValue,
  type ItemColumns,
  type ListVisibility,
  publicationFields,
  type RecordExtras,
} from '../items';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { autop, firstWords, stripTags } from '../common/text/autop';
import { REST_INVALID_PARAM, WpError } from '../common/errors';
import type { Dialect } from '../database/dialect';

/** The columns venues and organizers have in common: every item's, plus a name. */
export type LinkedItemEntity = ItemColumns & {
  /** `venue` / `organizer` in the API. */
  name: string;
};

export type LinkedItemType = 'venue' | 'organizer';
export type Json = Record<string, unknown>;

// ---- list filters (spec endpoints.md §5.1) ----

/**
 * Search fragments (§5.1.1): the text cut at every character that is not a letter, digit or `-`.
 * `"france, ile de"` → `france`, `ile`, `de`.
 */
export function searchFragments(text: string): string[] {
  return text.split(/[^\p{L}\p{N}-]+/u).filter((fragment) => fragment !== '');
}

/**
 * The events table, by name. The events feature builds on this one (event writes create and
 * embed venues and organizers), so its entity class is not imported here; TypeORM resolves the
 * name to that entity, and property paths (`e.startDateUtc`) read as they do with the class.
 */
export const EVENTS_TABLE = 'events';

/**
 * Narrows a query on events (alias `e`) to the events linked to the item `itemAlias.id`;
 * venues link through `events.venue_id`, organizers through `event_organizers`.
 */
export type EventLink = (events: SelectQueryBuilder<ObjectLiteral>, itemAlias: string) => SelectQueryBuilder<ObjectLiteral>;

/** A validated venue/organizer list query, ready for SQL. */
export interface LinkedItemListFilters {
  visibility: ListVisibility;
  /** Now, UTC `YYYY-MM-DD HH:MM:SS`: scheduled items past their date count as published (§3 rule 5). */
  nowUtc: string;
  /** Fragments of `search`; an item matches when ONE of its fields contains all of them. */
  search?: string[];
  /** Only items linked to this event. */
  eventId?: number;
  /** true: linked to ≥ 1 publish/future/private event; false: to none. */
  hasEvents?: boolean;
  /** Set when `only_with_upcoming` is truthy: the statuses an upcoming event may have. */
  upcomingStatuses?: string[];
  /** modified_utc > modifiedAfter (UTC, sync.md `modified_after`). */
  modifiedAfter?: string;
}

/** How a kind is searched and linked to events. */
export interface LinkedItemQueryShape {
  alias: string;
  /** Entity properties searched (§5.1.1). */
  searchColumns: readonly string[];
  link: EventLink;
}

/** Adds the WHERE conditions of a venue/organizer list (§5.1, auth.md §4) to a query over `shape.alias`. */
export function applyLinkedItemFilters<T extends object>(
  qb: SelectQueryBuilder<T>,
  shape: LinkedItemQueryShape,
  f: LinkedItemListFilters,
  dialect: Dialect,
): SelectQueryBuilder<T> {
  const a = shape.alias;
  applyVisibility(qb, a, f.visibility, f.nowUtc);
  if (f.search !== undefined && f.search.length > 0) {
    const [sql, params] = searchCondition(a, shape.searchColumns, f.search, dialect);
    qb.andWhere(sql, params);
  }
  const linked = (condition: string) => `EXISTS ${shape.link(qb.subQuery().select('1').from(EVENTS_TABLE, 'e'), a).andWhere(condition).getQuery()}`;
  if (f.eventId !== undefined) qb.andWhere(linked('e.id = :liEventId'), { liEventId: f.eventId });
  if (f.hasEvents !== undefined) {
    // Deviation (endpoints.md §5.1): trashed events do not count.
    const sql = linked(`e.status IN (:...liLinkedStatuses)`);
    qb.andWhere(f.hasEvents ? sql : `NOT ${sql}`, { liLinkedStatuses: ['publish', 'future', 'private'] });
  }
  if (f.upcomingStatuses !== undefined) {
    qb.andWhere(linked(`e.startDateUtc >= :liNow AND ${effectiveStatusIn('e', f.upcomingStatuses, 'liNow')}`), { liNow: f.nowUtc });
  }
  if (f.modifiedAfter !== undefined) qb.andWhere(`${a}.modifiedUtc > :liModifiedAfter`, { liModifiedAfter: f.modifiedAfter });
  return qb;
}

/**
 * The items a caller may see among the statuses asked for (auth.md §4): editors see all of them;
 * authors and contributors (`ownerId`) see others' items only when published.
 */
export function applyVisibility<T extends object>(qb: SelectQueryBuilder<T>, alias: string, v: ListVisibility, nowUtc: string): SelectQueryBuilder<T> {
  qb.andWhere(effectiveStatusIn(alias, v.statuses, 'liNow'), { liNow: nowUtc });
  if (v.ownerId !== undefined) {
    qb.andWhere(`(${effectiveStatusIn(alias, ['publish'], 'liNow')} OR ${alias}.authorId = :liOwnerId)`, { liOwnerId: v.ownerId });
  }
  return qb;
}

/** `(all fragments in column 1) OR (all fragments in column 2) OR …` (§5.1.1). */
export function searchCondition(alias: string, columns: readonly string[], fragments: string[], dialect: Dialect): [string, Record<string, string>] {
  const params: Record<string, string> = {};
  const perColumn = columns.map((column) => {
    const all = fragments.map((fragment, i) => {
      const [sql, param] = dialect.containsInsensitive(`${alias}.${column}`, `liSearch${i}`, fragment);
      Object.assign(params, param);
      return sql;
    });
    return `(${all.join(' AND ')})`;
  });
  return [`(${perColumn.join(' OR ')})`, params];
}

// ---- representation (resources.md §2, §3, §7) ----

export interface LinkedPresentContext {
  baseUrl: string;
  /** Origin of the public `url` (CALENDAR_SITE_URL); {base_url} when absent. */
  publicUrl?: string;
  /** Site time zone for `date`/`modified`. */
  timezone: string;
  nowUtc: string;
  image?: { url: string; id: number; extension: string };
  jsonLd: boolean;
  /** What the kind's hooks add (ItemHook.present). */
  extra?: RecordExtras;
}

/** Public permalink: `{base_url}/venue/{slug}/` (or on CALENDAR_SITE_URL), `{base_url}/organizer/{slug}/`. */
export const permalink = (baseUrl: string, type: LinkedItemType, slug: string) => `${baseUrl}/${type}/${slug}/`;

/** `id` … `image`: the keys both kinds start with, in order (before empty keys are dropped). */
export function linkedItemHead(item: LinkedItemEntity, type: LinkedItemType, ctx: LinkedPresentContext): Json {
  return {
    id: item.id,
    author: String(item.authorId),
    status: effectiveStatus(item.status, item.dateUtc, ctx.nowUtc),
    ...publicationFields(item, ctx.timezone),
    url: permalink(ctx.publicUrl ?? ctx.baseUrl, type, item.slug),
    [type]: item.name.trim(),
    description: autop(item.description),
    excerpt: autop(item.excerpt),
    slug: item.slug,
    image: ctx.image,
  };
}

/** Drops the empty keys (resources.md §2) and closes with the global ids, which always stay. */
export function finishLinkedItem(head: Json, body: Json, keep: readonly string[], item: LinkedItemEntity, baseUrl: string): Json {
  // What `{ ...omitEmpty({ ...head, ...body }, keep), ...globalIdFields(…) }` gives (head's keys in
  // order with body's values where body has them, then body's other keys; empty ones left out),
  // built key by key: the spreads cost about 20 µs an item (measured), this about 1.5.
  const out: Json = {};
  const put = (key: string, value: unknown) => {
    if (!isEmptyValue(value) || keep.includes(key)) out[key] = value;
  };
  for (const key of Object.keys(head)) put(key, Object.hasOwn(body, key) ? body[key] : head[key]);
  for (const key of Object.keys(body)) if (!Object.hasOwn(head, key)) put(key, body[key]);
  return Object.assign(out, globalIdFields(baseUrl, item.id));
}

/** Plain-text description of JSON-LD: the excerpt, else the first 55 words of the description, tags removed. */
export function jsonLdDescription(item: Pick<LinkedItemEntity, 'excerpt' | 'description'>): string {
  const excerpt = stripTags(item.excerpt);
  return excerpt !== '' ? excerpt : firstWords(stripTags(item.description), 55);
}

/** `@type`, `name`, `description`, `image` (only when there is one), `url` (§7). */
export function jsonLdHead(schemaType: 'Place' | 'Person', item: LinkedItemEntity, url: string, ctx: LinkedPresentContext): Json {
  const ld: Json = { '@type': schemaType, name: item.name.trim(), description: jsonLdDescription(item) };
  if (ctx.image) ld.image = ctx.image.url;
  ld.url = url;
  return ld;
}

// ---- errors (errors.md) ----

/** The parameter message of a nested venue or organizer of an event write that is not valid (errors.md, suggested wording). */
export const LINKED_MESSAGE = 'The linked venue or organizer data is not valid.';

/** The error codes of one kind, written out literally by each module (`venues.errors.ts`). */
export interface LinkedItemErrorCodes {
  notAccessible: string;
  inTrash: string;
  pageNotFound: string;
  couldNotCreate: string;
  couldNotUpdate: string;
  couldNotDelete: string;
}

export type LinkedItemErrors = { [K in keyof LinkedItemErrorCodes]: () => WpError };

/** The error family of a kind, with errors.md's statuses and messages. */
export function linkedItemErrors(noun: LinkedItemType, codes: LinkedItemErrorCodes): LinkedItemErrors {
  return {
    notAccessible: () => new WpError(codes.notAccessible, `You cannot view this ${noun}.`, 403),
    inTrash: () => new WpError(codes.inTrash, `The ${noun} is already in the trash.`, 410),
    pageNotFound: () => new WpError(codes.pageNotFound, `This page of ${noun}s does not exist.`, 404),
    couldNotCreate: () => new WpError(codes.couldNotCreate, `The ${noun} could not be created from this data.`, 400),
    couldNotUpdate: () => new WpError(codes.couldNotUpdate, `The ${noun} could not be saved.`, 400),
    couldNotDelete: () => new WpError(codes.couldNotDelete, `The ${noun} could not be removed.`, 500),
  };
}

/**
 * Runs parameter checks that each may throw, so that every invalid parameter is reported in
 * one `rest_invalid_param` (README §9 step 5); any other refusal (e.g. 403
 * rest_cannot_edit_others) is kept and thrown only when all parameters were valid.
 */
export class ParamChecks {
  readonly params: Record<string, string> = {};
  private refusal?: WpError;

  async run<T>(check: () => T | Promise<T>): Promise<T | undefined> {
    try {
      return await check();
    } catch (err) {
      if (!(err instanceof WpError)) throw err;
      if (err.code === REST_INVALID_PARAM) Object.assign(this.params, err.data.params as Record<string, string>);
      else this.refusal ??= err;
      return undefined;
    }
  }

  fail(param: string, message: string): void {
    this.params[param] = message;
  }

  /** Throws what was found: `invalid` builds the 400 (nested items fold every parameter into one). */
  settle(invalid: (params: Record<string, string>) => WpError): void {
    if (Object.keys(this.params).length > 0) throw invalid(this.params);
    if (this.refusal) throw this.refusal;
  }
}
