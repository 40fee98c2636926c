import { DynamicModule, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { FeatureDeclarationsModule } from '../database/feature-declarations.module';
import { CacheModule } from '../common/cache/cache.module';
import type { Feature } from '../common/feature/feature';
import { readOnlyDataSourceOptions } from '../database/data-source-options';
import { Dialect } from '../database/dialect';
import { UnitOfWork } from '../database/unit-of-work';
import { WriteParticipants } from '../database/write-participants';
import { schemaDataSourceOptions } from '../schema';
import { WebhookOutbox, WebhooksRepository } from '../sync';
import { openCliDataSource } from './cli-data-source';

/**
 * The CLI's own context: the app's connection options and the one validated AppConfig, the
 * unit of work, and the providers the command declares (CliCommand.providers: its feature's
 * services). The feature modules are not imported whole: their start hooks belong to the
 * server (BootstrapAdminService creates the configured administrator, the caches and the
 * scheduled-event poll read tables that migration:revert may just have dropped).
 */
@Module({})
export class CliModule {
  /**
   * `migrate`: apply pending migrations while the context starts (false for migration:*).
   * `features`: the installed features (src/features.ts), which cli.ts passes in: their schema
   * and migrations, change kinds and caches.
   * `readsOnly`: the command only reads the database (readOnlyDataSourceOptions).
   * `providers`: what the command needs besides (CliCommand.providers).
   */
  static forRoot(
    config: AppConfig,
    {
      migrate,
      features,
      readsOnly = false,
      providers = [],
    }: { migrate: boolean; features: readonly Feature[]; readsOnly?: boolean; providers?: readonly Provider[] },
  ): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        FeatureDeclarationsModule.forRoot(config, features),
        TypeOrmModule.forRootAsync({
          // One try: a database that is down is said at once, in one line (src/cli.ts).
          useFactory: () => {
            const options = { ...schemaDataSourceOptions(config, features), retryAttempts: 1 };
            return readsOnly ? readOnlyDataSourceOptions(options) : options;
          },
          dataSourceFactory: (options) => openCliDataSource(options!, migrate),
        }),
        // The unit of work (cache:flush) and the read model it moves; nothing reads through them here.
        CacheModule,
        // The unit of work finds its participants (the webhook outbox below) by their @Hook.
        DiscoveryModule,
      ],
      providers: [
        { provide: Dialect, inject: [DataSource], useFactory: (db: DataSource) => Dialect.of(db) },
        UnitOfWork,
        WriteParticipants,
        // Writes of the CLI (user:delete's reassignments) queue webhook deliveries like any write.
        WebhookOutbox,
        WebhooksRepository,
        ...providers,
      ],
    };
  }
}
