import { createHash } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import { assertIfMatch, assertUnchanged, Tagged, tagOfJson } from '../common/http/preconditions';
import { validateSync } from 'class-validator';
import { DateTime } from 'luxon';
import { TypeORMError } from 'typeorm';
import { Actor, assertCan, can, canDelete, canEdit, canRead } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { formatSql } from '../common/datetime/format';
import { forbidden, invalidParam, invalidParams, PARAM_MESSAGES, toWpValidationError, WpError } from '../common/errors';
import { JsonText, ListPage, ListPipeline, modifiedAfterUtc, presentCached, rawParam } from '../common/pagination';
import type { NamedCache, ReadModel } from '../common/cache/read-model';
import { cleanTextField, columnOverflow } from '../common/text/text-fields';
import type { AppConfig } from '../config/app-config';
import type { ImageChoice, MediaService } from '../media';
import type { PostsService } from '../posts';
import type { UsersService } from '../users';
import { OUTER, type Reader, type Tx } from '../database/tx';
import type { UnitOfWork } from '../database/unit-of-work';
import { resolveAuthor } from './authorship';
import type { ItemExtensions } from './item-extensions';
import { baseSlug, TRASHED_SUFFIX, trashedSlug } from './item-slug';
import { type DeletedAnswer, deleteForGood } from './permanent-delete';
import {
  Json,
  LinkedItemEntity,
  LinkedItemErrors,
  LinkedItemListFilters,
  LinkedItemType,
  LinkedPresentContext,
  ParamChecks,
  searchFragments,
} from './linked-items';
import type { LinkedItemFieldsDto, ListLinkedItemsQueryDto } from './linked-items.dto';
import type { LinkedItemsRepository } from './linked-items.repository';
import { ListVisibility, listVisibility } from './list-visibility';
import { publicationDateUtc } from './publication-date';
import { effectiveStatus, resolveWriteStatus, WRITE_STATUSES } from './statuses';

/** What distinguishes venues from organizers; each module writes one of these. */
export interface LinkedKind<E extends LinkedItemEntity> {
  /** Post type; also the API name field (`venue`) and the event-write parameter (`venue`). */
  type: LinkedItemType;
  /** List envelope key and URL segment. */
  collection: 'venues' | 'organizers';
  /** The POST body DTO, used again to validate items nested in event writes. */
  createDto: new () => LinkedItemFieldsDto;
  /** API write field → column, for the kind's own fields: written as given. */
  fields: Readonly<Record<string, keyof E & string>>;
  /** The kind's own columns of a new item, before the given fields apply. */
  defaults: Omit<E, keyof LinkedItemEntity>;
  errors: LinkedItemErrors;
  present(item: E, ctx: LinkedPresentContext): Json;
}

/** A checked create of a venue/organizer, waiting for a transaction (opaque to callers). */
export class PreparedCreate {
  constructor(readonly write: unknown) {}
}

/** An item route names its item by id or by slug. */
export type LinkedItemRef = { id: number } | { slug: string };

/** A write after every parameter check: cleaned values, `undefined` for what was not given. */
interface PreparedWrite<E> {
  name?: string;
  description?: string;
  slug?: string;
  status?: string;
  authorId?: number;
  dateUtc?: string;
  /** Chosen with the parameters, probed after the permission check, stored in the transaction. */
  image: ImageChoice;
  fields: Partial<E>;
  /** The write's parameters as given, for the registered extensions. */
  raw: Record<string, unknown>;
}

/** List parameters echoed into rest_url when supplied (spec resources.md §8.2). */
const LIST_FILTERS = ['search', 'event', 'has_events', 'only_with_upcoming', 'status', 'modified_after'];

/** What a venue or organizer service hands to the LinkedItems it is built with. */
export interface LinkedItemsParts<E extends LinkedItemEntity> {
  repo: LinkedItemsRepository<E>;
  posts: PostsService;
  media: MediaService;
  users: UsersService;
  config: AppConfig;
  extensions: ItemExtensions<E>;
  readModel: ReadModel;
  uow: UnitOfWork;
}

/**
 * Venues and organizers (spec endpoints.md §5): the same rules for both kinds, given the kind.
 * VenuesService and OrganizersService each build one (composition: what differs is data, in
 * LinkedKind, not overridden methods). Checks run in the spec's order: parameters (400),
 * permission (401/403), the operation's own checks.
 */
export class LinkedItems<E extends LinkedItemEntity> {
  /** Presented list items by id, as UTF-8 JSON. */
  private readonly listed: NamedCache<Buffer>;
  /** Embedded representations (no JSON-LD) by id, as events embed them. */
  private readonly embedded: NamedCache<Json>;
  private readonly pipeline: ListPipeline;
  private readonly repo: LinkedItemsRepository<E>;
  private readonly posts: PostsService;
  private readonly media: MediaService;
  private readonly users: UsersService;
  private readonly config: AppConfig;
  private readonly extensions: ItemExtensions<E>;
  private readonly readModel: ReadModel;
  private readonly uow: UnitOfWork;

  constructor(
    private readonly kind: LinkedKind<E>,
    parts: LinkedItemsParts<E>,
  ) {
    this.repo = parts.repo;
    this.posts = parts.posts;
    this.media = parts.media;
    this.users = parts.users;
    this.config = parts.config;
    this.extensions = parts.extensions;
    this.readModel = parts.readModel;
    this.uow = parts.uow;
    this.listed = parts.readModel.cache(`${kind.collection}.listed`);
    this.embedded = parts.readModel.cache(`${kind.collection}.embedded`);
    this.pipeline = new ListPipeline(parts.readModel, kind.collection, parts.config.baseUrl);
  }

  // ---- routes ----

  async list(actor: Actor | null, q: ListLinkedItemsQueryDto, raw: Record<string, unknown>): Promise<ListPage<JsonText>> {
    await this.readModel.snapshot();
    const checks = new ParamChecks();
    const visibility = await checks.run(() => listVisibility(actor, q.status));
    if (q.event !== undefined && !(await this.posts.isOfType(q.event, 'event'))) checks.fail('event', PARAM_MESSAGES.unknownId('event'));
    const modifiedAfter = modifiedAfterUtc(q.modified_after, this.config.timezone, DateTime.utc());
    if (modifiedAfter === null) checks.fail('modified_after', PARAM_MESSAGES.date);
    checks.settle(invalidParams);

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
    return this.pipeline.answer({
      page,
      perPage,
      // The filters hold the current second (a scheduled item counts from its date on), so a
      // cached total or page serves the requests of that second.
      filterKey: JSON.stringify(filters),
      count: () => this.repo.count(filters),
      pageIds: (offset, limit) => this.repo.pageIds(filters, offset, limit),
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
    const items = (await this.repo.findByIds(ids)).filter((item) => this.readable(actor, item));
    const presented = await this.presentMany(items, () => true);
    return new Map(items.map((item, i) => [item.id, presented[i]]));
  }

  /** The body the caller's single GET of this item shows now, or null when that GET answers an error (If-Match compares with it). */
  private async singleBody(actor: Actor | null, item: E): Promise<Json | null> {
    return this.readable(actor, item) ? this.presentOne(item, true) : null;
  }

  /** POST /venues, POST /organizers (§5.2). */
  async create(actor: Actor | null, input: LinkedItemFieldsDto, raw: Record<string, unknown> = {}): Promise<Json> {
    const write = await this.prepare(actor, input, invalidParams, raw, true);
    assertCan(actor, 'create_items');
    write.image = await this.media.probeChoice(write.image);
    const { entity } = await this.storing(this.kind.errors.couldNotCreate, () =>
      this.uow.run(async (tx, changes) => {
        const stored = await this.insertOrReuse(actor, write, tx);
        if (!stored.reused) changes.record(this.kind.type, stored.entity.id);
        return stored;
      }),
    );
    return this.presentOne(entity, false);
  }

  /** Partial update (§5.3): unknown → 400, then the right to edit that item; no duplicate reuse. */
  async update(
    actor: Actor | null,
    ref: LinkedItemRef,
    input: LinkedItemFieldsDto,
    raw: Record<string, unknown> = {},
    ifMatch?: string,
  ): Promise<Tagged | Json> {
    const item = await this.require(ref);
    const write = await this.prepare(actor, input, invalidParams, raw, false);
    if (!canEdit(actor, item)) throw forbidden(actor !== null);
    await assertIfMatch(ifMatch, () => this.singleBody(actor, item));
    write.image = await this.media.probeChoice(write.image);
    const updated = await this.storing(this.kind.errors.couldNotUpdate, () =>
      // The row as committed now, locked: a concurrent write to other fields, or a trash, is kept.
      this.uow.run(async (tx, changes) => {
        changes.record(this.kind.type, item.id);
        const current = await this.repo.findForUpdate(item.id, tx);
        if (!current) throw this.unknown(ref); // deleted for good meanwhile
        assertUnchanged(ifMatch, item, current);
        return this.applyUpdate(actor, current, write, tx);
      }),
    );
    const answer = await this.presentOne(updated, false);
    const body = await this.singleBody(actor, updated);
    return body === null ? answer : new Tagged(answer, tagOfJson(body));
  }

  /**
   * DELETE (§5.3): unknown → 400, right to delete → already trashed 410 → trash and unlink.
   * With `force` (beyond.md #1) deleted for good instead, from the trash too.
   */
  async remove(actor: Actor | null, ref: LinkedItemRef, force = false, ifMatch?: string): Promise<Json> {
    const item = await this.require(ref);
    if (!canDelete(actor, item)) throw forbidden(actor !== null);
    if (force) return this.storing(this.kind.errors.couldNotDelete, () => this.deleteForGood(actor, ref, item, ifMatch));
    if (item.status === 'trash') throw this.kind.errors.inTrash();
    await assertIfMatch(ifMatch, () => this.singleBody(actor, item));
    const nowUtc = nowUtcSql();
    const trashed = await this.storing(this.kind.errors.couldNotDelete, () =>
      this.uow.run(async (tx, changes) => {
        changes.record(this.kind.type, item.id);
        const current = await this.repo.findForUpdate(item.id, tx);
        if (!current) throw this.unknown(ref); // deleted for good meanwhile
        assertUnchanged(ifMatch, item, current);
        if (current.status === 'trash') throw this.kind.errors.inTrash(); // a concurrent delete came first
        return this.repo.trash(current, effectiveStatus(current.status, current.dateUtc, nowUtc), nowUtc, tx);
      }),
    );
    return this.presentOne(trashed, false);
  }

  /**
   * The item, its links from events (the events stay, without it), the extensions' data and its
   * id, for good. `previous`: the item as the caller's single read shows it (with json_ld).
   */
  private deleteForGood(actor: Actor | null, ref: LinkedItemRef, found: E, ifMatch: string | undefined): Promise<DeletedAnswer> {
    return deleteForGood(this.uow, {
      type: this.kind.type,
      found,
      condition: { ifMatch, body: (item) => this.singleBody(actor, item) },
      reread: () => this.require(ref),
      assertMayDelete: (item) => {
        if (!canDelete(actor, item)) throw forbidden(actor !== null);
      },
      present: (item) => this.presentOne(item, true),
      lock: (tx, id) => this.repo.findForUpdate(id, tx),
      gone: () => this.unknown(ref),
      remove: async (tx, item) => {
        await this.extensions.remove(tx, item.id);
        await this.repo.remove(item.id, tx);
        await this.posts.release(item.id, tx);
      },
    });
  }

  // ---- the seams used by event writes and event responses ----

  /**
   * The §5.2 create path for items nested in event writes (§4.4), first half: every parameter
   * check (400), with no write and no transaction. `nested`: every invalid parameter becomes
   * `rest_invalid_param` with params `{ <type>: PARAM_MESSAGES.linked }`. No permission check:
   * the caller already checked the right to write the event. Event writes call it before their
   * transaction opens: inside a transaction every query must use its manager (a pooled
   * connection on MySQL, the queued connection on SQLite, src/database/sqlite-transactions.ts).
   */
  async prepareCreate(actor: Actor | null, input: Record<string, unknown>, nested: boolean): Promise<PreparedCreate> {
    const invalid = nested ? () => invalidParam(this.kind.type, PARAM_MESSAGES.linked) : invalidParams;
    const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
    const dto = plainToInstance(this.kind.createDto, given);
    const errors = validateSync(dto, { whitelist: true, stopAtFirstError: true });
    if (errors.length > 0) throw nested ? invalid({}) : toWpValidationError(errors);
    return new PreparedCreate(await this.prepare(actor, dto, invalid, given, true));
  }

  /** The outbound part of a prepared create (its image URL), for after the event write's permission checks. */
  async probePrepared(prepared: PreparedCreate): Promise<PreparedCreate> {
    const write = prepared.write as PreparedWrite<E>;
    return new PreparedCreate({ ...write, image: await this.media.probeChoice(write.image) });
  }

  /** The second half: status scaling, slug rules and duplicate reuse inside `manager`'s transaction. */
  createPrepared(actor: Actor | null, prepared: PreparedCreate, manager: Tx): Promise<{ entity: E; reused: boolean }> {
    return this.insertOrReuse(actor, prepared.write as PreparedWrite<E>, manager);
  }

  /** Ids (any status, trash included) that exist as items of this kind, in one query. */
  existingIds(ids: number[]): Promise<Set<number>> {
    return this.repo.existingIds(ids);
  }

  /**
   * The ids among `ids` that an event write by `actor` may link: items of this kind, not in the
   * trash, readable by the caller. Inside a write (`reader` its Tx) they stay so until it ends.
   */
  async linkableIds(actor: Actor | null, ids: number[], reader: Reader): Promise<Set<number>> {
    const live = await this.repo.findLive(ids, reader, reader !== OUTER);
    return new Set(live.filter((item) => this.readable(actor, item)).map((item) => item.id));
  }

  /**
   * Embedded representations (resources.md §2–§3) by id. `jsonLd` adds `json_ld`; with `actor`
   * given (null = anonymous) only to the items that caller may read (resources.md §7).
   */
  async embed(ids: number[], opts: { jsonLd: boolean; actor?: Actor | null }): Promise<Map<number, Json>> {
    if (!opts.jsonLd) return this.embedPlain(ids);
    const rows = await this.repo.findByIds(ids);
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
    const rows = await this.repo.findByIds(missing);
    const presented = await this.presentMany(rows);
    rows.forEach((row, i) => {
      out.set(row.id, presented[i]);
      if (row.status !== 'future') this.embedded.set(String(row.id), presented[i], generation);
    });
    return out;
  }

  // ---- writing ----

  /**
   * Every parameter check that needs the database or the caller, all reported together:
   * name (sanitised, non-empty), author, publication date, image. Returns the cleaned write.
   */
  private async prepare(
    actor: Actor | null,
    input: LinkedItemFieldsDto,
    invalid: (params: Record<string, string>) => WpError,
    raw: Record<string, unknown>,
    isCreate: boolean,
  ): Promise<PreparedWrite<E>> {
    const checks = new ParamChecks();
    for (const [param, message] of Object.entries(this.extensions.check(raw, isCreate))) checks.fail(param, message);
    const nameValue = this.field(input, this.kind.type);
    const name = typeof nameValue === 'string' ? await checks.run(() => this.cleanName(actor, nameValue)) : undefined;
    const authorId = await checks.run(() => resolveAuthor(actor, input.author, async (id) => (await this.users.findById(id)) !== null));
    const date = publicationDateUtc(input, this.config.timezone, DateTime.utc());
    for (const param of date.bad) checks.fail(param, PARAM_MESSAGES.date);
    const image = await checks.run(() => this.media.choose(actor, input.image, 'ignore'));

    const unfiltered = can(actor, 'unfiltered_html');
    /** The value to store, cleaned by the one rule (text-fields.ts) and checked against its column. */
    const clean = (param: string, value: string) => {
      const text = cleanTextField(this.kind.type, param, value, unfiltered);
      const overflow = columnOverflow(this.kind.type, param, text);
      if (overflow) checks.fail(param, overflow);
      return text;
    };
    const fields: Partial<E> = {};
    for (const [param, column] of Object.entries(this.kind.fields)) {
      const value = this.field(input, param);
      if (value === undefined) continue;
      fields[column] = (typeof value === 'string' ? clean(param, value) : value) as E[keyof E & string];
    }
    const description = input.description === undefined ? undefined : clean('description', input.description);
    const nameOverflow = name === undefined ? null : columnOverflow(this.kind.type, this.kind.type, name);
    if (nameOverflow) checks.fail(this.kind.type, nameOverflow);
    checks.settle(invalid);
    return {
      name,
      description,
      slug: input.slug,
      status: input.status,
      authorId,
      dateUtc: date.utc,
      image: image ?? { kind: 'keep' },
      fields,
      raw,
    };
  }

  /**
   * Create, or reuse the duplicate (§5.2 "Duplicate reuse"). Writers of the same name take turns
   * (a named lock in the database, held to the end of the transaction), so concurrent creates of
   * one item on any number of instances make one item and reuse it.
   */
  private async insertOrReuse(actor: Actor | null, w: PreparedWrite<E>, manager: Tx): Promise<{ entity: E; reused: boolean }> {
    const now = DateTime.utc();
    const nowUtc = formatSql(now);
    const name = w.name as string; // required by the create DTO
    const findDuplicate = () => this.repo.findDuplicate(name, w.description || undefined, this.creatorVisibility(actor), nowUtc, manager);
    // An item that exists already is reused without the lock: the lock only keeps two writers
    // from both creating one (and, taken by every writer of a popular name, it would be a row
    // that all of them write; on a cluster they would keep failing certification on it).
    let duplicate = await findDuplicate();
    if (!duplicate) {
      await this.repo.lockName(manager, duplicateLockName(this.kind.type, name));
      duplicate = await findDuplicate();
    }
    if (duplicate) return { entity: await this.fillDuplicate(actor, duplicate, w, nowUtc, manager), reused: true };

    const id = await this.posts.allocate(this.kind.type, manager);
    const dateUtc = w.dateUtc ?? nowUtc;
    const entity = {
      ...this.kind.defaults,
      ...w.fields,
      id,
      authorId: w.authorId ?? actor?.id ?? 0,
      status: resolveWriteStatus(actor, w.status, undefined, dateUtc, now),
      statusBeforeTrash: null,
      dateUtc,
      modifiedUtc: nowUtc,
      name,
      slug: '',
      description: w.description ?? '',
      excerpt: '',
      imageId: (await this.media.idFor(manager, w.image, actor)) ?? null,
    } as E;
    await this.repo.underFreeSlug(entity, baseSlug(w.slug, name, String(id)), manager, () => this.repo.insert(entity, manager));
    await this.extensions.save(manager, entity, w.raw, true);
    return { entity, reused: false };
  }

  /**
   * The other given fields go onto the reused item — only when the caller may edit it, so a
   * create cannot change what the caller could not change by an update (compatibility note).
   * Status, author, date and slug of the existing item are never touched.
   */
  private async fillDuplicate(actor: Actor | null, item: E, w: PreparedWrite<E>, nowUtc: string, manager: Tx): Promise<E> {
    if (!canEdit(actor, item)) return item;
    const changes: Partial<E> = { ...w.fields };
    const imageId = await this.media.idFor(manager, w.image, actor);
    if (imageId !== undefined) changes.imageId = imageId;
    await this.extensions.save(manager, item, w.raw, false);
    // Only what differs is written: reusing an item as it is stored changes nothing (not even
    // its modified date), and a popular item is not a row every reuse writes.
    for (const key of Object.keys(changes) as (keyof E)[]) if (changes[key] === item[key]) delete changes[key];
    if (Object.keys(changes).length === 0) return item;
    const next: E = { ...item, ...changes, modifiedUtc: nowUtc };
    await this.repo.update(next, manager);
    return next;
  }

  private async applyUpdate(actor: Actor | null, item: E, w: PreparedWrite<E>, manager: Tx): Promise<E> {
    const now = DateTime.utc();
    const next: E = { ...item, ...w.fields, modifiedUtc: formatSql(now) };
    if (w.name !== undefined) next.name = w.name;
    if (w.description !== undefined) next.description = w.description;
    if (w.authorId !== undefined) next.authorId = w.authorId;
    if (w.dateUtc !== undefined) next.dateUtc = w.dateUtc;
    const imageId = await this.media.idFor(manager, w.image, actor);
    if (imageId !== undefined) next.imageId = imageId;
    next.status = resolveWriteStatus(actor, w.status, item.status, next.dateUtc, now);
    // Given a status again, a trashed item leaves the trash and gets its slug back (as WordPress restores it).
    const restored = item.status === 'trash' && next.status !== 'trash';
    if (restored) next.statusBeforeTrash = null;
    if (w.slug !== undefined || restored) {
      const base = baseSlug(w.slug ?? item.slug.replace(new RegExp(`${TRASHED_SUFFIX}$`), ''), next.name, String(item.id));
      // A trashed item keeps a trash slug until it is restored (spec beyond.md #2).
      if (next.status === 'trash') next.slug = trashedSlug(base);
      else {
        await this.repo.underFreeSlug(next, base, manager, () => this.repo.update(next, manager));
        await this.extensions.save(manager, next, w.raw, false);
        return next;
      }
    }
    await this.repo.update(next, manager);
    await this.extensions.save(manager, next, w.raw, false);
    return next;
  }

  /**
   * Storage failures answer the codes the spec names (could-not-create/update/delete-*); anything
   * else (our own errors, bugs) passes through, bugs becoming a logged rest_internal_error.
   */
  private async storing<T>(failure: () => WpError, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof TypeORMError) throw Object.assign(failure(), { cause: err });
      throw err;
    }
  }

  // ---- helpers ----

  /** Unknown ids and slugs on item routes are parameter errors (§5.3), also for other kinds' ids. */
  private async require(ref: LinkedItemRef): Promise<E> {
    const item = 'id' in ref ? await this.repo.findById(ref.id) : await this.repo.findBySlug(ref.slug);
    if (!item) throw this.unknown(ref);
    return item;
  }

  private unknown(ref: LinkedItemRef): WpError {
    return invalidParam('id' in ref ? 'id' : 'slug', PARAM_MESSAGES.unknownId(this.kind.type));
  }

  private readable(actor: Actor | null, item: Pick<E, 'authorId' | 'status' | 'dateUtc'>): boolean {
    return canRead(actor, { ...item, status: effectiveStatus(item.status, item.dateUtc, nowUtcSql()) });
  }

  /** Duplicates are looked for among the items the creator may read (compatibility note). */
  private creatorVisibility(actor: Actor | null): ListVisibility {
    const statuses = [...WRITE_STATUSES];
    return can(actor, 'read_others_unpublished') ? { statuses } : { statuses, ownerId: actor?.id ?? 0 };
  }

  private async presentOne(item: E, jsonLd: boolean): Promise<Json> {
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
      const rows = await this.repo.findByIds(missing);
      const presented = await this.presentMany(rows);
      return new Map(rows.map((row, i) => [row.id, { bytes: Buffer.from(JSON.stringify(presented[i])), keep: row.status !== 'future' }]));
    });
  }

  /** Items with their images, in one media query. */
  private async presentMany(items: E[], jsonLd: (item: E) => boolean = () => false): Promise<Json[]> {
    const [images, extras] = await Promise.all([this.media.present(items.map((item) => item.imageId)), this.extensions.present(items)]);
    const nowUtc = nowUtcSql();
    return items.map((item) =>
      this.kind.present(item, {
        baseUrl: this.config.baseUrl,
        publicUrl: this.config.publicUrl,
        timezone: this.config.timezone,
        nowUtc,
        image: item.imageId === null ? undefined : images.get(item.imageId),
        jsonLd: jsonLd(item),
        extra: extras.get(item.id),
      }),
    );
  }

  private field(input: LinkedItemFieldsDto, name: string): unknown {
    return (input as unknown as Record<string, unknown>)[name];
  }

  /** Names are plain text for callers without unfiltered HTML (spec README §8), never empty. */
  private cleanName(actor: Actor | null, name: string): string {
    const text = cleanTextField(this.kind.type, this.kind.type, name, can(actor, 'unfiltered_html')).trim();
    if (text === '') throw invalidParam(this.kind.type, PARAM_MESSAGES.text);
    return text;
  }
}

/** The lock writers of one venue/organizer name share (case-insensitive, as §5.2 compares). */
function duplicateLockName(type: LinkedItemType, name: string): string {
  return `${type}:${createHash('sha256').update(name.toLowerCase()).digest('hex')}`;
}
