// Complete rows for query-level tests (src/**/*.filters.spec.ts and the migration specs) that insert
// straight into a migrated database to test one query against real rows.
// E2e tests create their data through the HTTP API instead (test/support/api.ts); the one e2e use
// left is the bulk of 230 events in cache.e2e-spec.ts.
import type { LinkedItemEntity } from '../../src/linked-items/linked-items';
import type { EventEntity } from '../../src/events/entities/event.entity';

/** An event row with every column set: published, in UTC, starting far ahead, linked to nothing. */
export function eventRow(id: number, overrides: Partial<EventEntity> = {}): EventEntity {
  const start = overrides.startDateUtc ?? '2099-01-01 10:00:00';
  return {
    id,
    authorId: 1,
    status: 'publish',
    statusBeforeTrash: null,
    dateUtc: '2025-01-01 00:00:00',
    modifiedUtc: '2025-01-01 00:00:00',
    title: `Event ${id}`,
    description: '',
    excerpt: '',
    slug: `event-${id}`,
    startDate: start,
    endDate: start,
    startDateUtc: start,
    endDateUtc: start,
    timezone: 'UTC',
    allDay: false,
    cost: '[]',
    website: '',
    showMap: false,
    showMapLink: false,
    hideFromListings: false,
    sticky: false,
    featured: false,
    imageId: null,
    venueId: null,
    parentId: 0,
    ...overrides,
  };
}

/** The columns venues and organizers share, for a published item named `Item {id}`. */
export function linkedItemRow(id: number, overrides: Partial<LinkedItemEntity> = {}): LinkedItemEntity {
  return {
    id,
    authorId: 1,
    status: 'publish',
    statusBeforeTrash: null,
    dateUtc: '2025-01-01 00:00:00',
    modifiedUtc: '2025-01-01 00:00:00',
    name: `Item ${id}`,
    slug: `item-${id}`,
    description: '',
    excerpt: '',
    imageId: null,
    ...overrides,
  };
}
