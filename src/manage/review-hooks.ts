import { hookKind } from '../common/feature/hooks';

/**
 * Who sent a pending event from outside the editing pages (the public submission form of
 * editing.md §4): what the review queue shows beside the event's author. Only editors and
 * administrators see the review queue, so this is shown to nobody else.
 */
export interface ReviewSubmitter {
  readonly name: string;
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
