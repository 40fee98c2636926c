import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CacheModule } from '../common/cache/cache.module';
import { PostsModule } from '../posts';
import { TermsRepository } from './terms.repository';
import { EventTerms } from './event-terms';
import { TermsService } from './terms.service';
import { TermWrites } from './term-writes';
import { TermListHooks } from './term-list-hooks';
import { CategoriesController, TagsController } from './terms.controllers';

@Module({
  imports: [DiscoveryModule, PostsModule, CacheModule],
  controllers: [CategoriesController, TagsController],
  providers: [TermsRepository, TermWrites, EventTerms, TermsService, TermListHooks],
  exports: [TermsService],
})
export class TaxonomiesModule {}
