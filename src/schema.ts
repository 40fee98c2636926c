import type { DataSourceOptions } from 'typeorm';
import type { Feature } from './common/feature/feature';
import type { AppConfig } from './config/app-config';
import { ChangeCounterEntity, ChangeEntity } from './database/change-log';
import { dataSourceOptions, type SchemaParts } from './database/data-source-options';
import { WriteLockEntity } from './database/write-lock.entity';
import { FEATURES, installedFeatures } from './features';

/**
 * The schema of a list of features: every feature's entities (on or off: one schema for all)
 * after the database layer's own, and their migrations per engine, which dataSourceOptions
 * merges with the core's frozen history in timestamp order.
 */
export function schemaOf(features: readonly Feature[]): SchemaParts {
  return {
    entities: [ChangeEntity, ChangeCounterEntity, WriteLockEntity, ...features.flatMap((f) => f.entities ?? [])],
    migrations: {
      sqlite: features.flatMap((f) => f.migrations?.sqlite ?? []),
      mysql: features.flatMap((f) => f.migrations?.mysql ?? []),
    },
  };
}

/** The installed features' schema. */
export const SCHEMA = schemaOf(FEATURES);

/** Every entity of the installed features' schema; migrations are generated from this list. */
export const ENTITIES = SCHEMA.entities;

/**
 * The connection options of the features' schema: the server, the CLI and ormconfig.ts all open
 * it so. Default: the installed features (the core's and the extensions in extensions/).
 */
export function schemaDataSourceOptions(config: Pick<AppConfig, 'database'>, features: readonly Feature[] = installedFeatures()): DataSourceOptions {
  return dataSourceOptions(config, schemaOf(features));
}
