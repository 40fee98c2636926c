import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Assignment of a term to an event. `published` mirrors whether the event counts as published,
 * so that term counts are computed from this table alone (kept in step by the events service).
 */
@Entity({ name: 'event_terms' })
@Index('ix_event_terms_term', ['termId', 'published', 'eventId'])
export class EventTermEntity {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @PrimaryColumn({ name: 'term_id', type: 'int' })
  termId: number;

  @Column({ name: 'published', type: 'boolean', default: false })
  published: boolean;
}
