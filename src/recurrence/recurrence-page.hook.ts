import { Injectable } from '@nestjs/common';
import { Hook } from '../common/feature/hooks';
import { AppConfig } from '../config/app-config';
import { OUTER } from '../database/tx';
import { EVENT_PAGE_HOOKS, type PageHook } from '../pages';
import { describeRecurrence } from './describe';
import { linesOf } from './recurrence-event.hook';
import { parseRecurrence } from './recurrence-rule';
import { SeriesRepository } from './series.repository';
import { timingOfSeries } from './series-writer';

type Json = Record<string, unknown>;

/** How many of the next occurrences an occurrence's page links (recurrence.md §6). */
const NEXT_ON_PAGE = 5;

/** The recurrence extension's part of an event's public page (recurrence.md §6), while the pages are on. */
@Hook(EVENT_PAGE_HOOKS)
@Injectable()
export class RecurrencePageHook implements PageHook {
  constructor(
    private readonly repository: SeriesRepository,
    private readonly config: AppConfig,
  ) {}

  /** The occurrence's page (§6): the rule in words and links to the next occurrences. */
  async pageFragment(event: Json): Promise<string | null> {
    const ref = event.series as { id: number; utc_original_start: string } | null | undefined;
    if (!ref) return null;
    const series = await this.repository.findSeries(OUTER, ref.id);
    if (!series) return null;
    const timing = timingOfSeries(series);
    const words = describeRecurrence(parseRecurrence(linesOf(series.rule), timing), timing);
    const next = await this.repository.nextPublished(series.id, ref.utc_original_start, NEXT_ON_PAGE);
    const links = next.map((n) => `<li><a href="${escapeHtml(`${this.config.publicUrl}/event/${n.slug}/`)}">${escapeHtml(n.startDate.slice(0, 16))}</a></li>`);
    return (
      `<section class="recurrence"><p class="recurrence-rule">${escapeHtml(words)}</p>` +
      (links.length > 0 ? `<h2>Next occurrences</h2><ul class="recurrence-next">${links.join('')}</ul>` : '') +
      '</section>'
    );
  }
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
