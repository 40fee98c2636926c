import { Module } from '@nestjs/common';
import { CacheModule } from '../common/cache/cache.module';
import { PostsModule } from '../posts';
import { TermsRepository } from './taxonomies.repository';
import { EventTerms } from './event-terms';
import { TaxonomiesService } from './taxonomies.service';
import { TermWrites } from './term-writes';
import { TermListExtensions } from './term-list-extensions';
import { CategoriesController, TagsController } from './terms.controllers';

@Module({
  imports: [PostsModule, CacheModule],
  controllers: [CategoriesController, TagsController],
  providers: [TermsRepository, TermWrites, EventTerms, TaxonomiesService, TermListExtensions],
  exports: [TaxonomiesService, TermListExtensions],
})
export class TaxonomiesModule {}
