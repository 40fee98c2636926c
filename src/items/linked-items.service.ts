import type { Actor } from '../common/auth';
import type { Tagged } from '../common/http/preconditions';
import type { JsonText, ListPage } from '../common/pagination';
import type { ChangeSet } from '../database/change-log';
import type { Reader, Tx } from '../database/tx';
import type { LinkedItemDeletes } from './linked-item-deletes';
import type { LinkedItemReads } from './linked-item-reads';
import type { LinkedItemWrites } from './linked-item-writes';
import type { Json, LinkedItemEntity } from './linked-items';
import type { LinkedItemFieldsDto, ListLinkedItemsQueryDto } from './linked-items.dto';
import type { LinkedItemRef, PreparedCreate } from './linked-kind';

/**
 * Venues and organizers (spec endpoints.md §5): the same rules for both kinds, given the kind.
 * Each kind's module provides one (linkedItemProviders; composition: what differs is data, in
 * LinkedKind, not overridden methods). Checks run in the spec's order: parameters (400),
 * permission (401/403), the operation's own checks.
 *
 * The rules live in three rooms, each a provider with only what it needs: `reads` (lists,
 * single reads, embedding; and the presentation the others answer with), `writes` (creates,
 * updates, the creates nested in event writes) and `deletes` (trash, and deletes for good).
 * This class is their front door, so that the routes and the other modules call one object per
 * kind; it holds no state and no rule of its own.
 */
export class LinkedItems<E extends LinkedItemEntity> {
  constructor(
    readonly reads: LinkedItemReads<E>,
    readonly writes: LinkedItemWrites<E>,
    readonly deletes: LinkedItemDeletes<E>,
  ) {}

  // ---- routes ----

  list(actor: Actor | null, q: ListLinkedItemsQueryDto, raw: Record<string, unknown>): Promise<ListPage<JsonText>> {
    return this.reads.list(actor, q, raw);
  }

  get(actor: Actor | null, ref: LinkedItemRef): Promise<Json> {
    return this.reads.get(actor, ref);
  }

  getMany(actor: Actor | null, ids: number[]): Promise<Map<number, Json>> {
    return this.reads.getMany(actor, ids);
  }

  create(actor: Actor | null, input: LinkedItemFieldsDto, raw: Record<string, unknown> = {}): Promise<Json> {
    return this.writes.create(actor, input, raw);
  }

  update(actor: Actor | null, ref: LinkedItemRef, input: LinkedItemFieldsDto, raw: Record<string, unknown> = {}, ifMatch?: string): Promise<Tagged | Json> {
    return this.writes.update(actor, ref, input, raw, ifMatch);
  }

  remove(actor: Actor | null, ref: LinkedItemRef, force = false, ifMatch?: string): Promise<Json> {
    return this.deletes.remove(actor, ref, force, ifMatch);
  }

  // ---- the seams used by event writes and event responses ----

  prepareCreate(actor: Actor | null, input: Record<string, unknown>, nested: boolean, reader: Reader): Promise<PreparedCreate> {
    return this.writes.prepareCreate(actor, input, nested, reader);
  }

  probePrepared(prepared: PreparedCreate): Promise<PreparedCreate> {
    return this.writes.probePrepared(prepared);
  }

  knownPrepared(tx: Tx, prepared: PreparedCreate): Promise<PreparedCreate> {
    return this.writes.knownPrepared(tx, prepared);
  }

  createPrepared(actor: Actor | null, prepared: PreparedCreate, tx: Tx, changes: ChangeSet): Promise<{ entity: E; reused: boolean }> {
    return this.writes.createPrepared(actor, prepared, tx, changes);
  }

  existingIds(ids: number[]): Promise<Set<number>> {
    return this.reads.existingIds(ids);
  }

  linkableIds(actor: Actor | null, ids: number[], reader: Reader): Promise<Set<number>> {
    return this.reads.linkableIds(actor, ids, reader);
  }

  embed(ids: number[], opts: { jsonLd: boolean; actor?: Actor | null }): Promise<Map<number, Json>> {
    return this.reads.embed(ids, opts);
  }
}
