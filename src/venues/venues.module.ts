import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { linkedItemProviders } from '../items';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { VenueExtensions } from './venue-extensions';
import { VenuesController } from './venues.controller';
import { VenuesRepository } from './venues.repository';
import { VENUE_KIND, VENUE_ROOMS, VenuesService } from './venues.service';

@Module({
  imports: [PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [VenuesController],
  providers: [
    VenuesRepository,
    VenueExtensions,
    ...linkedItemProviders({ kind: VENUE_KIND, tokens: VENUE_ROOMS, repository: VenuesRepository, extensions: VenueExtensions }),
    VenuesService,
  ],
  exports: [VenuesRepository, VenuesService, VenueExtensions],
})
export class VenuesModule {}
