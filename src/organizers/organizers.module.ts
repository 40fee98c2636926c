import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { OrganizerExtensions } from './organizer-extensions';
import { OrganizersController } from './organizers.controller';
import { OrganizersRepository } from './organizers.repository';
import { OrganizersService } from './organizers.service';

@Module({
  imports: [PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [OrganizersController],
  providers: [OrganizersRepository, OrganizersService, OrganizerExtensions],
  exports: [OrganizersService, OrganizerExtensions],
})
export class OrganizersModule {}
