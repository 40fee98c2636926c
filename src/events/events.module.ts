import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { MediaModule } from '../media';
import { OrganizersModule } from '../organizers';
import { PostsModule } from '../posts';
import { TaxonomiesModule } from '../taxonomies';
import { UsersModule } from '../users';
import { VenuesModule } from '../venues';
import { EventCalendarController } from './event-calendar.controller';
import { EventCalendarService } from './event-calendar.service';
import { EventListExtensions } from './event-list-extensions';
import { EventWriter } from './event-writer';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

@Module({
  imports: [TaxonomiesModule, VenuesModule, OrganizersModule, PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [EventsController, EventCalendarController],
  providers: [EventsRepository, EventsService, EventWriter, EventListExtensions, EventCalendarService],
  // EventWriter: the importers (src/imports) write through it as the routes do.
  exports: [EventsService, EventWriter, EventListExtensions],
})
export class EventsModule {}
