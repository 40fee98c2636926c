import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
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
 *
 * The statement is written straight from the entity's column metadata, values converted by the
 * driver as the ORM would (booleans to 1/0 and so on): the query builder spends more time
 * composing a single-row insert than the database spends running it, and every event write
 * and the seed's bulk load go through here. The columns are those the first row sets; rows
 * that set others go through the query builder, which fills defaults for what they leave out.
 */
export async function insertInChunks<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
): Promise<void> {
  if (rows.length === 0) return;
  const metadata = manager.connection.getMetadata(target);
  const driver = manager.connection.driver;
  const columns = setColumns(metadata.columns, rows[0] as ObjectLiteral);
  // Relation properties and rows that set other columns are left to the query builder.
  const plain =
    columns.length > 0 &&
    columns.every((c) => c.relationMetadata === undefined) &&
    rows.every((row) => sameList(setColumns(metadata.columns, row as ObjectLiteral), columns));
  const perStatement = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_BOUND_VALUES / Math.max(1, metadata.columns.length))));
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    if (!plain) {
      await manager.createQueryBuilder().insert().into(target).values(chunk).updateEntity(false).execute();
      continue;
    }
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const sql = `INSERT INTO ${driver.escape(metadata.tablePath)} (${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`;
    const params: unknown[] = [];
    for (const row of chunk as ObjectLiteral[]) {
      for (const column of columns) params.push(driver.preparePersistentValue(row[column.propertyName], column));
    }
    await manager.query(sql, params);
  }
}

/** The columns a row gives a value (null included: it is written as NULL). */
function setColumns(all: ColumnMetadata[], row: ObjectLiteral): ColumnMetadata[] {
  return all.filter((c) => row[c.propertyName] !== undefined);
}

function sameList<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
