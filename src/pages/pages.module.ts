import { Module } from '@nestjs/common';
import { EventsModule } from '../events';
import { OrganizersModule } from '../organizers';
import { TaxonomiesModule } from '../taxonomies';
import { VenuesModule } from '../venues';
import { PageAssets } from './page-assets';
import { PagesController } from './pages.controller';
import { PagesService } from './pages.service';

/** The public pages (pages.md); registered only when CALENDAR_PAGES is on (app.module.ts). */
@Module({
  imports: [EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule],
  controllers: [PagesController],
  providers: [PagesService, PageAssets],
})
export class PagesModule {}
