import type { Feature } from '../common/feature/feature';
import { EventEntity } from './entities/event.entity';
import { EventsModule } from './events.module';

/** Events (resources.md): lists, search, single reads, writes and their iCalendar forms. */
export const EVENTS_FEATURE: Feature = {
  name: 'events',
  modules: [EventsModule],
  entities: [EventEntity],
  changeKinds: [{ type: 'event', state: { table: 'events' }, hasStatus: true, collection: 'events' }],
  caches: {
    // The presented list items get the most: a page is assembled from them, and a deep page of
    // a common filter presents ten events nobody asked for recently. Totals, page-id blocks
    // and lookups are small.
    'events.listed': 0.18,
    'events.singles': 0.08,
    'events.totals': 0.02,
    'events.page-ids': 0.08,
    'events.lookups': 0.02,
    'events.search': 0.04,
  },
  listCollections: ['events'],
};
