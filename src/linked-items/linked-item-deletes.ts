import { Actor, canDelete } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { forbidden } from '../common/errors';
import { assertIfMatch, assertUnchanged } from '../common/http/preconditions';
import type { LinkedItemReads } from './linked-item-reads';
import type { Json, LinkedItemEntity } from './linked-items';
import { type LinkedItemRef, type LinkedItemsParts, type LinkedKind, storing } from './linked-kind';
import { type DeletedAnswer, deleteForGood, effectiveStatus } from '../items';

/** What is deleted of venues and organizers (spec endpoints.md §5.3 DELETE, beyond.md #1): to the trash, or for good. */
export class LinkedItemDeletes<E extends LinkedItemEntity> {
  constructor(
    private readonly kind: LinkedKind<E>,
    private readonly reads: LinkedItemReads<E>,
    private readonly parts: Pick<LinkedItemsParts<E>, 'repo' | 'posts' | 'hooks' | 'unitOfWork'>,
  ) {}

  /**
   * DELETE (§5.3): unknown → 400, right to delete → already trashed 410 → trash and unlink.
   * With `force` (beyond.md #1) deleted for good instead, from the trash too.
   */
  async remove(actor: Actor | null, ref: LinkedItemRef, force = false, ifMatch?: string): Promise<Json> {
    const item = await this.reads.require(ref);
    if (!canDelete(actor, item)) throw forbidden(actor !== null);
    if (force) return storing(this.kind.errors.couldNotDelete, () => this.deleteForGood(actor, ref, item, ifMatch));
    if (item.status === 'trash') throw this.kind.errors.inTrash();
    await assertIfMatch(ifMatch, () => this.reads.singleBody(actor, item));
    const nowUtc = nowUtcSql();
    const trashed = await storing(this.kind.errors.couldNotDelete, () =>
      this.parts.unitOfWork.run(async (tx, changes) => {
        changes.record(this.kind.type, item.id);
        const current = await this.parts.repo.findForUpdate(item.id, tx);
        if (!current) throw this.reads.unknown(ref); // deleted for good meanwhile
        assertUnchanged(ifMatch, item, current);
        if (current.status === 'trash') throw this.kind.errors.inTrash(); // a concurrent delete came first
        await this.parts.hooks.deleting(tx, current, { actor, force: false, changes });
        return this.parts.repo.trash(current, effectiveStatus(current.status, current.dateUtc, nowUtc), nowUtc, tx);
      }),
    );
    return this.reads.presentOne(trashed, false);
  }

  /**
   * The item, its links from events (the events stay, without it), the hooks' data and its
   * id, for good. `previous`: the item as the caller's single read shows it (with json_ld).
   */
  private deleteForGood(actor: Actor | null, ref: LinkedItemRef, found: E, ifMatch: string | undefined): Promise<DeletedAnswer> {
    return deleteForGood(this.parts.unitOfWork, {
      type: this.kind.type,
      found,
      condition: { ifMatch, body: (item) => this.reads.singleBody(actor, item) },
      reread: () => this.reads.require(ref),
      assertMayDelete: (item) => {
        if (!canDelete(actor, item)) throw forbidden(actor !== null);
      },
      present: (item) => this.reads.presentOne(item, true),
      lock: (tx, id) => this.parts.repo.findForUpdate(id, tx),
      gone: () => this.reads.unknown(ref),
      remove: async (tx, item, changes) => {
        await this.parts.hooks.deleting(tx, item, { actor, force: true, changes });
        await this.parts.repo.remove(item.id, tx);
        await this.parts.posts.release(item.id, tx);
      },
    });
  }
}
