import { DynamicModule, Module } from '@nestjs/common';
import { EventsModule } from '../events';
import { OrganizersModule } from '../organizers';
import { PostsModule } from '../posts';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { VenuesModule } from '../venues';
import { IcsSeriesHooksModule } from './ics-series-hooks';
import { ImportedRecordsRepository } from './imported-records.repository';
import { ImportWriter } from './import-writer';
import { LocalRecords } from './local-records';

/**
 * The importers' application context: the whole service as the server runs it (`app`, the
 * AppModule the composition root gives: every feature module, the connection with migrations
 * applied, the caches and the unit of work) — the CLI's own context loads no feature module —
 * plus ImportWriter, which writes through the features' services (LocalRecords). No HTTP server is started.
 */
@Module({})
export class ImportModule {
  static forRoot(app: DynamicModule): DynamicModule {
    return {
      module: ImportModule,
      // The feature modules again, by name: they are the same instances AppModule loads, listed
      // so that their exported services can be injected here.
      imports: [app, EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule, UsersModule, PostsModule, IcsSeriesHooksModule],
      providers: [ImportedRecordsRepository, ImportWriter, LocalRecords],
    };
  }
}
