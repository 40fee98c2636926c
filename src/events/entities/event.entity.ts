import { Column, Entity, Index } from 'typeorm';
import { ItemColumns } from '../../items';

/**
 * An event. Its id comes from the shared post sequence (PostsService.allocate).
 * Dates are `YYYY-MM-DD HH:MM:SS` strings: start/end as wall-clock time in the event's own time
 * zone, `*_utc` in UTC; publication and modification dates are kept in UTC only and shown in the
 * site zone by the presenter.
 */
@Entity({ name: 'events' })
// The list walks this index in its order (start, publication date, id); with end_date last it
// also answers the list's COUNT without reading the table.
@Index('ix_events_listing', ['status', 'hideFromListings', 'startDate', 'dateUtc', 'id', 'endDate'])
@Index('ix_events_start', ['startDate', 'id'])
// A venue's events in list order (the venue filter, and has_events/only_with_upcoming of venues).
@Index('ix_events_venue', ['venueId', 'status', 'hideFromListings', 'startDate', 'dateUtc', 'id'])
@Index('ix_events_status_date', ['status', 'dateUtc'])
@Index('ix_events_slug', ['slug'])
@Index('uq_events_live_slug', ['liveSlug'], { unique: true })
@Index('ix_events_author', ['authorId'])
@Index('ix_events_parent', ['parentId'])
export class EventEntity extends ItemColumns {
  @Column({ name: 'title', type: 'text' })
  title: string;

  @Column({ name: 'start_date', type: 'varchar', length: 19 })
  startDate: string;

  @Column({ name: 'end_date', type: 'varchar', length: 19 })
  endDate: string;

  @Column({ name: 'start_date_utc', type: 'varchar', length: 19 })
  startDateUtc: string;

  @Column({ name: 'end_date_utc', type: 'varchar', length: 19 })
  endDateUtc: string;

  /** IANA name or `UTC±H[:MM]`. */
  @Column({ name: 'timezone', type: 'varchar', length: 64 })
  timezone: string;

  @Column({ name: 'all_day', type: 'boolean', default: false })
  allDay: boolean;

  /** The cost strings as given, JSON-encoded (`[]` when none). */
  @Column({ name: 'cost', type: 'text' })
  cost: string;

  @Column({ name: 'website', type: 'text' })
  website: string;

  @Column({ name: 'show_map', type: 'boolean', default: false })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: false })
  showMapLink: boolean;

  @Column({ name: 'hide_from_listings', type: 'boolean', default: false })
  hideFromListings: boolean;

  @Column({ name: 'sticky', type: 'boolean', default: false })
  sticky: boolean;

  @Column({ name: 'featured', type: 'boolean', default: false })
  featured: boolean;

  @Column({ name: 'venue_id', type: 'int', nullable: true, default: null })
  venueId: number | null;

  /** `post_parent`; the API never sets it (spec endpoints.md §4.1.3). */
  @Column({ name: 'parent_id', type: 'int', default: 0 })
  parentId: number;
}
