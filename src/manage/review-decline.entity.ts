import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A pending event declined in the review queue (editing.md §2 `/manage/review/`): the reason,
 * who declined it and when, kept with the event (it went to the trash) and shown on its form in
 * the editing pages only, never in the API or the public pages. One row per decline: an event
 * sent again and declined again keeps both. Keyed by the event's id without a foreign key; the
 * rows go when the event is deleted for good (ReviewDeclinesHook).
 */
@Entity({ name: 'review_declines' })
@Index('ix_review_declines_event', ['eventId', 'id'])
export class ReviewDeclineEntity {
  @PrimaryGeneratedColumn({ name: 'id', type: 'int' })
  id: number;

  @Column({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ name: 'reason', type: 'text' })
  reason: string;

  /** The user who declined it (its id: a login may be renamed or the user deleted). */
  @Column({ name: 'declined_by', type: 'int' })
  declinedBy: number;

  /** When, in UTC (`YYYY-MM-DD HH:MM:SS`). */
  @Column({ name: 'declined_utc', type: 'varchar', length: 19 })
  declinedUtc: string;
}
