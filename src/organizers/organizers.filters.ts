import type { EventLink, LinkedItemQueryShape } from '../linked-items';
import { EventOrganizerEntity } from './event-organizer.entity';

/** Fields an organizer search looks in (spec endpoints.md §5.1.1), as entity properties. */
export const ORGANIZER_SEARCH_COLUMNS = ['name', 'description', 'excerpt', 'phone', 'email', 'website'] as const;

/** Events link their organizers through `event_organizers`. */
export const organizerEvents: EventLink = (events, organizerAlias) =>
  events.innerJoin(EventOrganizerEntity, 'eo', 'eo.event_id = e.id').andWhere(`eo.organizer_id = ${organizerAlias}.id`);

/** How organizer lists are searched and tied to events (filters: linked-items/linked-items.ts). */
export const ORGANIZER_QUERY: LinkedItemQueryShape = { alias: 'o', searchColumns: ORGANIZER_SEARCH_COLUMNS, link: organizerEvents };
