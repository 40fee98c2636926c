import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CacheModule } from '../common/cache/cache.module';
import { linkedItemProviders } from '../items';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { VenueHooks } from './venue-hooks';
import { VenuesController } from './venues.controller';
import { VenuesRepository } from './venues.repository';
import { VENUE_KIND, VENUE_ROOMS, VenuesService } from './venues.service';

@Module({
  imports: [DiscoveryModule, PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [VenuesController],
  providers: [
    VenuesRepository,
    VenueHooks,
    ...linkedItemProviders({ kind: VENUE_KIND, tokens: VENUE_ROOMS, repository: VenuesRepository, hooks: VenueHooks }),
    VenuesService,
  ],
  exports: [VenuesRepository, VenuesService, VenueHooks],
})
export class VenuesModule {}
