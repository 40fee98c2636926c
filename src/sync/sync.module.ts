import { Module } from '@nestjs/common';
import { EventsModule } from '../events';
import { OrganizersModule } from '../organizers';
import { TaxonomiesModule } from '../taxonomies';
import { VenuesModule } from '../venues';
import { ChangesController } from './changes.controller';
import { ChangesService } from './changes.service';

/** The change feed of sync.md. */
@Module({
  imports: [EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule],
  controllers: [ChangesController],
  providers: [ChangesService],
})
export class SyncModule {}
