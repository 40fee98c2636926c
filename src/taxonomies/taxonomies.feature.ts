import type { ChangeKind, Feature } from '../common/feature/feature';
import { EventTermEntity } from './entities/event-term.entity';
import { TermEntity } from './entities/term.entity';
import { TaxonomiesModule } from './taxonomies.module';
import { TERM_LINKED_EVENTS_SQL, termChangeState } from './terms.repository';

/** A taxonomy's change kind: its terms are always public, and events embed them. */
const termKind = (type: 'category' | 'tag', collection: string): ChangeKind => ({
  type,
  state: termChangeState(type),
  hasStatus: false,
  linkedEvents: { type: 'event', sql: TERM_LINKED_EVENTS_SQL },
  collection,
});

/** Categories and tags, and their assignment to events. */
export const TAXONOMIES_FEATURE: Feature = {
  name: 'taxonomies',
  modules: [TaxonomiesModule],
  entities: [TermEntity, EventTermEntity],
  changeKinds: [termKind('category', 'categories'), termKind('tag', 'tags')],
  caches: {
    'categories.listed': 0.03,
    'categories.totals': 0.01,
    'categories.page-ids': 0.01,
    'categories.lookups': 0.01,
    'tags.listed': 0.03,
    'tags.totals': 0.01,
    'tags.page-ids': 0.01,
    'tags.lookups': 0.01,
  },
  listCollections: ['categories', 'tags'],
};
