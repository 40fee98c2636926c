import { Injectable } from '@nestjs/common';
import { type Actor, can } from '../common/auth';
import { utcToWall } from '../common/datetime/format';
import { tagOfJson } from '../common/http/preconditions';
import { AppConfig } from '../config/app-config';
import { type EventEntity, EventPresentation, EventsRepository } from '../events';
import { UsersService } from '../users';
import { type EventRow, EventsListService } from './events-list.service';
import { ReviewHooks, type ReviewSubmitter } from './review-hooks';
import { ReviewRepository } from './review.repository';

/** Events per page of the review queue. */
export const REVIEW_PER_PAGE = 20;

/**
 * Who reviews (editing.md §2 `/manage/review/`): a user who may publish other people's events
 * (auth.md §2: editors and administrators).
 */
export function mayReview(actor: Actor): boolean {
  return can(actor, 'publish_items') && can(actor, 'edit_others');
}

/** One event of the queue: its row, the version its actions carry, and who sent it when a feature knows. */
export interface ReviewRow extends EventRow {
  /** The tag of the event's single GET as the reviewer sees it (its ETag): an action checks it as If-Match. */
  version: string;
  submitter?: ReviewSubmitter;
}

/** One page of the queue. */
export interface ReviewPage {
  rows: ReviewRow[];
  total: number;
  page: number;
  pages: number;
  /** The site's zone, which the dates the events were sent are shown in. */
  siteZone: string;
}

/** An event's latest decline as its form shows it. */
export interface DeclineNote {
  reason: string;
  by: string;
  /** When, in the site's zone (`YYYY-MM-DD HH:MM`). */
  when: string;
  zone: string;
}

/** What the queue says after an action, read from the event as it is now. */
export interface ReviewNotice {
  text: string;
  link?: { href: string; text: string };
}

/** A status in a sentence. */
export const STATUS_PHRASES: Record<string, string> = {
  publish: 'published',
  future: 'scheduled',
  draft: 'a draft',
  pending: 'pending review',
  private: 'private',
  trash: 'in the trash',
};

/**
 * The review queue's reads (editing.md §2 `/manage/review/`): the pending events, oldest first
 * by their publication date (when each was sent), through the events list's service (the API's
 * list, its visibility rules and its cache of totals) one page at a time; with each the version
 * its actions carry and the submitter the review hooks know. Also what the queue says after an
 * action, and an event's latest decline for its form.
 */
@Injectable()
export class ReviewQueue {
  constructor(
    private readonly events: EventsListService,
    private readonly rows: EventsRepository,
    private readonly presentation: EventPresentation,
    private readonly hooks: ReviewHooks,
    private readonly reviews: ReviewRepository,
    private readonly users: UsersService,
    private readonly config: AppConfig,
  ) {}

  /** How many events wait for review, as this user may list them (the cached count of the events list's Pending tab). */
  pendingCount(actor: Actor): Promise<number> {
    return this.events.count(actor, 'pending');
  }

  /** A page of the queue; a page past the end (the queue shrank) is the last page. */
  async page(actor: Actor, page: number): Promise<ReviewPage> {
    let listed = await this.read(actor, page);
    if (listed.rows.length === 0 && page > 1) {
      const last = Math.max(1, Math.ceil((await this.pendingCount(actor)) / REVIEW_PER_PAGE));
      if (last < page) {
        page = last;
        listed = await this.read(actor, page);
      }
    }
    const ids = listed.rows.map((r) => r.id);
    const [versions, submitters] = await Promise.all([this.versions(actor, ids), this.hooks.submitters(ids)]);
    // An event deleted for good between the list and its version has no version: it is left out.
    const rows = listed.rows.filter((r) => versions.has(r.id)).map((r) => ({ ...r, version: versions.get(r.id) ?? '', submitter: submitters.get(r.id) }));
    return { rows, total: listed.total, page, pages: Math.max(1, listed.pages), siteZone: this.config.timezone };
  }

  /**
   * What happened to the event an action named (`?approved=ID`, `?declined=ID`), said from
   * the event as it is now, so that the message never claims what did not happen.
   */
  async notice(query: Record<string, unknown>, formPath: (id: number) => string): Promise<ReviewNotice | undefined> {
    const approved = idOf(query.approved);
    const declined = idOf(query.declined);
    const id = approved ?? declined;
    if (id === undefined) return undefined;
    const event = await this.rows.findById(id);
    if (!event) return undefined;
    const title = `“${event.title || `Event ${id}`}”`;
    const link = { href: formPath(id), text: `Open ${title}` };
    if (approved !== undefined && event.status === 'publish') return { text: `${title} is approved and published.`, link };
    if (approved !== undefined && event.status === 'future') {
      return { text: `${title} is approved: it is scheduled for its publish date, ${this.siteTime(event.dateUtc)}.`, link };
    }
    if (declined !== undefined && event.status === 'trash' && (await this.reviews.latestDecline(id))) {
      return { text: `${title} is declined and in the trash; the reason is kept on its form.`, link };
    }
    return undefined;
  }

  /** The event's latest decline (who, when, why), or null. */
  async declineOf(eventId: number): Promise<DeclineNote | null> {
    const decline = await this.reviews.latestDecline(eventId);
    if (!decline) return null;
    const user = await this.users.findById(decline.declinedBy);
    return { reason: decline.reason, by: user?.login ?? `user ${decline.declinedBy}`, when: this.siteTime(decline.declinedUtc), zone: this.config.timezone };
  }

  private read(actor: Actor, page: number) {
    const pending = EventsListService.query;
    return this.events.page(actor, pending({ tab: 'pending', sort: 'submitted', page }), REVIEW_PER_PAGE);
  }

  /** Each event's version: the tag of its single GET for this reviewer (EventPresentation.singleBody), presented as one page. */
  private async versions(actor: Actor, ids: number[]): Promise<Map<number, string>> {
    const found: EventEntity[] = [];
    for (const id of ids) {
      const event = await this.rows.findById(id);
      if (event) found.push(event);
    }
    const bodies = await this.presentation.present(found, { jsonLd: true, actor });
    return new Map(found.map((event, i) => [event.id, tagOfJson(bodies[i])]));
  }

  private siteTime(utc: string): string {
    return utcToWall(utc, this.config.timezone).slice(0, 16);
  }
}

function idOf(value: unknown): number | undefined {
  return typeof value === 'string' && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}
