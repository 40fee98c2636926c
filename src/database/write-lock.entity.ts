import { Entity, PrimaryColumn } from 'typeorm';

/**
 * Named locks for rules no unique index can state (the duplicate reuse of venues and organizers,
 * spec endpoints.md §5.2): a writer locks the row of a name for the rest of its transaction
 * (Dialect.lockName). One small row per name ever locked.
 */
@Entity({ name: 'write_locks' })
export class WriteLockEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 100 })
  name: string;
}
