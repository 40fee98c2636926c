import { Injectable } from '@nestjs/common';
import { keptOptions, readEmbedLimit, readEmbedTheme } from './embed-options';
import { ListingPages } from './listing-pages';
import { pageNumber, PageView, pickFilters, Query } from './page-parts';
import { PageReads } from './page-reads';

/** Where a link of an embed opens: in the page that frames it, not in the frame. */
const TO_PARENT = '_top';

/**
 * The embeds (pages.md, "On other sites"): the list and the month grid made for an `<iframe>`
 * on another site, read as the pages read (the same filters, visibility and caches), in the
 * embed's layout (no site header or footer, the theme the site chose). Links to events and
 * days open in the parent page; the embed's own pages (pager, months) stay in the frame.
 */
@Injectable()
export class EmbedPages {
  constructor(
    private readonly reads: PageReads,
    private readonly listing: ListingPages,
  ) {}

  /** `/events/embed/`: upcoming events, `limit` a page, with the list's filters. */
  async list(query: Query): Promise<PageView> {
    const limit = readEmbedLimit(query);
    const theme = readEmbedTheme(query);
    const filters = pickFilters(query);
    const page = pageNumber(query);
    const found = await this.reads.eventList({ ...filters, page, per_page: limit });
    const full = this.reads.url('/events/', filters);
    return {
      view: 'embed-list',
      data: {
        title: 'Upcoming events',
        theme,
        target: TO_PARENT,
        canonical: full,
        full,
        events: found.events.map((e) => this.reads.listItem(e, undefined)),
        total: found.total,
        pager: this.reads.pager('/events/embed/', { ...filters, ...keptOptions({ limit, theme }) }, page, found.totalPages),
      },
    };
  }

  /** `/events/embed/month/` and `/events/embed/month/YYYY-MM/`: the month grid, its months in the frame. */
  async month(monthText: string | undefined, query: Query): Promise<PageView> {
    const theme = readEmbedTheme(query);
    const grid = await this.listing.monthGrid(monthText, query, { path: '/events/embed/month/', keep: keptOptions({ theme }) });
    return { view: 'month', data: { ...grid.data, embed: true, theme, target: TO_PARENT, full: grid.data.canonical } };
  }
}
