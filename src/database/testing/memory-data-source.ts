import { DataSource, DataSourceOptions } from 'typeorm';
import { dataSourceOptions } from '../data-source-options';
import { serializeSqliteTransactions } from '../sqlite-transactions';

/**
 * A migrated in-memory SQLite for query-level tests (filters against real rows, no HTTP), with
 * the given entities (the schema's: ENTITIES of src/schema.ts).
 */
export async function memoryDataSource(entities: DataSourceOptions['entities']): Promise<DataSource> {
  const ds = await new DataSource(dataSourceOptions({ database: { kind: 'sqlite', file: ':memory:' } }, entities)).initialize();
  await ds.runMigrations({ transaction: 'each' });
  return serializeSqliteTransactions(ds);
}
