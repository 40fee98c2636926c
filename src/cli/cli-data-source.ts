import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import { Dialect } from '../database/dialect';
import { causalReadsOnGalera } from '../database/galera';
import { runMigrationsExclusively } from '../database/migration-lock';

/**
 * The CLI's connection (the data source factory of CliModule): the app's options, reopened as
 * `mariadb` when a mysql:// URL reaches a MariaDB server, then with pending migrations applied
 * when `migrate` says so (one instance at a time, like the server).
 *
 * No serializeSqliteTransactions here: the CLI is one sequential caller, as it always was.
 */
export async function openCliDataSource(options: DataSourceOptions, migrate: boolean): Promise<DataSource> {
  const dataSource = await withServerFlavour(await new DataSource(options).initialize());
  try {
    await causalReadsOnGalera(dataSource);
    if (migrate) await applyMigrations(dataSource);
    return dataSource;
  } catch (err) {
    await dataSource.destroy().catch(() => undefined);
    throw err;
  }
}

/**
 * TypeORM reads MariaDB's column metadata differently from MySQL's (defaults of nullable
 * columns), and only knows which one it talks to from the `type` option. Schema comparisons
 * (migration:generate/check) must use the right one, so a mysql:// URL that reaches a MariaDB
 * server is reopened as `mariadb`.
 */
async function withServerFlavour(dataSource: DataSource): Promise<DataSource> {
  if (dataSource.options.type !== 'mysql' || !(await Dialect.of(dataSource).isMariaDbServer(dataSource))) return dataSource;
  await dataSource.destroy();
  return new DataSource({ ...dataSource.options, type: 'mariadb' } as DataSourceOptions).initialize();
}

/** Applies pending migrations under the lock the server takes too; returns those applied. */
export function applyMigrations(dataSource: DataSource) {
  const log = new Logger('Migrations');
  return runMigrationsExclusively(dataSource, { onWait: (holder) => log.log(`waiting for ${holder} to finish applying migrations`) });
}
