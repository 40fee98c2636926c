import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/tx';
import { ReviewDeclineEntity } from './review-decline.entity';

/** What a decline keeps (ReviewDeclineEntity, without its row id). */
export type ReviewDecline = Omit<ReviewDeclineEntity, 'id'>;

/** The review queue's own table: declines written inside the decline's unit of work, read outside. */
@Injectable()
export class ReviewRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Keeps a decline, inside the write that trashes the event. */
  async addDecline(tx: Tx, decline: ReviewDecline): Promise<void> {
    await tx.getRepository(ReviewDeclineEntity).insert(decline);
  }

  /** The event's latest decline, or null. */
  async latestDecline(eventId: number): Promise<ReviewDecline | null> {
    return this.db
      .getRepository(ReviewDeclineEntity)
      .createQueryBuilder('d')
      .where('d.event_id = :eventId', { eventId })
      .orderBy('d.id', 'DESC')
      .limit(1)
      .getOne();
  }

  /** Forgets an event's declines, inside the write that deletes it for good. */
  async removeDeclines(tx: Tx, eventId: number): Promise<void> {
    await tx.getRepository(ReviewDeclineEntity).delete({ eventId });
  }
}
