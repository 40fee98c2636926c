import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CacheModule } from '../common/cache/cache.module';
import { linkedItemProviders } from '../items';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { OrganizerHooks } from './organizer-hooks';
import { OrganizersController } from './organizers.controller';
import { OrganizersRepository } from './organizers.repository';
import { ORGANIZER_KIND, ORGANIZER_ROOMS, OrganizersService } from './organizers.service';

@Module({
  imports: [DiscoveryModule, PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [OrganizersController],
  providers: [
    OrganizersRepository,
    OrganizerHooks,
    ...linkedItemProviders({ kind: ORGANIZER_KIND, tokens: ORGANIZER_ROOMS, repository: OrganizersRepository, hooks: OrganizerHooks }),
    OrganizersService,
  ],
  exports: [OrganizersRepository, OrganizersService, OrganizerHooks],
})
export class OrganizersModule {}
