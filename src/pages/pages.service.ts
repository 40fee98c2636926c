import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DateTime } from 'luxon';
import { sanitizeHtml } from '../common/text/sanitize';
import { WpError } from '../common/errors';
import type { JsonText } from '../common/pagination';
import { AppConfig, API_NAMESPACE } from '../config/app-config';
import { EventCalendarService, EventExtensions, EventReader, ListEventsQueryDto } from '../events';
import type { CalendarFile } from '../common/http/negotiation';
import { OrganizerExtensions, OrganizersService } from '../organizers';
import { ListCategoriesQueryDto, TaxonomiesService } from '../taxonomies';
import { VenueExtensions, VenuesService } from '../venues';
import { EventJson, eventWhen, googleCalendarLink, mapLink, plain, scriptJson, shortTime, venueAddress } from './event-view';
import { coveredDates, monthWeeks, parseDay, parseMonth, weekdayNames } from './month-grid';
import { rssDocument } from './rss';

type Json = Record<string, unknown>;
export type Query = Record<string, unknown>;

/** A page to render: its template and what the template reads. */
export interface PageView {
  view: string;
  data: Json;
}

/**
 * A page that lists events, as its route names it. Each also answers `?ical=1` with the feed of
 * the events it lists (compat.md, "TEC's public URLs"): PagesService.view renders it, .calendar
 * writes its feed, both from the same list parameters.
 */
export type ListingPage =
  | { kind: 'list'; query: Query }
  | { kind: 'month'; month: string | undefined; query: Query }
  | { kind: 'day'; day: string; query: Query }
  | { kind: 'term'; taxonomy: 'category' | 'tag'; segments: string[]; query: Query }
  | { kind: 'venue' | 'organizer'; slug: string; query: Query };

/** A page that cannot be shown: 404 for what does not exist or an anonymous reader may not see, 400 for filters that make no sense. */
export class PageError extends Error {
  constructor(
    readonly status: 404 | 400,
    message: string,
  ) {
    super(message);
  }
}

/** The list filters a page passes on to the event list, in the API's grammar (pages.md). */
const FILTERS = ['search', 'categories', 'tags', 'venue', 'organizer'] as const;
const LIST_PER_PAGE = 10;
const DAY_PER_PAGE = 20;
/** Events a grid cell shows before "N more". */
const CELL_EVENTS = 3;
/** A month with at most this many events is read in one list walk; a busier one is read day by day. */
const MONTH_WALK_LIMIT = 200;
/** The list's largest page (per_page is clamped to it). */
const MAX_PER_PAGE = 50;
/** Items of the RSS feed: WordPress's default `posts_per_rss`. */
const FEED_ITEMS = 10;

/**
 * The public pages' data (pages.md), read through the API's own services as an anonymous
 * caller: the same visibility rules and the same caches, no query of its own. Every item and
 * list is the JSON the API answers, parsed, plus what a reader needs worded (dates, links).
 */
@Injectable()
export class PagesService {
  constructor(
    private readonly events: EventReader,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly taxonomies: TaxonomiesService,
    private readonly config: AppConfig,
    private readonly eventExtensions: EventExtensions,
    private readonly venueExtensions: VenueExtensions,
    private readonly organizerExtensions: OrganizerExtensions,
    private readonly calendars: EventCalendarService,
  ) {}

  /** An absolute link on the pages' origin (CALENDAR_SITE_URL, else {base_url}). */
  url(path: string, query: Query = {}): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    return `${this.config.publicUrl}${path}${qs === '' ? '' : `?${qs}`}`;
  }

  // ---------------------------------------------------------------- pages that list events

  /** The page's HTML. */
  view(page: ListingPage): Promise<PageView> {
    switch (page.kind) {
      case 'list':
        return this.list(page.query);
      case 'month':
        return this.month(page.month, page.query);
      case 'day':
        return this.day(page.day, page.query);
      case 'term':
        return this.term(page.taxonomy, page.segments, page.query);
      case 'venue':
        return this.venue(page.slug, page.query);
      case 'organizer':
        return this.organizer(page.slug, page.query);
    }
  }

  /**
   * The iCalendar feed of the events the page lists (compat.md, "TEC's public URLs"; ical.md's
   * feed): the page's filters and window (the list's default window, the days of the month's
   * grid, the day), without paging, as anonymous readers may see them.
   */
  async calendar(page: ListingPage): Promise<CalendarFile> {
    const params = await this.listedEvents(page);
    return this.listed(params, (q, raw) => this.calendars.feed(null, q, raw, 'list', 'tec'));
  }

  /** The event list parameters of what the page lists, before paging: what its HTML and its feed are both read with. */
  private async listedEvents(page: ListingPage): Promise<Query> {
    switch (page.kind) {
      case 'list':
        return pickFilters(page.query);
      case 'month':
        return this.monthOf(page.month, page.query).params;
      case 'day':
        return this.dayOf(page.day, page.query).params;
      case 'term':
        return (await this.termOf(page.taxonomy, page.segments)).params;
      case 'venue':
      case 'organizer':
        return (await this.linkedItemOf(page.kind, page.slug)).params;
    }
  }

  // ---------------------------------------------------------------- list views

  /**
   * `/events/feed/` (compat.md, "TEC's public URLs"): RSS 2.0 of the upcoming events, as WordPress
   * serves a post type's feed: the list view's first events (with its filters), title, link (the
   * event's `url`), a plain-text summary and, as TEC writes it, the event's start as `pubDate`;
   * built when the latest of them was modified.
   */
  async rss(query: Query): Promise<string> {
    const filters = pickFilters(query);
    const { events } = await this.eventList({ ...filters, page: 1, per_page: FEED_ITEMS });
    const modified = events.flatMap((e) => e.modified_utc ?? []).sort();
    return rssDocument(
      {
        title: `Upcoming events · ${this.config.siteTitle}`,
        link: this.url('/events/', filters),
        self: this.url('/events/feed/', filters),
        description: `The upcoming events of ${this.config.siteTitle}`,
        updated: modified.length > 0 ? utcDate(modified[modified.length - 1]) : new Date(),
      },
      events.map((e) => ({
        title: plain(e.title),
        link: e.url,
        description: summary(e),
        pubDate: utcDate(e.utc_start_date),
        categories: (e.categories ?? []).map((c) => plain(c.name)),
      })),
    );
  }

  /** `/events/`: upcoming events, 10 a page, with the list's filters. */
  async list(query: Query): Promise<PageView> {
    const filters = pickFilters(query);
    const page = pageNumber(query);
    const found = await this.eventList({ ...filters, page, per_page: LIST_PER_PAGE });
    return this.listView('list', { title: 'Upcoming events', path: '/events/', filters, page, found, current: 'list' });
  }

  /** `/events/category/…/` and `/tag/{slug}/`: the list restricted to one term. */
  async term(taxonomy: 'category' | 'tag', segments: string[], query: Query): Promise<PageView> {
    const { term, path, params } = await this.termOf(taxonomy, segments);
    const page = pageNumber(query);
    const found = await this.eventList({ ...params, page, per_page: LIST_PER_PAGE });
    const label = taxonomy === 'category' ? 'Category' : 'Tag';
    return this.listView('term', {
      title: `${label}: ${plain(term.name)}`,
      path,
      filters: {},
      page,
      found,
      current: 'list',
      term: { label, name: plain(term.name), description: cleanHtml(term.description) },
    });
  }

  /** A term page's term (404 unless it is at this path) and its list parameters. */
  private async termOf(taxonomy: 'category' | 'tag', segments: string[]): Promise<{ term: Json; path: string; params: Query }> {
    const slug = segments[segments.length - 1];
    const path = taxonomy === 'category' ? `/events/category/${segments.join('/')}/` : `/tag/${slug}/`;
    const term = await this.findTerm(taxonomy, slug);
    // A nested category answers only at its own path (its parents' slugs before it).
    if (term === undefined || term.url !== this.url(path)) throw notFound();
    return { term, path, params: { [taxonomy === 'category' ? 'categories' : 'tags']: String(term.id as number) } };
  }

  /** `/events/today/`, `/events/YYYY-MM-DD/`: every event that covers the day (site zone). */
  async day(dayText: string, query: Query): Promise<PageView> {
    const { day, date, filters, params } = this.dayOf(dayText, query);
    const page = pageNumber(query);
    const found = await this.eventList({ ...params, page, per_page: DAY_PER_PAGE });
    found.events.sort(allDayFirst);
    const today = DateTime.now().setZone(this.config.timezone).toISODate();
    return this.listView('day', {
      title: `Events on ${day.toFormat('cccc d LLLL yyyy')}`,
      path: `/events/${date}/`,
      filters,
      page,
      found,
      current: 'day',
      day: date,
      nav: {
        previous: this.url(`/events/${day.minus({ days: 1 }).toISODate()}/`, filters),
        next: this.url(`/events/${day.plus({ days: 1 }).toISODate()}/`, filters),
        today: date === today ? undefined : this.url('/events/today/', filters),
        month: this.url(`/events/month/${day.toFormat('yyyy-MM')}/`, filters),
      },
    });
  }

  /** The day a day page shows (404 unless it is one), its filters, and its list parameters: the events covering it. */
  private dayOf(dayText: string, query: Query): { day: DateTime; date: string; filters: Query; params: Query } {
    const zone = this.config.timezone;
    const day = dayText === 'today' ? DateTime.now().setZone(zone).startOf('day') : parseDay(dayText, zone);
    if (day === null) throw notFound();
    const filters = pickFilters(query);
    const date = day.toISODate()!;
    return { day, date, filters, params: { ...filters, ...coveringDays(date, date) } };
  }

  /** A list page's template data: the events worded for a list, the pager, the filter form. */
  private async listView(
    view: string,
    p: { title: string; path: string; filters: Query; page: number; found: Found; current: string; [extra: string]: unknown },
  ): Promise<PageView> {
    const { found, filters, page, path, ...rest } = p;
    return {
      view,
      data: {
        ...rest,
        canonical: this.url(path, page > 1 ? { ...filters, page } : filters),
        events: found.events.map((e) => this.listItem(e, typeof rest.day === 'string' ? rest.day : undefined)),
        total: found.total,
        pager: {
          previous: page > 1 ? this.url(path, { ...filters, page: page > 2 ? page - 1 : undefined }) : undefined,
          next: page < found.totalPages ? this.url(path, { ...filters, page: page + 1 }) : undefined,
          page,
          pages: found.totalPages,
        },
        form: await this.filterForm(path, filters),
      },
    };
  }

  // ---------------------------------------------------------------- month

  /** `/events/month/` and `/events/month/YYYY-MM/`: the month grid. */
  async month(monthText: string | undefined, query: Query): Promise<PageView> {
    const { now, month, weeks, filters, first, last, params } = this.monthOf(monthText, query);
    const byDay = await this.eventsByDay(first, last, params);
    const today = now.toISODate();
    const key = month.toFormat('yyyy-MM');
    return {
      view: 'month',
      data: {
        title: `Events in ${month.toFormat('LLLL yyyy')}`,
        monthName: month.toFormat('LLLL yyyy'),
        current: 'month',
        canonical: this.url(`/events/month/${key}/`, filters),
        weekdays: weekdayNames(this.config.weekStart),
        weeks: weeks.map((week) =>
          week.map((d) => {
            const cell = byDay.get(d.date) ?? { events: [], total: 0 };
            return {
              ...d,
              isToday: d.date === today,
              label: DateTime.fromISO(d.date).toFormat('cccc d LLLL'),
              link: this.url(`/events/${d.date}/`, filters),
              events: cell.events.slice(0, CELL_EVENTS).map((e) => this.listItem(e, d.date)),
              more: Math.max(0, cell.total - CELL_EVENTS),
            };
          }),
        ),
        nav: {
          previous: this.url(`/events/month/${month.minus({ months: 1 }).toFormat('yyyy-MM')}/`, filters),
          previousName: month.minus({ months: 1 }).toFormat('LLLL yyyy'),
          next: this.url(`/events/month/${month.plus({ months: 1 }).toFormat('yyyy-MM')}/`, filters),
          nextName: month.plus({ months: 1 }).toFormat('LLLL yyyy'),
          today: key === now.toFormat('yyyy-MM') ? undefined : this.url('/events/month/', filters),
        },
        form: await this.filterForm(`/events/month/${monthText === undefined ? '' : `${key}/`}`, filters),
      },
    };
  }

  /** The month a month page shows (404 unless it is one), its grid, its filters, and its list parameters: the events covering the grid's days. */
  private monthOf(monthText: string | undefined, query: Query) {
    const zone = this.config.timezone;
    const now = DateTime.now().setZone(zone);
    const month = monthText === undefined ? now.startOf('month') : parseMonth(monthText, zone);
    if (month === null) throw notFound();
    const filters = pickFilters(query);
    const weeks = monthWeeks(month, this.config.weekStart);
    const first = weeks[0][0].date;
    const last = weeks[weeks.length - 1][6].date;
    return { now, month, weeks, filters, first, last, params: { ...filters, ...coveringDays(first, last) } };
  }

  /**
   * The events of each day from `first` to `last` (site zone), all-day ones first, and how many
   * each day has, from one list query over the whole span (`params`: those covering it) (the matching events' ids and dates,
   * EventReader.spans), split by day here; only the events shown are presented. A quiet month
   * (at most MONTH_WALK_LIMIT events) shows each day's events all-day first; a busy one each day's
   * first CELL_EVENTS in list order (all-day first among them), as a list of that day would.
   */
  private async eventsByDay(first: string, last: string, params: Query): Promise<Map<string, { events: EventJson[]; total: number }>> {
    const spans = await this.listed(params, (q, raw) => this.events.spans(null, q, raw));
    const quiet = spans.length <= MONTH_WALK_LIMIT;
    const dates: string[] = [];
    for (let d = DateTime.fromISO(first); d.toISODate()! <= last; d = d.plus({ days: 1 })) dates.push(d.toISODate()!);
    // Each day's events in list order: an event is placed on the days it covers (coveredDates, the rule the window selected it by).
    const covering = new Map(dates.map((date) => [date, [] as number[]]));
    for (const span of spans) {
      const covered = coveredDates(span.start, span.end);
      for (let i = Math.max(0, dates.indexOf(covered.first)); i < dates.length && dates[i] <= covered.last; i++) {
        if (dates[i] >= covered.first) covering.get(dates[i])!.push(span.id);
      }
    }
    const shown = quiet ? spans.map((s) => s.id) : [...new Set([...covering.values()].flatMap((ids) => ids.slice(0, CELL_EVENTS)))];
    const items = new Map((await this.events.listedItems(shown)).map((e) => [e.id as number, e as unknown as EventJson]));
    const days = new Map<string, { events: EventJson[]; total: number }>();
    for (const [date, ids] of covering) {
      const events = (quiet ? ids : ids.slice(0, CELL_EVENTS)).flatMap((id) => items.get(id) ?? []).sort(allDayFirst);
      days.set(date, { events, total: ids.length });
    }
    return days;
  }

  // ---------------------------------------------------------------- single items

  /** The event's own iCalendar document (TEC's `/event/{slug}/ical/`), as anonymous readers may see it. */
  eventCalendar(slug: string): Promise<CalendarFile> {
    return this.orNotFound(this.calendars.bySlug(null, slug, 'tec'));
  }

  /** `/event/{slug}/`: one event, as an anonymous API reader sees it. */
  async event(slug: string): Promise<PageView> {
    const e = parseJson(await this.orNotFound(this.events.getBySlug(null, slug))) as unknown as EventJson;
    const venue = isItem(e.venue) ? this.venueView(e.venue) : undefined;
    const when = eventWhen(e, this.config.timezone);
    return {
      view: 'event',
      data: {
        title: plain(e.title),
        description: summary(e),
        canonical: e.url,
        image: e.image || undefined,
        current: 'event',
        event: {
          title: plain(e.title),
          when,
          siteZone: this.config.timezone,
          cost: plain(e.cost ?? ''),
          body: cleanHtml(e.description),
          website: e.website && e.website !== e.url ? e.website : undefined,
          featured: e.featured === true,
          categories: (e.categories ?? []).map((t) => ({ name: plain(t.name), url: t.url })),
          tags: (e.tags ?? []).map((t) => ({ name: plain(t.name), url: t.url })),
          organizers: (e.organizer ?? []).filter(isItem).map((o) => this.organizerView(o)),
          venue,
          ics: `${this.config.apiRoot}/events/${e.id}.ics`,
          google: googleCalendarLink(e, venue ? [venue.name, venue.address].filter(Boolean).join(', ') : ''),
          month: this.url(`/events/month/${e.start_date.slice(0, 7)}/`),
          // The extensions' own HTML (pages.md), escaped by them, from the event as the API shows it.
          fragments: await this.eventExtensions.pageFragments(e as unknown as Json),
        },
        jsonLd: e.json_ld ? scriptJson(e.json_ld) : undefined,
      },
    };
  }

  /** `/venue/{slug}/`: the venue and its upcoming events. */
  async venue(slug: string, query: Query): Promise<PageView> {
    const { item, params } = await this.linkedItemOf('venue', slug);
    return this.linkedItemPage('venue', item, this.venueView(item), params, query);
  }

  /** `/organizer/{slug}/`: the organizer and their upcoming events. */
  async organizer(slug: string, query: Query): Promise<PageView> {
    const { item, params } = await this.linkedItemOf('organizer', slug);
    return this.linkedItemPage('organizer', item, this.organizerView(item), params, query);
  }

  /** A venue or organizer as anonymous readers see it (404 otherwise), and the list parameters of its events. */
  private async linkedItemOf(kind: 'venue' | 'organizer', slug: string): Promise<{ item: Json; params: Query }> {
    const item = await this.orNotFound((kind === 'venue' ? this.venues : this.organizers).items.get(null, { slug }));
    return { item, params: { [kind]: String(item.id as number) } };
  }

  private async linkedItemPage(kind: 'venue' | 'organizer', item: Json, view: Json, params: Query, query: Query): Promise<PageView> {
    const page = pageNumber(query);
    const found = await this.eventList({ ...params, page, per_page: LIST_PER_PAGE });
    const path = new URL(item.url as string).pathname.slice(new URL(this.config.publicUrl).pathname.replace(/\/$/, '').length);
    return {
      view: kind,
      data: {
        title: plain(item[kind]),
        description: plain(item.excerpt) || plain(item.description).slice(0, 200),
        canonical: this.url(path, page > 1 ? { page } : {}),
        image: item.image || undefined,
        current: kind,
        item: {
          ...view,
          body: cleanHtml(item.description),
          fragments: (kind === 'venue' ? this.venueExtensions : this.organizerExtensions).pageFragments(item),
        },
        events: found.events.map((e) => this.listItem(e, undefined)),
        total: found.total,
        pager: {
          previous: page > 1 ? this.url(path, { page: page > 2 ? page - 1 : undefined }) : undefined,
          next: page < found.totalPages ? this.url(path, { page: page + 1 }) : undefined,
          page,
          pages: found.totalPages,
        },
        jsonLd: item.json_ld ? scriptJson(item.json_ld) : undefined,
      },
    };
  }

  private venueView(v: Json): { name: string; url: string; address: string; phone: string; website?: string; map?: string } {
    return {
      name: plain(v.venue),
      url: v.url as string,
      address: venueAddress(v),
      phone: plain(v.phone),
      website: safeLink(v.website),
      map: mapLink(v),
    };
  }

  private organizerView(o: Json): { name: string; url: string; phone: string; email?: string; website?: string } {
    const email = plain(o.email);
    return {
      name: plain(o.organizer),
      url: o.url as string,
      phone: plain(o.phone),
      email: /^[^\s@<>"]+@[^\s@<>"]+$/.test(email) ? email : undefined,
      website: safeLink(o.website),
    };
  }

  // ---------------------------------------------------------------- shared pieces

  /** An event as a list or a grid cell shows it. */
  private listItem(e: EventJson, day: string | undefined): Json {
    const venue = isItem(e.venue) ? plain(e.venue.venue) : '';
    return {
      title: plain(e.title),
      url: e.url,
      when: eventWhen(e, this.config.timezone),
      time: shortTime(e, day),
      allDay: e.all_day,
      venue,
      cost: plain(e.cost ?? ''),
      excerpt: plain(e.excerpt ?? ''),
      featured: e.featured === true,
    };
  }

  /** The filter form: the search words and the category as a choice among the categories (parents count their children's events). */
  private async filterForm(path: string, filters: Query): Promise<Json> {
    const listed = await this.taxonomies.list('category', { per_page: MAX_PER_PAGE, hide_empty: false, orderby: 'name' } as ListCategoriesQueryDto, {
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

  private async findTerm(taxonomy: 'category' | 'tag', slug: string): Promise<Json | undefined> {
    const listed = await this.taxonomies.list(taxonomy, { slug, per_page: 1, hide_empty: false } as ListCategoriesQueryDto, { slug, hide_empty: 'false' });
    return (parseJson(listed.body)[taxonomy === 'category' ? 'categories' : 'tags'] as Json[])[0];
  }

  /** The event list for these parameters (the API's grammar and rules), parsed. */
  private async eventList(params: Query): Promise<Found> {
    const answer = await this.listed(params, (q, raw) => this.events.list(null, q, raw));
    return { events: parseJson(answer.body).events as EventJson[], total: answer.total, totalPages: answer.totalPages };
  }

  /** `read` with the list parameters `params`, checked as the API checks them; their errors as the page's. */
  private async listed<T>(params: Query, read: (q: ListEventsQueryDto, raw: Query) => Promise<T>): Promise<T> {
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
  private async orNotFound<T>(read: Promise<T>): Promise<T> {
    try {
      return await read;
    } catch (err) {
      if (err instanceof WpError && err.status < 500) throw notFound();
      throw err;
    }
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

interface Found {
  events: EventJson[];
  total: number;
  totalPages: number;
}

const notFound = () => new PageError(404, 'This page does not exist, or it is not public.');

function parseJson(body: Json | JsonText | { bytes: Buffer }): Json {
  return 'bytes' in body && Buffer.isBuffer(body.bytes) ? (JSON.parse(body.bytes.toString()) as Json) : (body as Json);
}

const isItem = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The list parameters of pages.md that a page passes on, as the reader wrote them. */
function pickFilters(query: Query): Query {
  const out: Query = {};
  for (const key of FILTERS) {
    const value = query[key];
    if (typeof value === 'string' && value.trim() !== '') out[key] = value.trim();
  }
  return out;
}

function pageNumber(query: Query): number {
  const n = typeof query.page === 'string' && /^\d{1,6}$/.test(query.page) ? Number(query.page) : 1;
  return n >= 1 ? n : 1;
}

/** Window parameters for "covers one of the days from `first` to `last`" (site zone; strict so that the bounds are exact). */
function coveringDays(first: string, last: string): Query {
  return { strict_dates: 'true', starts_before: `${last} 23:59:59`, ends_after: `${first} 00:00:01` };
}

/** All-day events first, then by start (pages.md: month and day views). */
function allDayFirst(a: EventJson, b: EventJson): number {
  if (a.all_day !== b.all_day) return a.all_day ? -1 : 1;
  return a.utc_start_date < b.utc_start_date ? -1 : a.utc_start_date > b.utc_start_date ? 1 : a.id - b.id;
}

/** Stored HTML cleaned once more on its way into a page (it was cleaned on write; a page does not rely on that). */
function cleanHtml(html: unknown): string {
  return typeof html === 'string' ? sanitizeHtml(html) : '';
}

/** An http(s) link, or undefined (a `javascript:` website never becomes a link). */
function safeLink(value: unknown): string | undefined {
  return typeof value === 'string' && /^https?:\/\/[^\s<>"]+$/i.test(value) ? value : undefined;
}

/** An instant the API writes in UTC (`utc_start_date`, `modified_utc`). */
function utcDate(sql: string): Date {
  return DateTime.fromSQL(sql, { zone: 'utc' }).toJSDate();
}

function summary(e: EventJson): string {
  const text = plain(e.excerpt ?? '') || plain(e.description ?? '');
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}
