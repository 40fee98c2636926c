export { TaxonomiesModule } from './taxonomies.module';
export { TaxonomiesService } from './taxonomies.service';
export type { TermJson } from './term.presenter';
export type { Taxonomy } from './entities/term.entity';
