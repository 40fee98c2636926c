import { Module } from '@nestjs/common';
import { MediaModule } from '../media';
import { OrganizersController } from './organizers.controller';
import { OrganizersRepository } from './organizers.repository';
import { OrganizersService } from './organizers.service';

@Module({
  imports: [MediaModule],
  controllers: [OrganizersController],
  providers: [OrganizersRepository, OrganizersService],
  exports: [OrganizersService],
})
export class OrganizersModule {}
