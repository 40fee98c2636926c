import { Module } from '@nestjs/common';
import { VenueExtensions } from './venue-extensions';
import { VenuesController } from './venues.controller';
import { VenuesRepository } from './venues.repository';
import { VenuesService } from './venues.service';

@Module({
  controllers: [VenuesController],
  providers: [VenuesRepository, VenuesService, VenueExtensions],
  exports: [VenuesService, VenueExtensions],
})
export class VenuesModule {}
