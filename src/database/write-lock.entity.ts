import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Named locks for rules no unique index can state (the duplicate reuse of venues and organizers,
 * spec endpoints.md §5.2): a writer locks the row of a name for the rest of its transaction
 * (Dialect.lockName). One small row per name ever locked.
 */
@Entity({ name: 'write_locks' })
export class WriteLockEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 100 })
  name: string;

  /**
   * Raised by every taker. The write makes the lock a row the transaction really changed: a
   * Galera cluster certifies only changed rows (a lock alone is not seen by the other nodes),
   * so two writers of one name through different nodes cannot both commit.
   */
  @Column({ name: 'taken', type: 'int', default: 0 })
  taken: number;
}
