import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { dataSourceOptions } from '../database/data-source-options';
import { Dialect } from '../database/dialect';
import { EventsRepository } from '../events/events.repository';
import { OrganizersRepository } from '../organizers/organizers.repository';
import { PostsService } from '../posts';
import { Progress } from '../seed/progress';
import { SeedRepository } from '../seed/seed.repository';
import { Seeder } from '../seed/seeder';
import { TermsRepository } from '../taxonomies/taxonomies.repository';
import { UsersService } from '../users/users.service';
import { VenuesRepository } from '../venues/venues.repository';
import { openCliDataSource } from './cli-data-source';

/**
 * The providers the commands use, on the app's connection options and the one validated
 * AppConfig. The feature modules are not imported whole: their start hooks belong to the
 * server (BootstrapAdminService creates the configured administrator, the caches and the
 * scheduled-event poll read tables that migration:revert may just have dropped).
 */
@Module({})
export class CliModule {
  /** `migrate`: apply pending migrations while the context starts (false for migration:*). */
  static forRoot(config: AppConfig, { migrate }: { migrate: boolean }): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRootAsync({
          // One try: a database that is down is said at once, in one line (src/cli.ts).
          useFactory: () => ({ ...dataSourceOptions(config), retryAttempts: 1 }),
          dataSourceFactory: (options) => openCliDataSource(options!, migrate),
        }),
      ],
      providers: [
        { provide: Dialect, inject: [DataSource], useFactory: (db: DataSource) => Dialect.of(db) },
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
