import { Module } from '@nestjs/common';
import { MediaModule } from '../media';
import { VenuesController } from './venues.controller';
import { VenuesRepository } from './venues.repository';
import { VenuesService } from './venues.service';

@Module({
  imports: [MediaModule],
  controllers: [VenuesController],
  providers: [VenuesRepository, VenuesService],
  exports: [VenuesService],
})
export class VenuesModule {}
