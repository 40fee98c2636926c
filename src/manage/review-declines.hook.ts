import { Injectable } from '@nestjs/common';
import { Hook } from '../common/feature/hooks';
import type { Tx } from '../database/tx';
import { type EventDeleteContext, type EventEntity, EVENT_HOOKS, type EventHook } from '../events';
import { ReviewRepository } from './review.repository';

/**
 * The review queue's part in event deletes: an event deleted for good takes its declines with it
 * (review_declines is keyed by the event's id, without a foreign key). It owns no parameter and
 * adds nothing to the representation: a decline's reason is for the editing pages alone.
 */
@Hook(EVENT_HOOKS)
@Injectable()
export class ReviewDeclinesHook implements EventHook {
  readonly params = [] as const;

  constructor(private readonly reviews: ReviewRepository) {}

  async deleting(tx: Tx, event: EventEntity, ctx: EventDeleteContext): Promise<void> {
    if (ctx.force) await this.reviews.removeDeclines(tx, event.id);
  }
}
