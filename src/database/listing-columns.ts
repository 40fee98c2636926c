import { Column } from 'typeorm';

/**
 * The columns an event list filters and orders by (spec endpoints.md §4.1.3, §4.1.4), copied
 * from the event onto its link rows (event_terms, event_organizers). The
 * property names are the event's, so a condition written for alias `e` reads the same on a
 * link's alias. Kept in step by ListingSync (every write) and set by bulk loads themselves; the
 * defaults only stand until then, and list nothing (no status is empty).
 */
export abstract class ListingColumns {
  @Column({ name: 'status', type: 'varchar', length: 20, default: '' })
  status: string;

  /** The event's hide_from_listings. */
  @Column({ name: 'hidden', type: 'boolean', default: false })
  hideFromListings: boolean;

  @Column({ name: 'start_date', type: 'varchar', length: 19, default: '' })
  startDate: string;

  @Column({ name: 'end_date', type: 'varchar', length: 19, default: '' })
  endDate: string;

  @Column({ name: 'date_utc', type: 'varchar', length: 19, default: '' })
  dateUtc: string;
}

/** The listing columns of an event, as a link row carries them. */
export function listingOf(e: ListingColumns): ListingColumns {
  return { status: e.status, hideFromListings: e.hideFromListings, startDate: e.startDate, endDate: e.endDate, dateUtc: e.dateUtc };
}
