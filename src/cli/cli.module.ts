import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { FeatureDeclarationsModule } from '../database/feature-declarations.module';
import { CacheModule } from '../common/cache/cache.module';
import type { Feature } from '../common/feature/feature';
import { ChangeKinds } from '../database/change-kinds';
import { readOnlyDataSourceOptions } from '../database/data-source-options';
import { Dialect } from '../database/dialect';
import { UnitOfWork } from '../database/unit-of-work';
import { WriteParticipants } from '../database/write-participants';
import { schemaDataSourceOptions } from '../schema';
import { WebhookOutbox } from '../sync';
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
   * `features`: the installed features (src/features.ts), which cli.ts passes in: their schema
   * and migrations, change kinds and caches.
   * `readsOnly`: the command only reads the database (readOnlyDataSourceOptions).
   */
  static forRoot(
    config: AppConfig,
    { migrate, features, readsOnly = false }: { migrate: boolean; features: readonly Feature[]; readsOnly?: boolean },
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
      ],
      providers: [
        { provide: Dialect, inject: [DataSource], useFactory: (db: DataSource) => Dialect.of(db) },
        UnitOfWork,
        WriteParticipants,
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
          inject: [
            DataSource,
            PostsService,
            EventsRepository,
            VenuesRepository,
            OrganizersRepository,
            TermsRepository,
            UsersService,
            SeedRepository,
            ChangeKinds,
          ],
          useFactory: (
            db: DataSource,
            posts: PostsService,
            events: EventsRepository,
            venues: VenuesRepository,
            organizers: OrganizersRepository,
            terms: TermsRepository,
            users: UsersService,
            reads: SeedRepository,
            kinds: ChangeKinds,
          ) => new Seeder({ db, posts, events, venues, organizers, terms, users, reads, kinds }, (label, total) => new Progress(label, total)),
        },
      ],
    };
  }
}
