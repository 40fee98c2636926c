import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source-options';
import { serializeSqliteTransactions } from '../sqlite-transactions';

/** A migrated in-memory SQLite for query-level tests (filters against real rows, no HTTP). */
export async function memoryDataSource(): Promise<DataSource> {
  const ds = await new DataSource(dataSourceOptions({ database: { kind: 'sqlite', file: ':memory:' } })).initialize();
  await ds.runMigrations({ transaction: 'each' });
  return serializeSqliteTransactions(ds);
}
