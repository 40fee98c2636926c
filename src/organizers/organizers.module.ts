import { Module } from '@nestjs/common';
import { OrganizerExtensions } from './organizer-extensions';
import { OrganizersController } from './organizers.controller';
import { OrganizersRepository } from './organizers.repository';
import { OrganizersService } from './organizers.service';

@Module({
  controllers: [OrganizersController],
  providers: [OrganizersRepository, OrganizersService, OrganizerExtensions],
  exports: [OrganizersService, OrganizerExtensions],
})
export class OrganizersModule {}
