import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { WpError } from '../common/errors';
import { assertIfMatch, assertUnchanged } from '../common/http/preconditions';
import { UnitOfWork } from '../database/unit-of-work';
import { EventPresentation, EventsRepository, EventWriter, EventWrites, FORM_ORIGIN, validatedEventInput } from '../events';
import { STATUS_PHRASES } from './review-queue';
import { ReviewRepository } from './review.repository';

/** The longest reason a decline keeps. */
export const REASON_MAX = 2000;

/** What an action of the queue did: done, or nothing because the queue the reviewer saw is out of date. */
export type ReviewOutcome = { done: true } | { done: false; stale: string };

/**
 * The review queue's actions (editing.md §2 `/manage/review/`), each through the API's write
 * path with the signed-in reviewer and the form's origin, and each only on the event as the
 * queue showed it: its version (the ETag of its single GET) is the write's If-Match, so an
 * event that is no longer pending, or was changed since, is left as it is and the reviewer is
 * told why.
 *
 * - approve: the update the event form's "Publish" makes (`status=publish`; a publish date
 *   ahead makes it scheduled, as in the API);
 * - decline: the trash, as DELETE /events/{id}, and in the same unit of work the reason, who
 *   and when (review_declines), so that neither is kept without the other.
 */
@Injectable()
export class ReviewActions {
  constructor(
    private readonly presentation: EventPresentation,
    private readonly events: EventsRepository,
    private readonly writer: EventWriter,
    private readonly writes: EventWrites,
    private readonly unitOfWork: UnitOfWork,
    private readonly reviews: ReviewRepository,
  ) {}

  async approve(actor: Actor, id: number, version: string): Promise<ReviewOutcome> {
    const found = await this.events.findById(id);
    if (!found || found.status !== 'pending') return this.stale(id);
    const { dto, raw } = validatedEventInput(false, { status: 'publish' });
    try {
      await this.writer.updateById(actor, id, dto, version, raw, FORM_ORIGIN);
    } catch (err) {
      if (err instanceof WpError && err.status === 412) return this.stale(id);
      throw err;
    }
    return { done: true };
  }

  async decline(actor: Actor, id: number, version: string, reason: string): Promise<ReviewOutcome> {
    const found = await this.events.findById(id);
    if (!found || found.status !== 'pending') return this.stale(id);
    try {
      // The two halves of If-Match (preconditions.ts), around a unit of work of our own: the
      // event's trash and its decline are one write.
      await assertIfMatch(version, () => this.presentation.singleBody(actor, found));
      await this.unitOfWork.run(async (tx, changes) => {
        assertUnchanged(version, found, await this.events.findForUpdate(id, tx));
        await this.writes.remove(tx, changes, actor, id, false, {}, FORM_ORIGIN);
        await this.reviews.addDecline(tx, { eventId: id, reason, declinedBy: actor.id, declinedUtc: nowUtcSql() });
      });
    } catch (err) {
      if (err instanceof WpError && err.status === 412) return this.stale(id);
      throw err;
    }
    return { done: true };
  }

  /** Why nothing was done: the event is gone, no longer pending, or changed since the queue was shown. */
  private async stale(id: number): Promise<ReviewOutcome> {
    const now = await this.events.findById(id);
    if (!now) return { done: false, stale: 'This event no longer exists. Nothing was changed.' };
    const title = `“${now.title || `Event ${id}`}”`;
    if (now.status !== 'pending') {
      return { done: false, stale: `${title} is no longer pending review: it is ${STATUS_PHRASES[now.status] ?? now.status} now. Nothing was changed.` };
    }
    return { done: false, stale: `${title} was changed since the queue was shown. Nothing was changed: look at it again below.` };
  }
}
