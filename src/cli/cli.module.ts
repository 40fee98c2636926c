import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { CacheModule } from '../common/cache/cache.module';
import { dataSourceOptions, readOnlyDataSourceOptions } from '../database/data-source-options';
import { Dialect } from '../database/dialect';
import { UnitOfWork } from '../database/unit-of-work';
import { WebhookOutbox } from '../database/webhook-outbox';
import { EventsRepository } from '../events';
import { OrganizersRepository } from '../organizers';
import { PostsService } from '../posts';
import { Progress, SeedRepository, Seeder } from '../seed';
import { TermsRepository } from '../taxonomies';
import { UsersService } from '../users';
import { VenuesRepository } from '../venues';
import { openCliDataSource } from './cli-data-source';

/**
 * The providers the commands use, on the app's connection options and the one validated
 * AppConfig. The feature modules are not imported whole: their start hooks belong to the
 * server (BootstrapAdminService creates the configured administrator, the caches and the
 * scheduled-event poll read tables that migration:revert may just have dropped).
 */
@Module({})
export class CliModule {
  /**
   * `migrate`: apply pending migrations while the context starts (false for migration:*).
   * `entities`: the schema's entities (src/schema.ts), which cli.ts passes in.
   * `readsOnly`: the command only reads the database (readOnlyDataSourceOptions).
   */
  static forRoot(
    config: AppConfig,
    { migrate, entities, readsOnly = false }: { migrate: boolean; entities: DataSourceOptions['entities']; readsOnly?: boolean },
  ): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          // One try: a database that is down is said at once, in one line (src/cli.ts).
          useFactory: () => {
            const options = { ...dataSourceOptions(config, entities), retryAttempts: 1 };
            return readsOnly ? readOnlyDataSourceOptions(options) : options;
          },
          dataSourceFactory: (options) => openCliDataSource(options!, migrate),
        }),
        // The unit of work (cache:flush) and the read model it moves; nothing reads through them here.
        CacheModule,
      ],
      providers: [
        { provide: Dialect, inject: [DataSource], useFactory: (db: DataSource) => Dialect.of(db) },
        UnitOfWork,
        // Writes of the CLI (user:delete's reassignments) queue webhook deliveries like any write.
        WebhookOutbox,
        UsersService,
        PostsService,
        EventsRepository,
        VenuesRepository,
        OrganizersRepository,
        TermsRepository,
        { provide: SeedRepository, inject: [DataSource], useFactory: (db: DataSource) => new SeedRepository(db) },
        {
          provide: Seeder,
          inject: [DataSource, PostsService, EventsRepository, VenuesRepository, OrganizersRepository, TermsRepository, UsersService, SeedRepository],
          useFactory: (
            db: DataSource,
            posts: PostsService,
            events: EventsRepository,
            venues: VenuesRepository,
            organizers: OrganizersRepository,
            terms: TermsRepository,
            users: UsersService,
            reads: SeedRepository,
          ) => new Seeder({ db, posts, events, venues, organizers, terms, users, reads }, (label, total) => new Progress(label, total)),
        },
      ],
    };
  }
}
