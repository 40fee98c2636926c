import { createHash } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DateTime } from 'luxon';
import { Actor, assertCan, can, canEdit } from '../common/auth';
import { formatSql } from '../common/datetime/format';
import { forbidden, invalidParam, invalidParams, PARAM_MESSAGES, toWpValidationError, WpError } from '../common/errors';
import { assertIfMatch, assertUnchanged, Tagged, tagOfJson } from '../common/http/preconditions';
import { cleanTextField, columnOverflow } from '../common/text/text-fields';
import { OUTER, type Reader, type Tx } from '../database/tx';
import type { ChangeSet } from '../database/change-log';
import type { WriteParticipant } from '../database/write-participants';
import type { ImageChoice } from '../media';
import { baseSlug, ListVisibility, publicationDateUtc, resolveAuthor, resolveWriteStatus, TRASHED_SUFFIX, trashedSlug, WRITE_STATUSES } from '../items';
import type { LinkedItemReads } from './linked-item-reads';
import { Json, LINKED_MESSAGE, LinkedItemEntity, LinkedItemType, ParamChecks } from './linked-items';
import type { LinkedItemFieldsDto } from './linked-items.dto';
import { LinkedItemRef, LinkedItemsParts, LinkedKind, PreparedCreate, storing } from './linked-kind';

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
  /** The write's parameters as given, for the kind's hooks. */
  raw: Record<string, unknown>;
}

/**
 * What is written of venues and organizers (spec endpoints.md §5.2, §5.3 updates): creates with
 * duplicate reuse, partial updates, and the two halves of the creates nested in event writes.
 * Parameters (400) are checked before permissions (401/403), as the spec orders them.
 */
export class LinkedItemWrites<E extends LinkedItemEntity> {
  constructor(
    private readonly kind: LinkedKind<E>,
    private readonly reads: LinkedItemReads<E>,
    private readonly parts: Pick<LinkedItemsParts<E>, 'repo' | 'posts' | 'media' | 'users' | 'config' | 'hooks' | 'unitOfWork'>,
  ) {}

  /** POST /venues, POST /organizers (§5.2). `participants`: declared for the write's unit of work (an import's bookkeeping). */
  async create(
    actor: Actor | null,
    input: LinkedItemFieldsDto,
    raw: Record<string, unknown> = {},
    participants: readonly WriteParticipant[] = [],
  ): Promise<Json> {
    const write = await this.prepare(actor, input, invalidParams, raw, null, OUTER);
    assertCan(actor, 'create_items');
    write.image = await this.parts.media.probeChoice(write.image);
    const { entity } = await storing(this.kind.errors.couldNotCreate, () =>
      this.parts.unitOfWork.run(async (tx, changes) => {
        const stored = await this.insertOrReuse(actor, write, tx, changes);
        if (!stored.reused) changes.record(this.kind.type, stored.entity.id);
        return stored;
      }, participants),
    );
    return this.reads.presentOne(entity, false);
  }

  /** Partial update (§5.3): unknown → 400, then the right to edit that item; no duplicate reuse. */
  async update(
    actor: Actor | null,
    ref: LinkedItemRef,
    input: LinkedItemFieldsDto,
    raw: Record<string, unknown> = {},
    ifMatch?: string,
    participants: readonly WriteParticipant[] = [],
  ): Promise<Tagged | Json> {
    const item = await this.reads.require(ref);
    const write = await this.prepare(actor, input, invalidParams, raw, item, OUTER);
    if (!canEdit(actor, item)) throw forbidden(actor !== null);
    await assertIfMatch(ifMatch, () => this.reads.singleBody(actor, item));
    write.image = await this.parts.media.probeChoice(write.image);
    const updated = await storing(this.kind.errors.couldNotUpdate, () =>
      // The row as committed now, locked: a concurrent write to other fields, or a trash, is kept.
      this.parts.unitOfWork.run(async (tx, changes) => {
        changes.record(this.kind.type, item.id);
        const current = await this.parts.repo.findForUpdate(item.id, tx);
        if (!current) throw this.reads.unknown(ref); // deleted for good meanwhile
        assertUnchanged(ifMatch, item, current);
        return this.applyUpdate(actor, current, write, tx, changes);
      }, participants),
    );
    const answer = await this.reads.presentOne(updated, false);
    const body = await this.reads.singleBody(actor, updated);
    return body === null ? answer : new Tagged(answer, tagOfJson(body));
  }

  // ---- what event writes use ----

  /**
   * The §5.2 create path for items nested in event writes (§4.4), first half: every parameter
   * check (400), with no write and no transaction. `nested`: every invalid parameter becomes
   * `rest_invalid_param` with params `{ <type>: LINKED_MESSAGE }`. No permission check:
   * the caller already checked the right to write the event. Route writes of events call it
   * before their transaction opens (`reader` OUTER); writes inside a running unit of work
   * (EventWrites) give their transaction: inside a transaction every query must use its manager
   * (a pooled connection on MySQL, the queued connection on SQLite, src/database/sqlite-transactions.ts).
   */
  async prepareCreate(actor: Actor | null, input: Record<string, unknown>, nested: boolean, reader: Reader): Promise<PreparedCreate> {
    const invalid = nested ? () => invalidParam(this.kind.type, LINKED_MESSAGE) : invalidParams;
    const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
    const dto = plainToInstance(this.kind.createDto, given);
    const errors = validateSync(dto, { whitelist: true, stopAtFirstError: true });
    if (errors.length > 0) throw nested ? invalid({}) : toWpValidationError(errors);
    return new PreparedCreate(await this.prepare(actor, dto, invalid, given, null, reader));
  }

  /** The outbound part of a prepared create (its image URL), for after the event write's permission checks. */
  async probePrepared(prepared: PreparedCreate): Promise<PreparedCreate> {
    const write = prepared.write as PreparedWrite<E>;
    return new PreparedCreate({ ...write, image: await this.parts.media.probeChoice(write.image) });
  }

  /** probePrepared for a create inside a running unit of work: an image URL must be known already (MediaService.knownChoice). */
  async knownPrepared(tx: Tx, prepared: PreparedCreate): Promise<PreparedCreate> {
    const write = prepared.write as PreparedWrite<E>;
    return new PreparedCreate({ ...write, image: await this.parts.media.knownChoice(tx, write.image) });
  }

  /** The second half: status scaling, slug rules and duplicate reuse inside `tx`'s transaction, recorded in `changes`. */
  createPrepared(actor: Actor | null, prepared: PreparedCreate, tx: Tx, changes: ChangeSet): Promise<{ entity: E; reused: boolean }> {
    return this.insertOrReuse(actor, prepared.write as PreparedWrite<E>, tx, changes);
  }

  // ---- writing ----

  /**
   * Every parameter check that needs the database or the caller, all reported together:
   * name (sanitised, non-empty), author, publication date, image, and the hooks' parameters.
   * `current`: the item updated (null on create). Returns the cleaned write.
   */
  private async prepare(
    actor: Actor | null,
    input: LinkedItemFieldsDto,
    invalid: (params: Record<string, string>) => WpError,
    raw: Record<string, unknown>,
    current: E | null,
    reader: Reader,
  ): Promise<PreparedWrite<E>> {
    const checks = new ParamChecks();
    for (const [param, message] of Object.entries(await this.parts.hooks.check(raw, { actor, current }))) checks.fail(param, message);
    const nameValue = this.field(input, this.kind.type);
    const name = typeof nameValue === 'string' ? await checks.run(() => this.cleanName(actor, nameValue)) : undefined;
    const authorId = await checks.run(() => resolveAuthor(actor, input.author, (id) => this.parts.users.exists(id, reader)));
    const date = publicationDateUtc(input, this.parts.config.timezone, DateTime.utc());
    for (const param of date.bad) checks.fail(param, PARAM_MESSAGES.date);
    const image = await checks.run(() => this.parts.media.choose(actor, input.image, 'ignore', reader));

    const unfiltered = can(actor, 'unfiltered_html');
    /** The value to store, cleaned by the one rule (text-fields.ts) and checked against its column. */
    const clean = (param: string, value: string) => {
      const text = cleanTextField(this.kind.text, param, value, unfiltered);
      const overflow = columnOverflow(this.kind.text, param, text);
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
    const nameOverflow = name === undefined ? null : columnOverflow(this.kind.text, this.kind.type, name);
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
  private async insertOrReuse(actor: Actor | null, w: PreparedWrite<E>, tx: Tx, changes: ChangeSet): Promise<{ entity: E; reused: boolean }> {
    const now = DateTime.utc();
    const nowUtc = formatSql(now);
    const name = w.name as string; // required by the create DTO
    const findDuplicate = () => this.parts.repo.findDuplicate(name, w.description || undefined, this.creatorVisibility(actor), nowUtc, tx);
    // An item that exists already is reused without the lock: the lock only keeps two writers
    // from both creating one (and, taken by every writer of a popular name, it would be a row
    // that all of them write; on a cluster they would keep failing certification on it).
    let duplicate = await findDuplicate();
    if (!duplicate) {
      await this.parts.repo.lockName(tx, duplicateLockName(this.kind.type, name));
      duplicate = await findDuplicate();
    }
    if (duplicate) return { entity: await this.fillDuplicate(actor, duplicate, w, nowUtc, tx, changes), reused: true };

    const id = await this.parts.posts.allocate(this.kind.type, tx);
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
      imageId: (await this.parts.media.idFor(tx, w.image, actor)) ?? null,
    } as E;
    await this.parts.repo.underFreeSlug(entity, baseSlug(w.slug, name, String(id)), tx, () => this.parts.repo.insert(entity, tx));
    await this.parts.hooks.saved(tx, entity, { actor, input: w.raw, before: null, changes });
    return { entity, reused: false };
  }

  /**
   * The other given fields go onto the reused item — only when the caller may edit it, so a
   * create cannot change what the caller could not change by an update (compatibility note).
   * Status, author, date and slug of the existing item are never touched.
   */
  private async fillDuplicate(actor: Actor | null, item: E, w: PreparedWrite<E>, nowUtc: string, tx: Tx, changes: ChangeSet): Promise<E> {
    if (!canEdit(actor, item)) return item;
    const fields: Partial<E> = { ...w.fields };
    const imageId = await this.parts.media.idFor(tx, w.image, actor);
    if (imageId !== undefined) fields.imageId = imageId;
    // Only what differs is written: reusing an item as it is stored changes nothing (not even
    // its modified date), and a popular item is not a row every reuse writes.
    for (const key of Object.keys(fields) as (keyof E)[]) if (fields[key] === item[key]) delete fields[key];
    const next: E = Object.keys(fields).length === 0 ? item : { ...item, ...fields, modifiedUtc: nowUtc };
    if (next !== item) await this.parts.repo.update(next, tx);
    await this.parts.hooks.saved(tx, next, { actor, input: w.raw, before: item, changes });
    return next;
  }

  private async applyUpdate(actor: Actor | null, item: E, w: PreparedWrite<E>, tx: Tx, changes: ChangeSet): Promise<E> {
    const now = DateTime.utc();
    const next: E = { ...item, ...w.fields, modifiedUtc: formatSql(now) };
    if (w.name !== undefined) next.name = w.name;
    if (w.description !== undefined) next.description = w.description;
    if (w.authorId !== undefined) next.authorId = w.authorId;
    if (w.dateUtc !== undefined) next.dateUtc = w.dateUtc;
    const imageId = await this.parts.media.idFor(tx, w.image, actor);
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
        await this.parts.repo.underFreeSlug(next, base, tx, () => this.parts.repo.update(next, tx));
        await this.parts.hooks.saved(tx, next, { actor, input: w.raw, before: item, changes });
        return next;
      }
    }
    await this.parts.repo.update(next, tx);
    await this.parts.hooks.saved(tx, next, { actor, input: w.raw, before: item, changes });
    return next;
  }

  /** Duplicates are looked for among the items the creator may read (compatibility note). */
  private creatorVisibility(actor: Actor | null): ListVisibility {
    const statuses = [...WRITE_STATUSES];
    return can(actor, 'read_others_unpublished') ? { statuses } : { statuses, ownerId: actor?.id ?? 0 };
  }

  private field(input: LinkedItemFieldsDto, name: string): unknown {
    return (input as unknown as Record<string, unknown>)[name];
  }

  /** Names are plain text for callers without unfiltered HTML (spec README §8), never empty. */
  private cleanName(actor: Actor | null, name: string): string {
    const text = cleanTextField(this.kind.text, this.kind.type, name, can(actor, 'unfiltered_html')).trim();
    if (text === '') throw invalidParam(this.kind.type, PARAM_MESSAGES.text);
    return text;
  }
}

/** The lock writers of one venue/organizer name share (case-insensitive, as §5.2 compares). */
function duplicateLockName(type: LinkedItemType, name: string): string {
  return `${type}:${createHash('sha256').update(name.toLowerCase()).digest('hex')}`;
}
