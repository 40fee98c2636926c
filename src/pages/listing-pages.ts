import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { AppConfig } from '../config/app-config';
import { EventReader } from '../events';
import { embedSnippet } from './embed-options';
import { EventJson, plain } from './event-view';
import { coveredDates, monthWeeks, parseDay, parseMonth, weekdayNames } from './month-grid';
import {
  allDayFirst,
  CELL_EVENTS,
  cleanHtml,
  coveringDays,
  DAY_PER_PAGE,
  FEED_ITEMS,
  Found,
  Json,
  LIST_PER_PAGE,
  MONTH_WALK_LIMIT,
  notFound,
  pageNumber,
  PageView,
  pickFilters,
  Query,
  summary,
  utcDate,
} from './page-parts';
import { PageReads } from './page-reads';
import { rssDocument } from './rss';

/**
 * The public pages that list events (pages.md): the list, a term's list, a day, the month grid
 * and the RSS feed of upcoming events, each with the list's filters.
 */
@Injectable()
export class ListingPages {
  constructor(
    private readonly reads: PageReads,
    private readonly events: EventReader,
    private readonly config: AppConfig,
  ) {}

  /**
   * `/events/feed/` (compat.md, "TEC's public URLs"): RSS 2.0 of the upcoming events, as WordPress
   * serves a post type's feed: the list view's first events (with its filters), title, link (the
   * event's `url`), a plain-text summary and, as TEC writes it, the event's start as `pubDate`;
   * built when the latest of them was modified.
   */
  async rss(query: Query): Promise<string> {
    const filters = pickFilters(query);
    const { events } = await this.reads.eventList({ ...filters, page: 1, per_page: FEED_ITEMS });
    const modified = events.flatMap((e) => e.modified_utc ?? []).sort();
    return rssDocument(
      {
        title: `Upcoming events · ${this.config.siteTitle}`,
        link: this.reads.url('/events/', filters),
        self: this.reads.url('/events/feed/', filters),
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
    const found = await this.reads.eventList({ ...filters, page, per_page: LIST_PER_PAGE });
    // The `<iframe>` that shows this list (these filters) on another site (pages.md, "On other sites").
    const snippet = embedSnippet(this.reads.url('/events/embed/', filters), `Upcoming events · ${this.config.siteTitle}`);
    return this.listView('list', { title: 'Upcoming events', path: '/events/', filters, page, found, current: 'list', snippet });
  }

  /** `/events/category/…/` and `/tag/{slug}/`: the list restricted to one term. */
  async term(taxonomy: 'category' | 'tag', segments: string[], query: Query): Promise<PageView> {
    const { term, path, params } = await this.termOf(taxonomy, segments);
    const page = pageNumber(query);
    const found = await this.reads.eventList({ ...params, page, per_page: LIST_PER_PAGE });
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
  async termOf(taxonomy: 'category' | 'tag', segments: string[]): Promise<{ term: Json; path: string; params: Query }> {
    const slug = segments[segments.length - 1];
    const path = taxonomy === 'category' ? `/events/category/${segments.join('/')}/` : `/tag/${slug}/`;
    const term = await this.reads.findTerm(taxonomy, slug);
    // A nested category answers only at its own path (its parents' slugs before it).
    if (term === undefined || term.url !== this.reads.url(path)) throw notFound();
    return { term, path, params: { [taxonomy === 'category' ? 'categories' : 'tags']: String(term.id as number) } };
  }

  /** `/events/today/`, `/events/YYYY-MM-DD/`: every event that covers the day (site zone). */
  async day(dayText: string, query: Query): Promise<PageView> {
    const { day, date, filters, params } = this.dayOf(dayText, query);
    const page = pageNumber(query);
    const found = await this.reads.eventList({ ...params, page, per_page: DAY_PER_PAGE });
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
        previous: this.reads.url(`/events/${day.minus({ days: 1 }).toISODate()}/`, filters),
        next: this.reads.url(`/events/${day.plus({ days: 1 }).toISODate()}/`, filters),
        today: date === today ? undefined : this.reads.url('/events/today/', filters),
        month: this.reads.url(`/events/month/${day.toFormat('yyyy-MM')}/`, filters),
      },
    });
  }

  /** The day a day page shows (404 unless it is one), its filters, and its list parameters: the events covering it. */
  dayOf(dayText: string, query: Query): { day: DateTime; date: string; filters: Query; params: Query } {
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
        canonical: this.reads.url(path, page > 1 ? { ...filters, page } : filters),
        events: found.events.map((e) => this.reads.listItem(e, typeof rest.day === 'string' ? rest.day : undefined)),
        total: found.total,
        pager: this.reads.pager(path, filters, page, found.totalPages),
        form: await this.reads.filterForm(path, filters),
      },
    };
  }

  /** `/events/month/` and `/events/month/YYYY-MM/`: the month grid. */
  async month(monthText: string | undefined, query: Query): Promise<PageView> {
    const grid = await this.monthGrid(monthText, query, { path: '/events/month/', keep: {} });
    const form = await this.reads.filterForm(`/events/month/${monthText === undefined ? '' : `${grid.key}/`}`, grid.filters);
    return { view: 'month', data: { ...grid.data, current: 'month', form } };
  }

  /**
   * A month grid's template data (the month pages' and the embed's): its weeks, each day with
   * its events and a link to its day page, and the links to the previous, next and current
   * month under `links.path`, with the filters and `links.keep` (what else those links carry on).
   */
  async monthGrid(monthText: string | undefined, query: Query, links: { path: string; keep: Query }): Promise<{ key: string; filters: Query; data: Json }> {
    const { now, month, weeks, filters, first, last, params } = this.monthOf(monthText, query);
    const byDay = await this.eventsByDay(first, last, params);
    const today = now.toISODate();
    const key = month.toFormat('yyyy-MM');
    // A multi-day event shows on each day it covers, but is one h-event (microformats): in the
    // first cell that shows it, so that a reader of the page finds each event once, as in the API.
    const marked = new Set<number>();
    const firstShown = (id: number): boolean => {
      if (marked.has(id)) return false;
      marked.add(id);
      return true;
    };
    const along = { ...filters, ...links.keep };
    const data = {
      title: `Events in ${month.toFormat('LLLL yyyy')}`,
      monthName: month.toFormat('LLLL yyyy'),
      canonical: this.reads.url(`/events/month/${key}/`, filters),
      weekdays: weekdayNames(this.config.weekStart),
      weeks: weeks.map((week) =>
        week.map((d) => {
          const cell = byDay.get(d.date) ?? { events: [], total: 0 };
          return {
            ...d,
            isToday: d.date === today,
            label: DateTime.fromISO(d.date).toFormat('cccc d LLLL'),
            link: this.reads.url(`/events/${d.date}/`, filters),
            events: cell.events.slice(0, CELL_EVENTS).map((e) => ({ ...this.reads.listItem(e, d.date), hEvent: firstShown(e.id) })),
            more: Math.max(0, cell.total - CELL_EVENTS),
          };
        }),
      ),
      nav: {
        previous: this.reads.url(`${links.path}${month.minus({ months: 1 }).toFormat('yyyy-MM')}/`, along),
        previousName: month.minus({ months: 1 }).toFormat('LLLL yyyy'),
        next: this.reads.url(`${links.path}${month.plus({ months: 1 }).toFormat('yyyy-MM')}/`, along),
        nextName: month.plus({ months: 1 }).toFormat('LLLL yyyy'),
        today: key === now.toFormat('yyyy-MM') ? undefined : this.reads.url(links.path, along),
      },
    };
    return { key, filters, data };
  }

  /** The month a month page shows (404 unless it is one), its grid, its filters, and its list parameters: the events covering the grid's days. */
  monthOf(monthText: string | undefined, query: Query) {
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
    const spans = await this.reads.listed(params, (q, raw) => this.events.spans(null, q, raw));
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
}
