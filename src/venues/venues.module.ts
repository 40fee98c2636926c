import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { linkedItemProviders } from '../linked-items';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { VenueExtensions } from './venue-extensions';
import { VenuesController } from './venues.controller';
import { VenuesRepository } from './venues.repository';
import { VENUE_KIND, VENUE_TOKENS } from './venue-kind';

@Module({
  imports: [PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [VenuesController],
  providers: [
    VenuesRepository,
    VenueExtensions,
    ...linkedItemProviders({ kind: VENUE_KIND, tokens: VENUE_TOKENS, repository: VenuesRepository, extensions: VenueExtensions }),
  ],
  exports: [VenuesRepository, VenueExtensions, VENUE_TOKENS.reads, VENUE_TOKENS.writes, VENUE_TOKENS.deletes],
})
export class VenuesModule {}
