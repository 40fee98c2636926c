import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { stripTags } from '../common/text/autop';
import { AppConfig } from '../config/app-config';
import { SubmissionsRepository } from './submissions.repository';

/** How many submissions the list shows at once. */
const PER_PAGE = 20;

/** How a submitter reads an event's status. */
const STATUS_WORDS: Record<string, string> = {
  pending: 'Waiting for review',
  publish: 'Published',
  future: 'Scheduled',
  draft: 'Not published',
  private: 'Not published',
  trash: 'Declined',
};

/**
 * A signed-in user's own submissions (editing.md §4, `/events/community/list/`): each event's
 * title and where it stands, with a link to its page once it is public. The user reads them
 * here whatever the event's status, as their sender; nobody else's are listed.
 */
@Injectable()
export class SubmittedEvents {
  constructor(
    private readonly repository: SubmissionsRepository,
    private readonly config: AppConfig,
  ) {}

  async page(userId: number, page: number): Promise<Record<string, unknown>> {
    const total = await this.repository.countByUser(userId);
    const pages = Math.max(1, Math.ceil(total / PER_PAGE));
    const shown = Math.min(page, pages);
    const rows = await this.repository.byUser(userId, (shown - 1) * PER_PAGE, PER_PAGE);
    return {
      total,
      page: shown,
      pages,
      items: rows.map((r) => ({
        title: r.title === null ? '(removed)' : stripTags(r.title),
        status: r.status === null ? 'Removed' : (STATUS_WORDS[r.status] ?? r.status),
        url: r.status === 'publish' && r.slug ? `${this.config.publicUrl}/event/${r.slug}/` : null,
        sent: DateTime.fromSQL(r.submittedUtc, { zone: 'utc' }).setZone(this.config.timezone).toFormat('d LLL yyyy, HH:mm'),
      })),
    };
  }
}
