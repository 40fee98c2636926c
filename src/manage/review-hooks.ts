import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { hookKind, Hooks } from '../common/feature/hooks';

/**
 * Who sent a pending event from outside the editing pages (the public submission form of
 * editing.md §4): what the review queue shows beside the event's author. Only editors and
 * administrators see the review queue, so this is shown to nobody else.
 */
export interface ReviewSubmitter {
  readonly name: string;
  /** Empty when the submitter was signed in (their login is the name). */
  readonly email: string;
}

/**
 * What a feature tells the review queue (`/manage/review/`) about the events it lists: the
 * submitter of each event that has one, by event id (an event without one is left out).
 */
export interface ReviewHook {
  submitters(eventIds: readonly number[]): Promise<ReadonlyMap<number, ReviewSubmitter>>;
}

export const REVIEW_HOOKS = hookKind<ReviewHook>('review queue');

/** The hooks of the review queue, as the app provides them (Hooks). */
@Injectable()
export class ReviewHooks extends Hooks<ReviewHook> {
  constructor(discovery: DiscoveryService) {
    super(discovery, REVIEW_HOOKS);
  }

  /** The submitters of these events, every hook asked once for the whole page; for an event, the first hook that gives one wins. */
  async submitters(eventIds: readonly number[]): Promise<Map<number, ReviewSubmitter>> {
    const found = new Map<number, ReviewSubmitter>();
    if (eventIds.length === 0) return found;
    for (const hook of this.all()) {
      for (const [id, submitter] of await hook.submitters(eventIds)) if (!found.has(id)) found.set(id, submitter);
    }
    return found;
  }
}
