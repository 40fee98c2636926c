import { DynamicModule, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheModule } from './common/cache/cache.module';
import { type Feature, featureModules } from './common/feature/feature';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { FeatureDeclarationsModule } from './database/feature-declarations.module';
import { DatabaseModule } from './database/database.module';
import { causalReadsOnGalera } from './database/galera';
import { runMigrationsExclusively } from './database/migration-lock';
import { serializeSqliteTransactions } from './database/sqlite-transactions';
import { installedFeatures } from './features';
import { schemaDataSourceOptions } from './schema';

/**
 * The modular monolith: the infrastructure, then the modules of the installed features that
 * are on with this configuration (src/features.ts: the core's and the extensions found;
 * a feature with a switch says when it is on). Every feature's tables are in the schema whether
 * it is on or off. A test app may pass its own list of features.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, features: readonly Feature[] = installedFeatures()): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        FeatureDeclarationsModule.forRoot(config, features),
        TypeOrmModule.forRootAsync({
          // main.ts waits for a database that is down before the app starts; a failure here
          // (a migration, a refused login) is final and said once.
          useFactory: () => ({ ...schemaDataSourceOptions(config, features), retryAttempts: 1 }),
          dataSourceFactory: async (options) => {
            const ds = await new DataSource(options!).initialize();
            await causalReadsOnGalera(ds);
            if (config.migrate) {
              const log = new Logger('Migrations');
              await runMigrationsExclusively(ds, { onWait: (holder) => log.log(`waiting for ${holder} to finish applying migrations`) });
            }
            return serializeSqliteTransactions(ds);
          },
        }),
        DatabaseModule,
        CacheModule,
        ...featureModules(features, config),
      ],
    };
  }
}
