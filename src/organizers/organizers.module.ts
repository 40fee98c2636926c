import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { linkedItemProviders } from '../items';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { OrganizerExtensions } from './organizer-extensions';
import { OrganizersController } from './organizers.controller';
import { OrganizersRepository } from './organizers.repository';
import { ORGANIZER_KIND, ORGANIZER_ROOMS, OrganizersService } from './organizers.service';

@Module({
  imports: [PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [OrganizersController],
  providers: [
    OrganizersRepository,
    OrganizerExtensions,
    ...linkedItemProviders({ kind: ORGANIZER_KIND, tokens: ORGANIZER_ROOMS, repository: OrganizersRepository, extensions: OrganizerExtensions }),
    OrganizersService,
  ],
  exports: [OrganizersRepository, OrganizersService, OrganizerExtensions],
})
export class OrganizersModule {}
