export { TaxonomiesModule } from './taxonomies.module';
export { TaxonomiesService } from './taxonomies.service';
export type { TermJson } from './term.presenter';
export { TermsRepository } from './taxonomies.repository';
export { TermEntity } from './entities/term.entity';
export type { Taxonomy } from './entities/term.entity';
export { EventTermEntity } from './entities/event-term.entity';
export { TermDto } from './dto/term-response.dto';
export { ListCategoriesQueryDto } from './dto/list-terms.query.dto';
