import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ListingColumns } from '../database/listing-columns';

/**
 * An event's organizers, in link order. The table belongs to the organizers feature (as
 * event_terms belongs to taxonomies): the events feature builds on this one and writes the
 * links, organizer lists and deletes read and remove them. The listing columns
 * (ListingColumns) copy the event's: a list filtered by an organizer is a range of
 * ix_event_organizers_listing in list order.
 */
@Entity({ name: 'event_organizers' })
@Index('ix_event_organizers_organizer', ['organizerId', 'eventId'])
@Index('ix_event_organizers_listing', ['organizerId', 'status', 'hideFromListings', 'startDate', 'dateUtc', 'eventId', 'endDate'])
export class EventOrganizerEntity extends ListingColumns {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'organizer_id', type: 'int' })
  organizerId: number;

  @Column({ name: 'position', type: 'int', default: 0 })
  position: number;
}
