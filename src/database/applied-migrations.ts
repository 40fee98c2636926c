import type { DataSource } from 'typeorm';

/**
 * The names of the migrations recorded as applied in the database's migrations table; only
 * reads. A database never migrated has no such table: `missingTable: 'none'` answers an empty
 * set then (the CLI's migration:show and migration:check), `'fail'` lets the read fail as any
 * other would (the readiness check says the table cannot be read).
 */
export async function appliedMigrations(ds: DataSource, missingTable: 'none' | 'fail'): Promise<Set<string>> {
  const table = ds.options.migrationsTableName ?? 'migrations';
  if (missingTable === 'none') {
    const runner = ds.createQueryRunner();
    try {
      if (!(await runner.hasTable(table))) return new Set();
    } finally {
      await runner.release();
    }
  }
  const rows = (await ds.query(`SELECT name FROM ${table}`)) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** The names of the migrations this build knows, in the order they apply. */
export function knownMigrations(ds: DataSource): string[] {
  return ds.migrations.map((m) => m.name ?? m.constructor.name);
}
