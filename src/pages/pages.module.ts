import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CacheModule } from '../common/cache/cache.module';
import { EventsModule } from '../events';
import { OrganizersModule } from '../organizers';
import { TaxonomiesModule } from '../taxonomies';
import { VenuesModule } from '../venues';
import { EmbedPages } from './embed-pages';
import { PageAssets } from './page-assets';
import { PagesController } from './pages.controller';
import { ItemPages } from './item-pages';
import { PageHooks } from './page-hooks';
import { ListingPages } from './listing-pages';
import { PageReads } from './page-reads';
import { PagesService } from './pages.service';
import { RenderedPages } from './rendered-pages';

/** The public pages (pages.md); registered only when CALENDAR_PAGES is on (app.module.ts). */
@Module({
  imports: [DiscoveryModule, EventsModule, VenuesModule, OrganizersModule, TaxonomiesModule, CacheModule],
  controllers: [PagesController],
  providers: [PagesService, PageReads, ListingPages, ItemPages, EmbedPages, PageAssets, RenderedPages, PageHooks],
})
export class PagesModule {}
