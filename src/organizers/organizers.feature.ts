import type { Feature } from '../common/feature/feature';
import { linkedItemFeature } from '../linked-items';
import { EventOrganizerEntity } from './event-organizer.entity';
import { OrganizerEntity } from './organizer.entity';
import { OrganizersModule } from './organizers.module';
import { ORGANIZER_LINKED_EVENTS_SQL } from './organizers.repository';

/** Organizers (resources.md) and their links to events, which embed them. */
export const ORGANIZERS_FEATURE: Feature = linkedItemFeature({
  collection: 'organizers',
  type: 'organizer',
  module: OrganizersModule,
  entities: [OrganizerEntity, EventOrganizerEntity],
  eventsSql: ORGANIZER_LINKED_EVENTS_SQL,
});
