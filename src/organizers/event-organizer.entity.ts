import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An event's organizers, in link order. The table belongs to the organizers feature (as
 * event_terms belongs to taxonomies): the events feature builds on this one and writes the
 * links, organizer lists and deletes read and remove them.
 */
@Entity({ name: 'event_organizers' })
@Index('ix_event_organizers_organizer', ['organizerId', 'eventId'])
export class EventOrganizerEntity {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'organizer_id', type: 'int' })
  organizerId: number;

  @Column({ name: 'position', type: 'int', default: 0 })
  position: number;
}
