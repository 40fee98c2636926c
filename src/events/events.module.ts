import { Module } from '@nestjs/common';
import { OrganizersModule } from '../organizers';
import { TaxonomiesModule } from '../taxonomies';
import { VenuesModule } from '../venues';
import { EventListExtensions } from './event-list-extensions';
import { EventWriter } from './event-writer';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

@Module({
  imports: [TaxonomiesModule, VenuesModule, OrganizersModule],
  controllers: [EventsController],
  providers: [EventsRepository, EventsService, EventWriter, EventListExtensions],
  exports: [EventsService, EventListExtensions],
})
export class EventsModule {}
