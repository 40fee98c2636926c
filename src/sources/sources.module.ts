import { Module, OnModuleInit } from '@nestjs/common';
import { IcsSeriesHooksModule } from '../common/ical/ics-series-hooks';
import { MetricsModule } from '../common/metrics';
import { EventListExtensions, EventsModule } from '../events';
import { ImportedRecordsRepository, ImportWriter, LocalRecords } from '../imports';
import { ApiDocExtensions, IndexModule } from '../index';
import { OrganizersModule } from '../organizers';
import { PostsModule } from '../posts';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { VenuesModule } from '../venues';
import { SourceEventListExtension } from './source-event-list.extension';
import { documentSources } from './sources-api-doc';
import { SourceItemsRepository } from './source-items.repository';
import { SourceRunner } from './source-runner';
import { SourceRunsRepository } from './source-runs.repository';
import { SourceWorker } from './source-worker';
import { SourcesController } from './sources.controller';
import { SourcesRepository } from './sources.repository';
import { SourcesService } from './sources.service';

/**
 * Sources (sources.md): the routes, the worker that runs them in every instance, and the
 * `source` parameter of GET /events (through the public EventListExtensions). Runs write through
 * the importers' ImportWriter, as `import:tec` and `import:ics` do.
 */
@Module({
  imports: [IndexModule, MetricsModule, EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule, UsersModule, PostsModule, IcsSeriesHooksModule],
  controllers: [SourcesController],
  providers: [
    SourcesService,
    SourceRunner,
    SourceWorker,
    SourceEventListExtension,
    SourcesRepository,
    SourceRunsRepository,
    SourceItemsRepository,
    ImportWriter,
    LocalRecords,
    ImportedRecordsRepository,
  ],
  exports: [SourcesService, SourceRunner],
})
export class SourcesModule implements OnModuleInit {
  constructor(
    private readonly listExtensions: EventListExtensions,
    private readonly bySource: SourceEventListExtension,
    docs: ApiDocExtensions,
  ) {
    // Now, not in onModuleInit: the document is built when the app is set up, before its init.
    docs.register(documentSources);
  }

  onModuleInit(): void {
    this.listExtensions.register(this.bySource);
  }
}
