import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { VenueExtensions } from './venue-extensions';
import { VenuesController } from './venues.controller';
import { VenuesRepository } from './venues.repository';
import { VenuesService } from './venues.service';

@Module({
  imports: [PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [VenuesController],
  providers: [VenuesRepository, VenuesService, VenueExtensions],
  exports: [VenuesService, VenueExtensions],
})
export class VenuesModule {}
