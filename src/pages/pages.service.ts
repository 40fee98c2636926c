import { Injectable } from '@nestjs/common';
import type { IcalFile } from '../common/http/negotiation';
import { AppConfig, API_NAMESPACE } from '../config/app-config';
import { EventIcalService } from '../events';
import { ItemPages } from './item-pages';
import { ListingPages } from './listing-pages';
import { Json, ListingPage, PageView, pickFilters, Query } from './page-parts';
import { PageReads } from './page-reads';

export { PageError } from './page-parts';
export type { ListingPage, PageView, Query } from './page-parts';

/**
 * The public pages' data (pages.md), as the routes ask for it: a page by its route, its
 * `?ical=1` feed, and what every page's layout reads. The pages that list events are
 * ListingPages, those of one record ItemPages; both read through the API's own services.
 */
@Injectable()
export class PagesService {
  constructor(
    private readonly listing: ListingPages,
    private readonly items: ItemPages,
    private readonly reads: PageReads,
    private readonly ical: EventIcalService,
    private readonly config: AppConfig,
  ) {}

  /** An absolute link on the pages' origin (CALENDAR_SITE_URL, else {base_url}). */
  url(path: string, query: Query = {}): string {
    return this.reads.url(path, query);
  }

  /** The page's HTML. */
  view(page: ListingPage): Promise<PageView> {
    switch (page.kind) {
      case 'list':
        return this.listing.list(page.query);
      case 'month':
        return this.listing.month(page.month, page.query);
      case 'day':
        return this.listing.day(page.day, page.query);
      case 'term':
        return this.listing.term(page.taxonomy, page.segments, page.query);
      case 'venue':
        return this.items.venue(page.slug, page.query);
      case 'organizer':
        return this.items.organizer(page.slug, page.query);
    }
  }

  /**
   * The iCalendar feed of the events the page lists (compat.md, "TEC's public URLs"; ical.md's
   * feed): the page's filters and window (the list's default window, the days of the month's
   * grid, the day), without paging, as anonymous readers may see them.
   */
  async listingIcal(page: ListingPage): Promise<IcalFile> {
    const params = await this.listedEvents(page);
    return this.reads.listed(params, (q, raw) => this.ical.feed(null, q, raw, 'list', 'tec'));
  }

  /** The event list parameters of what the page lists, before paging: what its HTML and its feed are both read with. */
  private async listedEvents(page: ListingPage): Promise<Query> {
    switch (page.kind) {
      case 'list':
        return pickFilters(page.query);
      case 'month':
        return this.listing.monthOf(page.month, page.query).params;
      case 'day':
        return this.listing.dayOf(page.day, page.query).params;
      case 'term':
        return (await this.listing.termOf(page.taxonomy, page.segments)).params;
      case 'venue':
      case 'organizer':
        return (await this.items.linkedItemOf(page.kind, page.slug)).params;
    }
  }

  rss(query: Query): Promise<string> {
    return this.listing.rss(query);
  }

  list(query: Query): Promise<PageView> {
    return this.listing.list(query);
  }

  term(taxonomy: 'category' | 'tag', segments: string[], query: Query): Promise<PageView> {
    return this.listing.term(taxonomy, segments, query);
  }

  day(dayText: string, query: Query): Promise<PageView> {
    return this.listing.day(dayText, query);
  }

  month(monthText: string | undefined, query: Query): Promise<PageView> {
    return this.listing.month(monthText, query);
  }

  event(slug: string): Promise<PageView> {
    return this.items.event(slug);
  }

  venue(slug: string, query: Query): Promise<PageView> {
    return this.items.venue(slug, query);
  }

  organizer(slug: string, query: Query): Promise<PageView> {
    return this.items.organizer(slug, query);
  }

  /** The event's own iCalendar document (TEC's `/event/{slug}/ical/`), as anonymous readers may see it. */
  eventIcal(slug: string): Promise<IcalFile> {
    return this.reads.orNotFound(this.ical.bySlug(null, slug, 'tec'));
  }

  /** What every page's layout reads: the site's name, the navigation links, the stylesheet. */
  layout(): Json {
    return {
      siteTitle: this.config.siteTitle,
      home: this.url('/events/'),
      links: { list: this.url('/events/'), month: this.url('/events/month/'), day: this.url('/events/today/') },
      api: `${this.config.baseUrl}/${API_NAMESPACE}`,
      feed: `${this.config.apiRoot}/events.ics`,
      // TEC's RSS of upcoming events (compat.md), for feed readers that look for it in the head.
      rss: this.config.wpCompat ? this.url('/events/feed/') : undefined,
    };
  }
}
