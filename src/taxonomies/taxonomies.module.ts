import { Module } from '@nestjs/common';
import { TermsRepository } from './taxonomies.repository';
import { TaxonomiesService } from './taxonomies.service';
import { CategoriesController, TagsController } from './terms.controllers';

@Module({
  controllers: [CategoriesController, TagsController],
  providers: [TermsRepository, TaxonomiesService],
  exports: [TaxonomiesService],
})
export class TaxonomiesModule {}
