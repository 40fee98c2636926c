import { DateTime } from 'luxon';
import { Actor, can, canRead } from '../common/auth';
import type { NamedCache } from '../common/cache/read-model';
import { nowUtcSql } from '../common/datetime/clock';
import { invalidParam, invalidParams, PARAM_MESSAGES, WpError } from '../common/errors';
import { JsonText, ListPage, ListPipeline, modifiedAfterUtc, presentCached, rawParam } from '../common/pagination';
import { OUTER, type Reader } from '../database/tx';
import { Json, LinkedItemEntity, LinkedItemListFilters, ParamChecks, searchFragments } from './linked-items';
import type { ListLinkedItemsQueryDto } from './linked-items.dto';
import type { LinkedItemRef, LinkedItemsParts, LinkedKind } from './linked-kind';
import { effectiveStatus, ListVisibility, listVisibility } from '../items';

/** List parameters echoed into rest_url when supplied (spec resources.md §8.2). */
const LIST_FILTERS = ['search', 'event', 'has_events', 'only_with_upcoming', 'status', 'modified_after'];

/**
 * What is read of venues and organizers (spec endpoints.md §5.1, §5.3 GET): lists, single
 * reads, what event responses and event writes read through (existing and linkable ids,
 * embedded items), and the presentation the writes and deletes answer with. Writes nothing.
 */
export class LinkedItemReads<E extends LinkedItemEntity> {
  /** Presented list items by id, as UTF-8 JSON. */
  private readonly listed: NamedCache<Buffer>;
  /** Embedded representations (no JSON-LD) by id, as events embed them. */
  private readonly embedded: NamedCache<Json>;
  private readonly pipeline: ListPipeline;

  constructor(
    private readonly kind: LinkedKind<E>,
    private readonly parts: Pick<LinkedItemsParts<E>, 'repo' | 'posts' | 'media' | 'config' | 'hooks' | 'readModel'>,
  ) {
    this.listed = parts.readModel.cache(`${kind.collection}.listed`);
    this.embedded = parts.readModel.cache(`${kind.collection}.embedded`);
    this.pipeline = new ListPipeline(parts.readModel, kind.collection, parts.config.baseUrl);
  }

  async list(actor: Actor | null, q: ListLinkedItemsQueryDto, raw: Record<string, unknown>): Promise<ListPage<JsonText>> {
    await this.parts.readModel.snapshot();
    const checks = new ParamChecks();
    const visibility = await checks.run(() => listVisibility(actor, q.status));
    if (q.event !== undefined && !(await this.parts.posts.isOfType(q.event, 'event'))) checks.fail('event', PARAM_MESSAGES.unknownId('event'));
    const modifiedAfter = modifiedAfterUtc(q.modified_after, this.parts.config.timezone, DateTime.utc());
    if (modifiedAfter === null) checks.fail('modified_after', PARAM_MESSAGES.date);
    checks.settle(invalidParams);
    const extended = await this.parts.hooks.lists.prepare(raw, actor);

    const page = q.page ?? 1;
    const perPage = q.per_page ?? 10;
    const filters: LinkedItemListFilters = {
      visibility: visibility as ListVisibility,
      nowUtc: nowUtcSql(),
      search: q.search === undefined ? undefined : searchFragments(q.search),
      eventId: q.event,
      hasEvents: q.has_events,
      upcomingStatuses: q.only_with_upcoming ? (can(actor, 'read_private') ? ['publish', 'private'] : ['publish']) : undefined,
      modifiedAfter: modifiedAfter ?? undefined,
    };
    const params: Record<string, string> = { page: String(page), per_page: String(perPage) };
    for (const key of LIST_FILTERS) {
      const text = rawParam(raw[key]);
      if (text !== undefined) params[key] = text;
    }
    Object.assign(params, extended.params);
    return this.pipeline.answer({
      page,
      perPage,
      // The filters hold the current second (a scheduled item counts from its date on), so a
      // cached total or page serves the requests of that second.
      filterKey: JSON.stringify([filters, extended.params]),
      count: () => this.parts.repo.count(filters, extended.conditions),
      pageIds: (offset, limit) => this.parts.repo.pageIds(filters, offset, limit, extended.conditions),
      present: (ids) => this.presentListed(ids),
      // spec endpoints.md §5.1.2: an empty page beyond the first is an error, not an empty list
      pageNotFound: () => this.kind.errors.pageNotFound(),
      params,
      layout: 'items-first',
    });
  }

  /** Single read (§5.3): unknown → 400, not readable → 403 (anonymous callers too), else with json_ld. */
  async get(actor: Actor | null, ref: LinkedItemRef): Promise<Json> {
    const item = await this.require(ref);
    if (!this.readable(actor, item)) throw this.kind.errors.notAccessible();
    return this.presentOne(item, true);
  }

  /** Several single GETs at once (the change feed, webhook bodies): the items this caller may read, by id, presented together. */
  async getMany(actor: Actor | null, ids: number[]): Promise<Map<number, Json>> {
    const items = (await this.parts.repo.findByIds(ids)).filter((item) => this.readable(actor, item));
    const presented = await this.presentMany(items, () => true);
    return new Map(items.map((item, i) => [item.id, presented[i]]));
  }

  /** The body the caller's single GET of this item shows now, or null when that GET answers an error (If-Match compares with it). */
  async singleBody(actor: Actor | null, item: E): Promise<Json | null> {
    return this.readable(actor, item) ? this.presentOne(item, true) : null;
  }

  /** Ids (any status, trash included) that exist as items of this kind, in one query. */
  existingIds(ids: number[]): Promise<Set<number>> {
    return this.parts.repo.existingIds(ids);
  }

  /**
   * The ids among `ids` that an event write by `actor` may link: items of this kind, not in the
   * trash, readable by the caller. Inside a write (`reader` its Tx) they stay so until it ends.
   */
  async linkableIds(actor: Actor | null, ids: number[], reader: Reader): Promise<Set<number>> {
    const live = await this.parts.repo.findLive(ids, reader, reader !== OUTER);
    return new Set(live.filter((item) => this.readable(actor, item)).map((item) => item.id));
  }

  /**
   * Embedded representations (resources.md §2–§3) by id. `jsonLd` adds `json_ld`; with `actor`
   * given (null = anonymous) only to the items that caller may read (resources.md §7).
   */
  async embed(ids: number[], opts: { jsonLd: boolean; actor?: Actor | null }): Promise<Map<number, Json>> {
    if (!opts.jsonLd) return this.embedPlain(ids);
    const rows = await this.parts.repo.findByIds(ids);
    const jsonLd = (item: E) => opts.jsonLd && (opts.actor === undefined || this.readable(opts.actor, item));
    const presented = await this.presentMany(rows, jsonLd);
    return new Map(rows.map((row, i) => [row.id, presented[i]]));
  }

  /**
   * Embedded representations without JSON-LD, which depend on no caller: kept per id until the
   * next write (a scheduled item is not kept: it turns public at its date without one). Every
   * presented list page of events embeds a venue and organizers; most are the same few.
   * The objects are shared between the events that embed them: never changed after this.
   */
  private async embedPlain(ids: number[]): Promise<Map<number, Json>> {
    const out = new Map<number, Json>();
    const missing: number[] = [];
    for (const id of ids) {
      const hit = this.embedded.get(String(id));
      if (hit === undefined) missing.push(id);
      else out.set(id, hit);
    }
    if (missing.length === 0) return out;
    const generation = this.embedded.mark();
    const rows = await this.parts.repo.findByIds(missing);
    const presented = await this.presentMany(rows);
    rows.forEach((row, i) => {
      out.set(row.id, presented[i]);
      if (row.status !== 'future') this.embedded.set(String(row.id), presented[i], generation);
    });
    return out;
  }

  // ---- for the writes and deletes of the same kind ----

  /** Unknown ids and slugs on item routes are parameter errors (§5.3), also for other kinds' ids. */
  async require(ref: LinkedItemRef): Promise<E> {
    const item = 'id' in ref ? await this.parts.repo.findById(ref.id) : await this.parts.repo.findBySlug(ref.slug);
    if (!item) throw this.unknown(ref);
    return item;
  }

  /** The 400 of an item route naming no item of this kind. */
  unknown(ref: LinkedItemRef): WpError {
    return invalidParam('id' in ref ? 'id' : 'slug', PARAM_MESSAGES.unknownId(this.kind.type));
  }

  /** Whether the caller may read the item now (a scheduled item counts as published from its date). */
  readable(actor: Actor | null, item: Pick<E, 'authorId' | 'status' | 'dateUtc'>): boolean {
    return canRead(actor, { ...item, status: effectiveStatus(item.status, item.dateUtc, nowUtcSql()) });
  }

  /** One item as its routes answer it (`jsonLd`: as its single GET shows it). */
  async presentOne(item: E, jsonLd: boolean): Promise<Json> {
    return (await this.presentMany([item], () => jsonLd))[0];
  }

  /**
   * List items as UTF-8 JSON, from the cache where possible: a list item has no JSON-LD and
   * does not depend on the caller, so one presentation serves every reader until the data
   * changes. A scheduled item is not kept: its status turns to publish when its date passes,
   * with no write to move the data version.
   */
  private presentListed(ids: number[]): Promise<Buffer[]> {
    return presentCached(this.listed, ids, async (missing) => {
      const rows = await this.parts.repo.findByIds(missing);
      const presented = await this.presentMany(rows);
      return new Map(rows.map((row, i) => [row.id, { bytes: Buffer.from(JSON.stringify(presented[i])), keep: row.status !== 'future' }]));
    });
  }

  /** Items with their images, in one media query. */
  private async presentMany(items: E[], jsonLd: (item: E) => boolean = () => false): Promise<Json[]> {
    const [images, extras] = await Promise.all([this.parts.media.present(items.map((item) => item.imageId)), this.parts.hooks.present(items)]);
    const nowUtc = nowUtcSql();
    return items.map((item) =>
      this.kind.present(item, {
        baseUrl: this.parts.config.baseUrl,
        publicUrl: this.parts.config.publicUrl,
        timezone: this.parts.config.timezone,
        nowUtc,
        image: item.imageId === null ? undefined : images.get(item.imageId),
        jsonLd: jsonLd(item),
        extra: extras.get(item.id),
      }),
    );
  }
}
