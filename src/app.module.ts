import { DynamicModule, Logger, Module, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheModule } from './common/cache/cache.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { causalReadsOnGalera } from './database/galera';
import { runMigrationsExclusively } from './database/migration-lock';
import { serializeSqliteTransactions } from './database/sqlite-transactions';
import { IndexModule } from './index/index.module';
import { PostsModule } from './posts';
import { schemaDataSourceOptions } from './schema';
import { TaxonomiesModule } from './taxonomies/taxonomies.module';
import { UsersModule } from './users';
import { EventsModule } from './events';
import { SyncModule } from './sync';
import { GeoModule } from './geo/geo.module';
import { MediaModule } from './media';
import { OrganizersModule } from './organizers';
import { VenuesModule } from './venues';
import { PagesModule } from './pages';
import { OpsModule } from './ops';
import { RecurrenceModule } from './recurrence';

/**
 * The modular monolith: one module per resource. Optional features (the geo extension) are
 * registered here, at the edge, from configuration.
 */
@Module({})
export class AppModule {
  /** `extraModules`: modules loaded after the service's own (an extension under test, test/e2e/extension-api). */
  static forRoot(config: AppConfig, extraModules: readonly (Type<unknown> | DynamicModule)[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          // main.ts waits for a database that is down before the app starts; a failure here
          // (a migration, a refused login) is final and said once.
          useFactory: () => ({ ...schemaDataSourceOptions(config), retryAttempts: 1 }),
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
        OpsModule.forRoot(config),
        UsersModule,
        PostsModule,
        MediaModule,
        IndexModule,
        TaxonomiesModule,
        VenuesModule,
        OrganizersModule,
        EventsModule,
        SyncModule,
        // Optional features are registered here, from configuration, and nowhere else.
        ...(config.geo ? [GeoModule] : []),
        ...(config.recurrence ? [RecurrenceModule] : []),
        ...(config.pages ? [PagesModule] : []),
        ...extraModules,
      ],
    };
  }
}
