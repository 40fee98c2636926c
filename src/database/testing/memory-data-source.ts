import { DataSource } from 'typeorm';
import { dataSourceOptions, type SchemaParts } from '../data-source-options';
import { serializeSqliteTransactions } from '../sqlite-transactions';

/**
 * A migrated in-memory SQLite for query-level tests (filters against real rows, no HTTP), with
 * the given schema (the installed features': SCHEMA of src/schema.ts).
 */
export async function memoryDataSource(schema: SchemaParts): Promise<DataSource> {
  const ds = await new DataSource(dataSourceOptions({ database: { kind: 'sqlite', file: ':memory:' } }, schema)).initialize();
  await ds.runMigrations({ transaction: 'each' });
  return serializeSqliteTransactions(ds);
}
