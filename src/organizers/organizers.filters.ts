import type { SelectQueryBuilder } from 'typeorm';
import { EventOrganizerEntity } from '../events/entities/event-organizer.entity';
import type { EventEntity } from '../events/entities/event.entity';
import type { LinkedItemQueryShape } from '../common/items/linked-items';

/** Fields an organizer search looks in (spec endpoints.md §5.1.1), as entity properties. */
export const ORGANIZER_SEARCH_COLUMNS = ['name', 'description', 'excerpt', 'phone', 'email', 'website'] as const;

/** Events link their organizers through `event_organizers`. */
export const organizerEvents = (events: SelectQueryBuilder<EventEntity>, organizerAlias: string) =>
  events.innerJoin(EventOrganizerEntity, 'eo', 'eo.event_id = e.id').andWhere(`eo.organizer_id = ${organizerAlias}.id`);

/** How organizer lists are searched and tied to events (filters: common/items/linked-items.ts). */
export const ORGANIZER_QUERY: LinkedItemQueryShape = { alias: 'o', searchColumns: ORGANIZER_SEARCH_COLUMNS, link: organizerEvents };
