import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CacheModule } from '../common/cache/cache.module';
import { linkedItemProviders } from '../linked-items';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { OrganizerHooks } from './organizer-hooks';
import { OrganizersController } from './organizers.controller';
import { OrganizersRepository } from './organizers.repository';
import { ORGANIZER_KIND, ORGANIZER_TOKENS } from './organizer-kind';

@Module({
  imports: [DiscoveryModule, PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [OrganizersController],
  providers: [
    OrganizersRepository,
    OrganizerHooks,
    ...linkedItemProviders({ kind: ORGANIZER_KIND, tokens: ORGANIZER_TOKENS, repository: OrganizersRepository, hooks: OrganizerHooks }),
  ],
  exports: [OrganizersRepository, OrganizerHooks, ORGANIZER_TOKENS.reads, ORGANIZER_TOKENS.writes, ORGANIZER_TOKENS.deletes],
})
export class OrganizersModule {}
