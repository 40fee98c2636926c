import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { linkedItemProviders } from '../linked-items';
import { MediaModule } from '../media';
import { PostsModule } from '../posts';
import { UsersModule } from '../users';
import { OrganizerExtensions } from './organizer-extensions';
import { OrganizersController } from './organizers.controller';
import { OrganizersRepository } from './organizers.repository';
import { ORGANIZER_KIND, ORGANIZER_TOKENS } from './organizer-kind';

@Module({
  imports: [PostsModule, MediaModule, UsersModule, CacheModule],
  controllers: [OrganizersController],
  providers: [
    OrganizersRepository,
    OrganizerExtensions,
    ...linkedItemProviders({ kind: ORGANIZER_KIND, tokens: ORGANIZER_TOKENS, repository: OrganizersRepository, extensions: OrganizerExtensions }),
  ],
  exports: [OrganizersRepository, OrganizerExtensions, ORGANIZER_TOKENS.reads, ORGANIZER_TOKENS.writes, ORGANIZER_TOKENS.deletes],
})
export class OrganizersModule {}
