import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { WpError } from '../common/errors';
import { AppConfig } from '../config/app-config';
import { EventReader, ListEventsQueryDto } from '../events';
import { ListCategoriesQueryDto, TermsService } from '../taxonomies';
import { addressParts, EventJson, eventWhen, plain, shortTime } from './event-view';
import { Found, isItem, Json, MAX_PER_PAGE, notFound, PageError, parseJson, Query } from './page-parts';

/**
 * The reads every public page makes through the API's own services, as an anonymous caller (the
 * same visibility rules and caches, no query of its own), and the API's refusals turned into page
 * errors; plus the links and the list item every page words the same way.
 */
@Injectable()
export class PageReads {
  constructor(
    private readonly events: EventReader,
    private readonly terms: TermsService,
    private readonly config: AppConfig,
  ) {}

  /** An absolute link on the pages' origin (CALENDAR_SITE_URL, else {base_url}). */
  url(path: string, query: Query = {}): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    return `${this.config.publicUrl}${path}${qs === '' ? '' : `?${qs}`}`;
  }

  /** The links to the previous and next page of a paged list at `path` (with `query`), and which page of how many this is. */
  pager(path: string, query: Query, page: number, pages: number): Json {
    return {
      previous: page > 1 ? this.url(path, { ...query, page: page > 2 ? page - 1 : undefined }) : undefined,
      next: page < pages ? this.url(path, { ...query, page: page + 1 }) : undefined,
      page,
      pages,
    };
  }

  /** An event as a list or a grid cell shows it, with what its h-event (microformats) gives that the reader does not see there: the venue's address, the categories and tags. */
  listItem(e: EventJson, day: string | undefined): Json {
    const venue = isItem(e.venue) ? plain(e.venue.venue) : '';
    return {
      title: plain(e.title),
      url: e.url,
      when: eventWhen(e, this.config.timezone),
      time: shortTime(e, day),
      allDay: e.all_day,
      venue,
      adr: isItem(e.venue) ? addressParts(e.venue) : [],
      terms: [...(e.categories ?? []), ...(e.tags ?? [])].map((t) => plain(t.name)),
      cost: plain(e.cost ?? ''),
      excerpt: plain(e.excerpt ?? ''),
      featured: e.featured === true,
    };
  }

  /** The filter form: the search words and the category as a choice among the categories (parents count their children's events). */
  async filterForm(path: string, filters: Query): Promise<Json> {
    const listed = await this.terms.list('category', { per_page: MAX_PER_PAGE, hide_empty: false, orderby: 'name' } as ListCategoriesQueryDto, {
      hide_empty: 'false',
      orderby: 'name',
    });
    const categories = (parseJson(listed.body).categories as Json[]).map((c) => ({ slug: c.slug as string, name: plain(c.name) }));
    const chosen = typeof filters.categories === 'string' ? filters.categories : '';
    return {
      action: this.url(path),
      search: typeof filters.search === 'string' ? filters.search : '',
      categories: categories.map((c) => ({ ...c, selected: c.slug === chosen })),
      hidden: Object.entries(filters)
        .filter(([k]) => k !== 'search' && k !== 'categories')
        .map(([name, value]) => ({ name, value: String(value) })),
      active: Object.keys(filters).length > 0,
      clear: this.url(path),
    };
  }

  async findTerm(taxonomy: 'category' | 'tag', slug: string): Promise<Json | undefined> {
    const listed = await this.terms.list(taxonomy, { slug, per_page: 1, hide_empty: false } as ListCategoriesQueryDto, { slug, hide_empty: 'false' });
    return (parseJson(listed.body)[taxonomy === 'category' ? 'categories' : 'tags'] as Json[])[0];
  }

  /** The event list for these parameters (the API's grammar and rules), parsed. */
  async eventList(params: Query): Promise<Found> {
    const answer = await this.listed(params, (q, raw) => this.events.list(null, q, raw));
    return { events: parseJson(answer.body).events as EventJson[], total: answer.total, totalPages: answer.totalPages };
  }

  /** `read` with the list parameters `params`, checked as the API checks them; their errors as the page's. */
  async listed<T>(params: Query, read: (q: ListEventsQueryDto, raw: Query) => Promise<T>): Promise<T> {
    const q = plainToInstance(ListEventsQueryDto, params);
    if (validateSync(q, { whitelist: true, stopAtFirstError: true }).length > 0) throw new PageError(400, 'These filters are not valid.');
    try {
      return await read(q, params);
    } catch (err) {
      // A page past the last one is "not found"; an unknown category, tag, venue or organizer in the filters is a bad request.
      if (err instanceof WpError && err.status < 500) throw new PageError(err.status === 404 ? 404 : 400, err.message);
      throw err;
    }
  }

  /** A single read whose 4xx answer (unknown, hidden, trashed) is the 404 page. */
  async orNotFound<T>(read: Promise<T>): Promise<T> {
    try {
      return await read;
    } catch (err) {
      if (err instanceof WpError && err.status < 500) throw notFound();
      throw err;
    }
  }
}
