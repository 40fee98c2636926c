import { existsSync } from 'node:fs';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { MYSQL_MIGRATIONS } from './migrations/mysql';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';

/* eslint-disable @typescript-eslint/no-unsafe-function-type -- entity and migration classes are classes of any shape */

/** What the features bring to the schema (src/schema.ts composes it; database/ imports no feature). */
export interface SchemaParts {
  readonly entities: Function[];
  /** The features' own migrations per engine, beyond the core's frozen history (./migrations). */
  readonly migrations: { readonly sqlite: readonly Function[]; readonly mysql: readonly Function[] };
}

/** A migration's timestamp: the digits that end its class name (`EventSearch1795363413942`). */
export function migrationTimestamp(migration: Function): number {
  const digits = /(\d{13,})$/.exec(migration.name)?.[1];
  if (digits === undefined) throw new Error(`migrations: ${migration.name} has no timestamp at the end of its name`);
  return Number(digits);
}

/** The core's migrations and the features', in timestamp order (a stable sort: the core's first on a tie). */
export function mergeMigrations(core: readonly Function[], features: readonly Function[]): Function[] {
  return [...core, ...features].sort((a, b) => migrationTimestamp(a) - migrationTimestamp(b));
}

/**
 * The one definition of the connection, used by the app AND by ormconfig.ts / the CLI, for the
 * schema of the installed features (`schema`).
 */
export function dataSourceOptions(config: Pick<AppConfig, 'database'>, schema: SchemaParts): DataSourceOptions {
  const common = {
    entities: schema.entities,
    synchronize: false,
    // Never TypeORM's own run at initialisation: runMigrationsExclusively applies them, one
    // instance at a time (migration-lock.ts).
    migrationsRun: false,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each' as const,
    logging: false,
  };
  const db = config.database;
  if (db.kind === 'sqlite') {
    return {
      ...common,
      type: 'better-sqlite3',
      database: db.file,
      migrations: mergeMigrations(SQLITE_MIGRATIONS, schema.migrations.sqlite),
      // Prepared statements kept per query runner (TypeORM's default is 100, first in first
      // out): id lists of every length make more distinct texts than that, and the mixed list
      // scenario prepared ~3,000 statements in 5 s (~60 µs each) as they pushed each other out.
      // 500 hold that scenario's set (5 prepared in 5 s), at up to ~25 kB of SQLite memory each.
      statementCacheSize: 500,
      prepareDatabase: (conn: { pragma(s: string): unknown }) => {
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        if (db.file !== ':memory:') {
          conn.pragma('journal_mode = WAL');
          conn.pragma('synchronous = NORMAL');
          // Table statistics let the planner start a filtered list from the small side (a
          // category's events) instead of the whole date range; bounded so start-up stays fast.
          conn.pragma('analysis_limit = 1000');
          conn.pragma('optimize = 0x10002');
        }
      },
    };
  }
  return {
    ...common,
    type: 'mysql',
    url: db.url,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: false,
    extra: { connectionLimit: 10 },
    migrations: mergeMigrations(MYSQL_MIGRATIONS, schema.migrations.mysql),
  };
}

/**
 * `options` for a caller that only reads (migration:check): a SQLite file is opened read-only,
 * without the pragmas that write to it (journal mode, statistics), and a file that does not
 * exist is read as the empty database it would be, without being created. A MySQL/MariaDB
 * connection writes nothing by opening, and is left as it is.
 */
export function readOnlyDataSourceOptions<T extends DataSourceOptions>(options: T): T {
  if (options.type !== 'better-sqlite3' || options.database === ':memory:') return options;
  if (!existsSync(options.database)) return { ...options, database: ':memory:' };
  return {
    ...options,
    readonly: true,
    fileMustExist: true,
    prepareDatabase: (conn: { pragma(s: string): unknown }) => {
      conn.pragma('foreign_keys = ON');
      conn.pragma('busy_timeout = 5000');
    },
  };
}
