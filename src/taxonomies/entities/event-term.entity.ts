import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ListingColumns } from '../../database/listing-columns';

/**
 * Assignment of a term to an event. `published` mirrors whether the event counts as published,
 * so that term counts are computed from this table alone (kept in step by the events service).
 * The listing columns (ListingColumns) copy the event's, so that a list filtered by a term is a
 * range of ix_event_terms_listing in list order (start, publication date, id).
 */
@Entity({ name: 'event_terms' })
@Index('ix_event_terms_term', ['termId', 'published', 'eventId'])
@Index('ix_event_terms_listing', ['termId', 'status', 'hideFromListings', 'startDate', 'dateUtc', 'eventId', 'endDate'])
export class EventTermEntity extends ListingColumns {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'term_id', type: 'int' })
  termId: number;

  @Column({ name: 'published', type: 'boolean', default: false })
  published: boolean;
}
