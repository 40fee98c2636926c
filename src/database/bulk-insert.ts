import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

/**
 * Bound values per statement. SQLite refuses more than 32,766 (SQLITE_MAX_VARIABLE_NUMBER of the
 * bundled library); MySQL/MariaDB have no such limit through mysql2 (values are inlined), but
 * a statement must fit in max_allowed_packet (16 MB by default on MariaDB, 64 MB on MySQL 8).
 */
const MAX_BOUND_VALUES = 30_000;
/** Rows per statement whatever their width: 1,000 events (the widest rows, ~1.5 KB) stay near 1.5 MB. */
const MAX_ROWS = 1_000;

/**
 * Inserts rows with multi-row INSERT statements sized for both engines, in the caller's
 * transaction. Nothing is read back (no reload of generated columns).
 */
export async function insertInChunks<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = manager.connection.getMetadata(target).columns.length;
  const perStatement = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_BOUND_VALUES / columns)));
  for (let i = 0; i < rows.length; i += perStatement) {
    await manager
      .createQueryBuilder()
      .insert()
      .into(target)
      .values(rows.slice(i, i + perStatement))
      .updateEntity(false)
      .execute();
  }
}
