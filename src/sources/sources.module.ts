import { Module } from '@nestjs/common';
import { MetricsModule } from '../common/metrics';
import { EventsModule } from '../events';
import { IcsSeriesHooksModule, ImportedRecordsRepository, ImportWriter, LocalRecords } from '../imports';
import { OrganizersModule } from '../organizers';
import { PostsModule } from '../posts';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { VenuesModule } from '../venues';
import { SourceEventListHook } from './source-event-list.hook';
import { SourcesApiDoc } from './sources-api-doc';
import { SourceItemsRepository } from './source-items.repository';
import { SourceRunner } from './source-runner';
import { SourceRunsRepository } from './source-runs.repository';
import { SourceWorker } from './source-worker';
import { SourcesController } from './sources.controller';
import { SourcesRepository } from './sources.repository';
import { SourcesService } from './sources.service';

/**
 * Sources (sources.md): the routes, the worker that runs them in every instance, and the
 * `source` parameter of GET /events and what /doc says of it (hooks). Runs write through
 * the importers' ImportWriter, as `import:tec` and `import:ics` do.
 */
@Module({
  imports: [MetricsModule, EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule, UsersModule, PostsModule, IcsSeriesHooksModule],
  controllers: [SourcesController],
  providers: [
    SourcesService,
    SourceRunner,
    SourceWorker,
    SourceEventListHook,
    SourcesApiDoc,
    SourcesRepository,
    SourceRunsRepository,
    SourceItemsRepository,
    ImportWriter,
    LocalRecords,
    ImportedRecordsRepository,
  ],
  exports: [SourcesService, SourceRunner],
})
export class SourcesModule {}
