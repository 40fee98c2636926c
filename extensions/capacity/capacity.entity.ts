import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * How many people an event takes, owned by the capacity module: a table of its own, so the
 * events feature knows nothing of it. An event without a row has no capacity. The index serves
 * the `min_capacity` list filter.
 */
@Entity({ name: 'event_capacity' })
@Index('ix_event_capacity_capacity', ['capacity'])
export class EventCapacityEntity {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ name: 'capacity', type: 'int' })
  capacity: number;
}
