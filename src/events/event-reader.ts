import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { currentLinks } from '../common/http/api-links';
import { Actor, canRead } from '../common/auth';
import { formatSql } from '../common/datetime/format';
import { invalidParams, PARAM_MESSAGES } from '../common/errors';
import { listVisibility } from '../items';
import { UNKNOWN_TERM_MESSAGE } from '../taxonomies';
import { JsonText, ListPage, ListPipeline, modifiedAfterUtc, presentCached, rawParam } from '../common/pagination';
import { NamedCache, ReadModel } from '../common/cache/read-model';
import { AppConfig } from '../config/app-config';
import type { ListEventsQueryDto } from './dto/list-events.query.dto';
import { EventEntity } from './entities/event.entity';
import { EventPresentation } from './event-presentation';
import { DateWindows } from './date-windows';
import { EventListHooks } from './event-list-hooks';
import { EventListLookups } from './event-list-lookups';
import { eventNoLongerAvailable, eventNotAccessible, eventPageNotFound, geoDisabled, invalidEventId, ticketsNotActive } from './events.errors';
import type { EventListFilters, EventListOrder, EventQueryExtension } from './events.filters';
import { searchWords } from './events.filters';
import { searchTokens } from './search-grams';
import { EventListRepository, EventSpan } from './event-list.repository';
import { ScheduledPublisher } from './scheduled-publisher';

type Json = Record<string, unknown>;

/** The default date window of a calendar feed: the feed's (ical.md, 30 days back to a year ahead) or the list's. */
export type FeedWindow = 'feed' | 'list';

const GEO_PARAMS = ['geoloc', 'geoloc_lat', 'geoloc_lng'];
/** List parameters echoed into rest_url when the client gave them (spec resources.md §8.2, with our Deviation). */
const ECHOED_PARAMS = [
  'strict_dates',
  'starts_before',
  'starts_after',
  'ends_before',
  'ends_after',
  'search',
  'categories',
  'tags',
  'venue',
  'organizer',
  'featured',
  'status',
  'include',
  'post_parent',
  'ticketed',
  'modified_after',
];
/**
 * Reading and listing events (spec endpoints.md §4.1, §4.2), with the read model's caches of
 * lookups, search plans and presented events. Reads never write: a scheduled event whose date
 * has passed is shown as published (ScheduledPublisher.dueCutoff) until the publisher stores it.
 */
@Injectable()
export class EventReader {
  /** Search plans by search tokens: candidate ids (≤ FEW_SEARCH_CANDIDATES) or `index`. */
  private readonly searchPlans: NamedCache<number[] | 'index'>;
  /** Presented list items by id, as UTF-8 JSON (outside the JS heap). */
  private readonly listed: NamedCache<Buffer>;
  /** Single reads as an anonymous reader sees them, by id or slug, as UTF-8 JSON. */
  private readonly singles: NamedCache<Buffer>;
  private readonly pipeline: ListPipeline;
  /** Date windows by their parameters' values (parsing them costs more than a cached list's other work). */
  private readonly windows: DateWindows;

  constructor(
    private readonly events: EventListRepository,
    private readonly presentation: EventPresentation,
    private readonly lookups: EventListLookups,
    private readonly listHooks: EventListHooks,
    private readonly publisher: ScheduledPublisher,
    private readonly config: AppConfig,
    private readonly readModel: ReadModel,
  ) {
    this.searchPlans = readModel.cache('events.search');
    this.listed = readModel.cache('events.listed');
    this.singles = readModel.cache('events.singles');
    this.pipeline = new ListPipeline(readModel, 'events', config.baseUrl);
    this.windows = new DateWindows(config.timezone);
  }

  // ---------------------------------------------------------------- list

  /** `editing`: what the editing pages add to the API's grammar (their orders, hidden events listed). */
  async list(actor: Actor | null, q: ListEventsQueryDto, raw: Json, editing: EditingListOptions = {}): Promise<ListPage<JsonText>> {
    const { filters, extra, echo, plan } = await this.listQuery(actor, q, raw, editing);
    const hookKey = this.listHooks.all().flatMap((h) => h.params.map((p) => raw[p]));

    const page = q.page ?? 1;
    const perPage = q.per_page ?? 10;
    const params: Record<string, string> = { page: String(page), per_page: String(perPage), ...echo };
    for (const key of [...ECHOED_PARAMS, ...this.listHooks.all().flatMap((h) => h.params)]) {
      const text = rawParam(raw[key]);
      if (text !== undefined && !(key in params)) params[key] = text;
    }
    return this.pipeline.answer({
      page,
      perPage,
      filterKey: JSON.stringify([filters, hookKey]),
      count: () => this.events.countMatching({ ...filters, searchCandidates: plan }, extra),
      pageIds: (offset, limit) => this.events.pageIds(walkFilters(filters, plan), offset, limit, extra),
      present: (ids) => this.presentListed(ids),
      pageNotFound: eventPageNotFound,
      params,
      layout: 'items-first',
    });
  }

  /**
   * How many events the list gives for these parameters and caller, from the cache of the lists'
   * totals (per filter set and data version): the editing pages' tab counts, which a list of the
   * same filters shares.
   */
  async count(actor: Actor | null, q: ListEventsQueryDto, raw: Json, editing: EditingListOptions = {}): Promise<number> {
    const { filters, extra, plan } = await this.listQuery(actor, q, raw, editing);
    const hookKey = this.listHooks.all().flatMap((h) => h.params.map((p) => raw[p]));
    return this.pipeline.total(JSON.stringify([filters, hookKey]), () => this.events.countMatching({ ...filters, searchCandidates: plan }, extra));
  }

  /**
   * The calendar feed's events (ical.md, Export): what the list gives for the same parameters
   * and caller, without paging, in a window from 30 days ago to a year ahead unless start_date
   * or end_date say otherwise (`include` has no window); at most CALENDAR_ICS_MAX_EVENTS of
   * them, those whose start is nearest to now (nearestFirst), in list order. Presented as the
   * list presents them. `window: 'list'`: the list's own default window instead (a public page's
   * feed lists what the page lists, compat.md "TEC's public URLs").
   */
  async icalEvents(actor: Actor | null, q: ListEventsQueryDto, raw: Json, window: FeedWindow = 'feed'): Promise<Json[]> {
    const now = DateTime.utc().setZone(this.config.timezone);
    const windowed: ListEventsQueryDto =
      q.include !== undefined || window === 'list'
        ? q
        : { ...q, start_date: q.start_date ?? formatSql(now.minus({ days: 30 })), end_date: q.end_date ?? formatSql(now.plus({ years: 1 })) };
    const { filters, extra, plan } = await this.listQuery(actor, windowed, raw);
    const ids = await this.events.nearestIds(walkFilters(filters, plan), formatSql(now), this.config.icsMaxEvents, extra);
    return this.listedItems(ids);
  }

  /**
   * Every event the list gives for these parameters and caller, as id and wall dates, in list
   * order, in one query and without paging or presenting them: for a calendar grid, which places
   * them on its days and presents only those it shows (listedItems).
   */
  async spans(actor: Actor | null, q: ListEventsQueryDto, raw: Json): Promise<EventSpan[]> {
    const { filters, extra, plan } = await this.listQuery(actor, q, raw);
    return this.events.spans(walkFilters(filters, plan), extra);
  }

  /** Events by id as list items (the JSON of a list page's items, from the cache of presented events), in the order given; unknown ids left out. */
  async listedItems(ids: number[]): Promise<Json[]> {
    return (await this.presentListed(ids)).map((bytes) => JSON.parse(bytes.toString()) as Json);
  }

  /** What every list of events starts with: the parameters checked and made filters, the data brought up to date, the search planned. */
  private async listQuery(actor: Actor | null, q: ListEventsQueryDto, raw: Json, editing: EditingListOptions = {}) {
    // TEC answers ticketed=true with this error when ticketing is off; a list hook that claims the parameter filters by it.
    if (q.ticketed === true && !this.listHooks.owns('ticketed')) throw ticketsNotActive();
    const unowned = GEO_PARAMS.filter((p) => raw[p] !== undefined && !this.listHooks.owns(p));
    if (unowned.length > 0) throw geoDisabled(unowned);
    await this.readModel.snapshot();
    const listed = await this.listFilters(actor, q, raw);
    const { extra, echo } = listed;
    const filters: EventListFilters = { ...listed.filters, ...definedOnly({ ...editing }) };
    // Search: the full-text index narrows to a list of candidates when they are few; when they
    // are many, the count asks the index and the pages walk the listing index (a common word
    // fills a page after a few rows; EventListRepository.searchPlan).
    const plan = filters.words ? await this.searchPlan(filters.words) : undefined;
    return { filters, extra, echo, plan };
  }

  /**
   * The list parameters as filters (spec endpoints.md §4.1), every invalid one reported
   * together: the date window, terms by slug/id/name with their descendants, linked ids that
   * must exist, and the list hooks' conditions. Lookups and query plans depend only on the
   * data, so they come from the read model. `echo`: the window's parameters for rest_url.
   */
  private async listFilters(
    actor: Actor | null,
    q: ListEventsQueryDto,
    raw: Json,
  ): Promise<{ filters: EventListFilters; extra: EventQueryExtension[]; echo: Record<string, string> }> {
    const visibility = listVisibility(actor, q.status);
    const { window, bad: windowBad } = this.windows.of(q);
    const bad = { ...windowBad }; // windows are shared between requests: never mutate them
    const modifiedAfter = modifiedAfterUtc(q.modified_after, this.config.timezone, DateTime.utc());
    if (modifiedAfter === null) bad.modified_after = PARAM_MESSAGES.date;
    const categoryIds = q.categories && (await this.lookups.terms('category', q.categories));
    if (categoryIds === null) bad.categories = UNKNOWN_TERM_MESSAGE;
    const tagIds = q.tags && (await this.lookups.terms('tag', q.tags));
    if (tagIds === null) bad.tags = UNKNOWN_TERM_MESSAGE;
    if (q.venue && !(await this.lookups.venuesExist(q.venue))) bad.venue = PARAM_MESSAGES.unknownIds('venue');
    if (q.organizer && !(await this.lookups.organizersExist(q.organizer))) bad.organizer = PARAM_MESSAGES.unknownIds('organizer');
    if (Object.keys(bad).length > 0) throw invalidParams(bad);
    if (q.post_parent !== undefined && !(await this.lookups.isEvent(q.post_parent))) throw invalidEventId();
    const extra: EventQueryExtension[] = [];
    for (const hook of this.listHooks.all()) {
      const condition = await hook.prepare(raw, actor);
      if (condition) extra.push(condition);
    }
    const termIds = [...(categoryIds ?? []), ...(tagIds ?? [])];
    const filters: EventListFilters = {
      visibility,
      startFrom: window.startFrom,
      startTo: window.startTo,
      endFrom: window.endFrom,
      endTo: window.endTo,
      words: q.search !== undefined ? searchWords(q.search) : undefined,
      categoryIds: categoryIds ?? undefined,
      tagIds: tagIds ?? undefined,
      termMatch: categoryIds || tagIds ? await this.lookups.termPlan(termIds) : undefined,
      venueIds: q.venue,
      organizerIds: q.organizer,
      featured: q.featured,
      include: q.include,
      parentId: q.post_parent,
      modifiedAfter: modifiedAfter ?? undefined,
      // Only while a scheduled event is due: the answer then depends on the second (and so does the cache key).
      dueBefore: this.publisher.dueCutoff(),
    };
    return { filters, extra, echo: definedOnly(window.echo) };
  }

  /** The search plan of these words (cached), or undefined when no word is long enough to narrow by (LIKE alone decides). */
  private async searchPlan(words: string[]): Promise<number[] | 'index' | undefined> {
    const tokens = searchTokens(words);
    if (tokens.length === 0) return undefined;
    return this.searchPlans.through(tokens.join(' '), () => this.events.searchPlan(tokens));
  }

  // ---------------------------------------------------------------- single reads

  async getById(actor: Actor | null, id: number): Promise<Json | JsonText> {
    return this.readCached(actor, `id:${id}`, async () => this.presentation.requireEvent(id));
  }

  async getBySlug(actor: Actor | null, slug: string): Promise<Json | JsonText> {
    return this.readCached(actor, `slug:${slug}`, async () => this.presentation.requireSlug(slug));
  }

  /**
   * Single reads. What an anonymous reader gets depends only on the data, so it is cached per
   * data version; other callers may see more (embedded items' JSON-LD), so theirs is computed.
   */
  private async readCached(actor: Actor | null, what: string, find: () => Promise<EventEntity>): Promise<Json | JsonText> {
    // The answer holds links in the form the request came by (compat.md).
    const key = currentLinks(this.config.baseUrl).key + what;
    if (actor === null) await this.readModel.snapshot();
    const generation = this.singles.mark();
    const hit = actor === null ? this.singles.get(key) : undefined;
    if (hit !== undefined) return new JsonText(hit);
    const event = await find();
    if (event.status === 'trash') throw eventNoLongerAvailable();
    if (!canRead(actor, this.presentation.asOwned(event))) throw eventNotAccessible();
    const json = (await this.presentation.present([event], { jsonLd: true, actor }))[0];
    if (actor === null) this.singles.set(key, Buffer.from(JSON.stringify(json)), generation);
    return json;
  }

  /**
   * Several single reads at once (the change feed's `embed`, webhook bodies): each event as its
   * GET by id answers this caller, as JSON text by id; absent where that GET answers an error
   * (gone, trashed, not readable). Anonymous answers come from and go to the cache getById
   * uses; the rest are presented together, in the constant number of queries of `present`.
   */
  async getManyById(actor: Actor | null, ids: number[]): Promise<Map<number, Buffer>> {
    const links = currentLinks(this.config.baseUrl);
    if (actor === null) await this.readModel.snapshot();
    const generation = this.singles.mark();
    const out = new Map<number, Buffer>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const hit = actor === null ? this.singles.get(`${links.key}id:${id}`) : undefined;
      if (hit !== undefined) out.set(id, hit);
      else missing.push(id);
    }
    const rows = (await this.events.findByIds(missing)).filter((e) => e.status !== 'trash' && canRead(actor, this.presentation.asOwned(e)));
    const presented = await this.presentation.present(rows, { jsonLd: true, actor });
    rows.forEach((row, i) => {
      const bytes = Buffer.from(JSON.stringify(presented[i]));
      out.set(row.id, bytes);
      if (actor === null) this.singles.set(`${links.key}id:${row.id}`, bytes, generation);
    });
    return out;
  }

  /**
   * List items by id, from the cache of presented events where possible: list items carry no
   * JSON-LD and do not depend on the caller, so one presentation serves every reader until
   * the data changes (scheduled events excepted).
   */
  private presentListed(ids: number[]): Promise<Buffer[]> {
    return presentCached(
      this.listed,
      ids,
      async (missing) => {
        const fresh = new Map<number, { bytes: Buffer; keep: boolean }>();
        for (const item of await this.presentation.present(await this.events.findByIds(missing), { jsonLd: false })) {
          // A scheduled event turns published at its date without a write: kept only once it is not scheduled.
          fresh.set(item.id as number, { bytes: Buffer.from(JSON.stringify(item)), keep: item.status !== 'future' });
        }
        return fresh;
      },
      currentLinks(this.config.baseUrl).key,
    );
  }
}

/** The filters to walk the list in order with: a short list of search candidates is where to start; the full-text index is only for counting. */
function walkFilters(filters: EventListFilters, plan: number[] | 'index' | undefined): EventListFilters {
  return Array.isArray(plan) ? { ...filters, searchCandidates: plan } : filters;
}

function definedOnly<T>(o: Record<string, T | undefined>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, T] => e[1] !== undefined));
}

/** What the editing pages add to the list's grammar (editing.md §2). */
export interface EditingListOptions {
  order?: EventListOrder;
  listHidden?: boolean;
}
