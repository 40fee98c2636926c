import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CacheModule } from '../common/cache/cache.module';
import { MediaModule } from '../media';
import { OrganizersModule } from '../organizers';
import { PostsModule } from '../posts';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { VenuesModule } from '../venues';
import { EventIcalController } from './event-ical.controller';
import { EventIcalService } from './event-ical.service';
import { IcalHooks } from './event-ical-hooks';
import { EventHooks } from './event-hooks';
import { EventListHooks } from './event-list-hooks';
import { EventListLookups } from './event-list-lookups';
import { EventWriteAuthorize } from './event-write-authorize';
import { EventWriteParticipants } from './event-write-participants';
import { EventWritePersist } from './event-write-persist';
import { EventWritePrepare } from './event-write-prepare';
import { EventWriter } from './event-writer';
import { EventWrites, EventWritesInTx } from './event-writes';
import { EventsController } from './events.controller';
import { EventListRepository } from './event-list.repository';
import { EventsRepository } from './events.repository';
import { EventPresentation } from './event-presentation';
import { EventDeleter } from './event-deleter';
import { EventReader } from './event-reader';
import { ListingSync } from './listing-sync';
import { ScheduledPublisher } from './scheduled-publisher';

@Module({
  imports: [DiscoveryModule, TaxonomiesModule, VenuesModule, OrganizersModule, PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [EventsController, EventIcalController],
  providers: [
    EventsRepository,
    EventListRepository,
    EventPresentation,
    EventListLookups,
    EventReader,
    EventDeleter,
    ScheduledPublisher,
    EventWritePrepare,
    EventWriteAuthorize,
    EventWritePersist,
    EventWriteParticipants,
    EventWriter,
    EventListHooks,
    EventHooks,
    IcalHooks,
    { provide: EventWrites, useClass: EventWritesInTx },
    EventIcalService,
    ListingSync,
  ],
  // EventWriter: the editing form and the importers (src/imports) write through it as the routes do, each with its origin.
  // EventReader: the change feed and the public pages read events as the routes do; ScheduledPublisher: whether one is due.
  // EventWrites: the public extension API (extending.md §1, README "Extending").
  // EventDeleter: a source's run trashes what its origin no longer has (the sources feature).
  // EventsRepository: the importers read an imported event's status and start, and set its modified date.
  exports: [EventPresentation, EventReader, ScheduledPublisher, EventWriter, EventDeleter, EventWrites, EventIcalService, EventsRepository],
})
export class EventsModule {}
