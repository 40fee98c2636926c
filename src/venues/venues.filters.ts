import type { EventLink, LinkedItemQueryShape } from '../linked-items';

/** Fields a venue search looks in (spec endpoints.md §5.1.1), as entity properties. */
export const VENUE_SEARCH_COLUMNS = ['name', 'description', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'] as const;

/** Events link their venue through `events.venue_id`. */
export const venueEvents: EventLink = (events, venueAlias) => events.andWhere(`e.venue_id = ${venueAlias}.id`);

/** How venue lists are searched and tied to events (filters: linked-items/linked-items.ts). */
export const VENUE_QUERY: LinkedItemQueryShape = { alias: 'v', searchColumns: VENUE_SEARCH_COLUMNS, link: venueEvents };
