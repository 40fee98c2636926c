import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/tx';
import { EventSubmissionEntity, SubmissionKeyEntity } from './event-submission.entity';

/** Who sent an event, as the review queue and the event form show it. */
export interface Submitter {
  readonly name: string;
  readonly email: string;
}

/** One of a user's submissions as its list shows it: the event as it is now (null fields: deleted for good). */
export interface SubmittedEvent {
  eventId: number;
  submittedUtc: string;
  title: string | null;
  status: string | null;
  slug: string | null;
}

/** The one row of `submission_keys`. */
const KEY_ID = 1;

/** Every query of the submissions feature: its two tables, and the events its lists name. */
@Injectable()
export class SubmissionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Who sent the event, inside the event's write. */
  async insert(tx: Tx, row: EventSubmissionEntity): Promise<void> {
    await tx.getRepository(EventSubmissionEntity).insert(row);
  }

  /** The submitters of these events, by event id (one query); an event no one submitted is absent. */
  async submitters(eventIds: readonly number[]): Promise<Map<number, Submitter>> {
    if (eventIds.length === 0) return new Map();
    // Ids as parameters, not in the SQL text, so that the statement is prepared once per count.
    const rows = await this.db
      .getRepository(EventSubmissionEntity)
      .createQueryBuilder('s')
      .where('s.event_id IN (:...ids)', { ids: [...eventIds] })
      .getMany();
    return new Map(rows.map((r) => [r.eventId, { name: r.submitterName, email: r.submitterEmail }]));
  }

  /** Forgets who sent the event (it is being deleted for good), inside the delete's transaction. */
  async remove(tx: Tx, eventId: number): Promise<void> {
    await tx.getRepository(EventSubmissionEntity).delete({ eventId });
  }

  /** A page of what the user sent, newest first, with each event's title, status and slug as they are now. */
  async byUser(userId: number, offset: number, limit: number): Promise<SubmittedEvent[]> {
    const rows = await this.db
      .getRepository(EventSubmissionEntity)
      .createQueryBuilder('s')
      .leftJoin('events', 'e', 'e.id = s.event_id')
      .select(['s.event_id AS event_id', 's.submitted_utc AS submitted_utc', 'e.title AS title', 'e.status AS status', 'e.slug AS slug'])
      .where('s.user_id = :userId', { userId })
      .orderBy('s.event_id', 'DESC')
      .offset(offset)
      .limit(limit)
      .getRawMany<{ event_id: number | string; submitted_utc: string; title: string | null; status: string | null; slug: string | null }>();
    // MariaDB may answer numbers as strings.
    return rows.map((r) => ({ eventId: Number(r.event_id), submittedUtc: r.submitted_utc, title: r.title, status: r.status, slug: r.slug }));
  }

  /** How many events the user sent. */
  countByUser(userId: number): Promise<number> {
    return this.db.getRepository(EventSubmissionEntity).count({ where: { userId } });
  }

  /** The signing key, or null when none was made yet. */
  async signingKey(): Promise<string | null> {
    const row = await this.db.getRepository(SubmissionKeyEntity).findOne({ where: { id: KEY_ID } });
    return row?.secret ?? null;
  }

  /** Stores `secret` as the signing key unless an instance stored one first (the insert is then ignored). */
  async offerSigningKey(tx: Tx, secret: string, createdUtc: string): Promise<void> {
    await tx.getRepository(SubmissionKeyEntity).createQueryBuilder().insert().values({ id: KEY_ID, secret, createdUtc }).orIgnore().execute();
  }
}
