// Permanent delete of an event, venue or organizer (spec beyond.md #1), the same steps for
// every kind: the kind says how to read, check, present, lock and remove its item.
import type { WpError } from '../common/errors';
import { assertIfMatch, assertUnchanged, sameRow } from '../common/http/preconditions';
import type { ChangeSet, ChangeKindName } from '../database/change-log';
import type { Tx } from '../database/tx';
import type { UnitOfWork } from '../database/unit-of-work';
import type { WriteParticipant } from '../database/write-participants';

type Json = Record<string, unknown>;

/** The answer of `DELETE …?force=true`. */
export type DeletedAnswer = { deleted: true; previous: Json };

export interface PermanentDelete<T extends { id: number }> {
  type: ChangeKindName;
  /** The item as the route found it (its permission already checked). */
  found: T;
  /**
   * The request's If-Match (beyond.md #4) and the item's single GET body for the caller (null when
   * that GET fails): a stale tag is 412, and so is a row that changed before the lock.
   */
  condition: { ifMatch: string | undefined; body(item: T): Promise<unknown> };
  /** The item read again, after another writer changed it under us: the route's not-found answer if it is gone. */
  reread(): Promise<T>;
  /** Throws unless the caller may delete this item (checked again on a reread). */
  assertMayDelete(item: T): void;
  /** The item as a single read by the caller shows it; outside the transaction (it reads the outer connection). */
  present(item: T): Promise<Json>;
  /** The row as committed now, locked until the transaction ends; null once another request deleted it. */
  lock(tx: Tx, id: number): Promise<T | null>;
  /** The route's answer for an unknown id or slug (a concurrent delete came first). */
  gone(): WpError;
  /** Deletes the item and everything keyed by its id, inside `tx`. */
  remove(tx: Tx, item: T, changes: ChangeSet): Promise<void>;
  /** Participants its caller declares for the delete's unit of work (UnitOfWork.run), as for its other writes. */
  participants?: readonly WriteParticipant[];
}

/** How often the item is read and presented again when a concurrent write changed it in between. */
const FRESH_ATTEMPTS = 3;

class ChangedMeanwhile extends Error {}

/**
 * Presents the item, then deletes it in one unit of work. `previous` must be the item as it was
 * just before the delete, but presenting reads the outer connection, which a write may not do:
 * so the row locked inside the write is compared with the row presented, and when a concurrent
 * write changed it in between, the whole delete starts again from a fresh read (the last attempt
 * keeps what it presented). A concurrent delete that came first answers like an unknown item.
 */
export async function deleteForGood<T extends { id: number }>(unitOfWork: UnitOfWork, op: PermanentDelete<T>): Promise<DeletedAnswer> {
  let item = op.found;
  const { ifMatch } = op.condition;
  await assertIfMatch(ifMatch, () => op.condition.body(item));
  for (let attempt = 1; ; attempt++) {
    const previous = await op.present(item);
    const seen = item;
    try {
      await unitOfWork.run(async (tx, changes) => {
        const current = await op.lock(tx, seen.id);
        if (!current) throw op.gone();
        // Under If-Match the client's tag named the row checked above: a change since is 412, not a retry.
        assertUnchanged(ifMatch, seen, current);
        if (attempt < FRESH_ATTEMPTS && !sameRow(current, seen)) throw new ChangedMeanwhile();
        changes.record(op.type, seen.id);
        await op.remove(tx, current, changes);
      }, op.participants);
      return { deleted: true, previous };
    } catch (err) {
      if (!(err instanceof ChangedMeanwhile)) throw err;
      item = await op.reread();
      op.assertMayDelete(item);
    }
  }
}
