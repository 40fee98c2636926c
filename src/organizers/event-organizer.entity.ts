import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An event's organizers, in link order. */
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
