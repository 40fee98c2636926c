import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Who sent an event through the public submission form (editing.md §4): kept beside the event,
 * in its write's transaction, and shown only to editors and administrators (the review queue, the
 * event form). The name and e-mail are what an anonymous submitter typed; a signed-in one is
 * known by `user_id` (and named by its login). Keyed by the event's id without a foreign key: the
 * row goes when the event is deleted for good (SubmitterHook.deleting).
 */
@Entity({ name: 'event_submissions' })
@Index('ix_event_submissions_user', ['userId', 'eventId'])
export class EventSubmissionEntity {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ name: 'submitter_name', type: 'varchar', length: 200 })
  submitterName: string;

  /** Empty for a signed-in submitter, whose account has no e-mail address. */
  @Column({ name: 'submitter_email', type: 'varchar', length: 254 })
  submitterEmail: string;

  /** The signed-in user who sent it (its own submissions' list), or null for an anonymous submitter. */
  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId: number | null;

  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  @Column({ name: 'submitted_utc', type: 'varchar', length: 19 })
  submittedUtc: string;
}

/**
 * The key the submission form's timestamps are signed with (SubmissionStamps): one row, made by
 * the first instance that starts with submissions on, read by every instance of the database,
 * so that a form one instance gave is accepted by another.
 */
@Entity({ name: 'submission_keys' })
export class SubmissionKeyEntity {
  @PrimaryColumn({ name: 'id', type: 'int' })
  id: number;

  /** 32 random bytes, hexadecimal. */
  @Column({ name: 'secret', type: 'varchar', length: 64 })
  secret: string;

  @Column({ name: 'created_utc', type: 'varchar', length: 19 })
  createdUtc: string;
}
