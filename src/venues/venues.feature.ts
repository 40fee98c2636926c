import type { Feature } from '../common/feature/feature';
import { linkedItemFeature } from '../linked-items';
import { VenueEntity } from './venue.entity';
import { VenuesModule } from './venues.module';

/** Venues (resources.md), embedded in the events held there. */
export const VENUES_FEATURE: Feature = linkedItemFeature({
  collection: 'venues',
  type: 'venue',
  module: VenuesModule,
  entities: [VenueEntity],
  eventsSql: 'SELECT id FROM events WHERE venue_id IN',
});
