import { Column, Entity, EntityManager, Index, PrimaryGeneratedColumn } from 'typeorm';

/** What a change is about: the kinds of sync.md, or `bulk` for a write that may touch anything (seed, recount). */
export type ChangeType = 'event' | 'venue' | 'organizer' | 'category' | 'tag' | 'bulk';

/**
 * The change log: one row per item a committed write changed, in the write's own transaction.
 * It is the seam of sync.md's change feed and webhooks, and what instances sharing the database
 * watch to know that their read caches are out of date (DataVersion). Rows are only ever
 * inserted: writers on different nodes of a cluster never update a row in common.
 */
@Entity({ name: 'changes' })
@Index('ix_changes_item', ['type', 'itemId'])
export class ChangeEntity {
  @PrimaryGeneratedColumn({ name: 'seq' })
  seq: number;

  @Column({ name: 'type', type: 'varchar', length: 16 })
  type: string;

  @Column({ name: 'item_id', type: 'int' })
  itemId: number;

  @Column({ name: 'changed_utc', type: 'varchar', length: 19 })
  changedUtc: string;
}

/** The items one write changed, collected while it runs and written just before its commit. */
export class ChangeSet {
  private readonly items = new Map<string, { type: ChangeType; id: number }>();

  /** `id` of `type` was created, changed or removed by this write. */
  record(type: ChangeType, id: number): void {
    this.items.set(`${type}:${id}`, { type, id });
  }

  /** The recorded items; a write that named none counts as a `bulk` change. */
  entries(): { type: ChangeType; id: number }[] {
    return this.items.size > 0 ? [...this.items.values()] : [{ type: 'bulk', id: 0 }];
  }
}

/** Writes the change rows of `changes` inside `tx`. */
export async function appendChanges(tx: EntityManager, changes: ChangeSet, changedUtc: string): Promise<void> {
  const rows = changes.entries();
  const values = rows.map(() => '(?, ?, ?)').join(', ');
  await tx.query(
    `INSERT INTO changes (type, item_id, changed_utc) VALUES ${values}`,
    rows.flatMap((r) => [r.type, r.id, changedUtc]),
  );
}
