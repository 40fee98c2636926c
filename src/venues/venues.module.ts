import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CacheModule } from '../common/cache/cache.module';
import { linkedItemProviders } from '../linked-items';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { VenueHooks } from './venue-hooks';
import { VenuesController } from './venues.controller';
import { VenuesRepository } from './venues.repository';
import { VENUE_KIND, VENUE_TOKENS } from './venue-kind';

@Module({
  imports: [DiscoveryModule, PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [VenuesController],
  providers: [
    VenuesRepository,
    VenueHooks,
    ...linkedItemProviders({ kind: VENUE_KIND, tokens: VENUE_TOKENS, repository: VenuesRepository, hooks: VenueHooks }),
  ],
  exports: [VenuesRepository, VenueHooks, VENUE_TOKENS.reads, VENUE_TOKENS.writes, VENUE_TOKENS.deletes],
})
export class VenuesModule {}
