import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DateTime } from 'luxon';
import { Actor, assertCan, canDelete, canRead, OwnedItem } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { forbidden, invalidParam, invalidParams, PARAM_MESSAGES } from '../common/errors';
import { effectiveStatus, listVisibility, trashedSlug } from '../common/items';
import { ListPage, pageLinks, rawParam, totalPages } from '../common/pagination';
import { AppConfig } from '../config/app-config';
import { MediaService } from '../media';
import { OrganizersService } from '../organizers';
import { PostsService } from '../posts';
import { TaxonomiesService } from '../taxonomies';
import { VenuesService } from '../venues';
import type { ListEventsQueryDto } from './dto/list-events.query.dto';
import type { EventEntity } from './entities/event.entity';
import { presentEvent } from './event.presenter';
import { dateWindow } from './event-query';
import { EventListExtensions } from './event-list-extensions';
import {
  eventInTrash,
  eventNoLongerAvailable,
  eventNotAccessible,
  eventNotFound,
  eventPageNotFound,
  geoDisabled,
  invalidEventId,
  ticketsNotActive,
} from './events.errors';
import type { EventQueryExtension } from './events.filters';
import { searchWords } from './events.filters';
import { EventsRepository } from './events.repository';

type Json = Record<string, unknown>;

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
];
/** How often other processes' scheduled events are looked for (writes here update it at once). */
const SCHEDULE_POLL_MS = 60_000;

/** A published event counts in term counts; scheduled ones join when their date passes. */
export const countsAsPublished = (status: string) => status === 'publish';

/**
 * Reading, listing and trashing events (spec endpoints.md §4.1, §4.2, §4.9); writes live in
 * EventWriter. Also promotes scheduled events whose date has passed (§3 rule 5).
 */
@Injectable()
export class EventsService implements OnModuleInit, OnModuleDestroy {
  private nextScheduledUtc: string | null = null;
  private poll?: NodeJS.Timeout;

  constructor(
    private readonly events: EventsRepository,
    private readonly posts: PostsService,
    private readonly taxonomies: TaxonomiesService,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly media: MediaService,
    private readonly extensions: EventListExtensions,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.refreshSchedule();
    this.poll = setInterval(() => void this.refreshSchedule().catch(() => undefined), SCHEDULE_POLL_MS);
    this.poll.unref();
  }

  onModuleDestroy(): void {
    if (this.poll) clearInterval(this.poll);
  }

  // ---------------------------------------------------------------- list

  async list(actor: Actor | null, q: ListEventsQueryDto, raw: Json): Promise<ListPage> {
    if (q.ticketed === true) throw ticketsNotActive();
    const unowned = GEO_PARAMS.filter((p) => raw[p] !== undefined && !this.extensions.owns(p));
    if (unowned.length > 0) throw geoDisabled(unowned);
    const visibility = listVisibility(actor, q.status);
    await this.promoteDue();

    const now = DateTime.utc();
    const { window, bad } = dateWindow(q, this.config.timezone, now);
    const categoryIds = q.categories && (await this.taxonomies.resolveFilter('category', q.categories));
    if (categoryIds === null) bad.categories = PARAM_MESSAGES.unknownTerm;
    const tagIds = q.tags && (await this.taxonomies.resolveFilter('tag', q.tags));
    if (tagIds === null) bad.tags = PARAM_MESSAGES.unknownTerm;
    if (q.venue && !(await allIn(q.venue, (ids) => this.venues.existingIds(ids)))) bad.venue = PARAM_MESSAGES.unknownIds('venue');
    if (q.organizer && !(await allIn(q.organizer, (ids) => this.organizers.existingIds(ids)))) {
      bad.organizer = PARAM_MESSAGES.unknownIds('organizer');
    }
    if (Object.keys(bad).length > 0) throw invalidParams(bad);
    if (q.post_parent !== undefined && (await this.posts.typeOf(q.post_parent)) !== 'event') throw invalidEventId();
    const extra: EventQueryExtension[] = [];
    for (const extension of this.extensions.all()) {
      const condition = await extension.prepare(raw, actor);
      if (condition) extra.push(condition);
    }

    const page = q.page ?? 1;
    const perPage = q.per_page ?? 10;
    const offset = (page - 1) * perPage;
    const [rows, total] = await this.events.findPage(
      {
        visibility,
        startFrom: window.startFrom,
        startTo: window.startTo,
        endFrom: window.endFrom,
        endTo: window.endTo,
        words: q.search !== undefined ? searchWords(q.search) : undefined,
        categoryIds: categoryIds ?? undefined,
        tagIds: tagIds ?? undefined,
        venueIds: q.venue,
        organizerIds: q.organizer,
        featured: q.featured,
        include: q.include,
        parentId: q.post_parent,
      },
      Number.isSafeInteger(offset) ? offset : Number.MAX_SAFE_INTEGER,
      perPage,
      extra,
    );
    if (rows.length === 0 && page > 1) throw eventPageNotFound();

    const pages = totalPages(total, perPage);
    const params: Record<string, string> = { page: String(page), per_page: String(perPage), ...definedOnly(window.echo) };
    for (const key of [...ECHOED_PARAMS, ...this.extensions.all().flatMap((e) => e.params)]) {
      const text = rawParam(raw[key]);
      if (text !== undefined && !(key in params)) params[key] = text;
    }
    const links = pageLinks(`${this.config.apiRoot}/events/`, params, page, { next: page < pages, previous: page > 1 && page - 1 <= pages });
    const body: Json = { events: await this.present(rows, { jsonLd: false }) };
    Object.assign(body, links, { total, total_pages: pages });
    return new ListPage(body, total, pages);
  }

  // ---------------------------------------------------------------- single reads

  async getById(actor: Actor | null, id: number): Promise<Json> {
    return this.showReadable(actor, await this.requireEvent(id));
  }

  async getBySlug(actor: Actor | null, slug: string): Promise<Json> {
    return this.showReadable(actor, await this.requireSlug(slug));
  }

  private async showReadable(actor: Actor | null, event: EventEntity): Promise<Json> {
    await this.promoteDue();
    const fresh = (await this.events.findById(event.id)) ?? event;
    if (fresh.status === 'trash') throw eventNoLongerAvailable();
    if (!canRead(actor, this.asOwned(fresh))) throw eventNotAccessible();
    return (await this.present([fresh], { jsonLd: true, actor }))[0];
  }

  // ---------------------------------------------------------------- delete

  async removeById(actor: Actor | null, id: number): Promise<Json> {
    const kind = await this.posts.typeOf(id);
    const event = kind === 'event' ? await this.events.findById(id) : null;
    // Permission first, on that event if it exists, else the general right (spec §4.9 step 2).
    if (event) this.assertMay(canDelete, actor, event);
    else assertCan(actor, 'delete_own_unpublished');
    if (kind === null) throw eventNotFound(id);
    if (!event) throw invalidEventId();
    return this.trash(event);
  }

  async removeBySlug(actor: Actor | null, slug: string): Promise<Json> {
    const event = await this.requireSlug(slug);
    this.assertMay(canDelete, actor, event);
    return this.trash(event);
  }

  private async trash(event: EventEntity): Promise<Json> {
    if (event.status === 'trash') throw eventInTrash();
    const trashed = await this.events.transaction(async (tx) => {
      event.statusBeforeTrash = event.status;
      event.status = 'trash';
      event.slug = trashedSlug(event.slug);
      event.modifiedUtc = nowUtcSql();
      const saved = await this.events.save(event, tx);
      await this.taxonomies.eventPublicationChanged(tx, event.id, false);
      return saved;
    });
    return (await this.present([trashed], { jsonLd: false }))[0];
  }

  // ---------------------------------------------------------------- shared with EventWriter

  /** The event with this id, or the spec's 404 / 400 (spec §4.2 steps 2–3). */
  async requireEvent(id: number): Promise<EventEntity> {
    const kind = await this.posts.typeOf(id);
    if (kind === null) throw eventNotFound(id);
    if (kind !== 'event') throw invalidEventId();
    const event = await this.events.findById(id);
    if (!event) throw eventNotFound(id);
    return event;
  }

  /** by-slug routes: an unknown slug is a parameter error (spec §4.2 step 1). */
  async requireSlug(slug: string): Promise<EventEntity> {
    const event = await this.events.findBySlug(slug);
    if (!event) throw invalidParam('slug', PARAM_MESSAGES.unknownId('event'));
    return event;
  }

  /** 401/403 rest_forbidden unless the caller may do this to that event. */
  assertMay(right: (actor: Actor | null, item: OwnedItem) => boolean, actor: Actor | null, event: EventEntity): void {
    if (!right(actor, this.asOwned(event))) throw forbidden(actor !== null);
  }

  asOwned(e: EventEntity): OwnedItem {
    return { authorId: e.authorId, status: effectiveStatus(e.status, e.dateUtc, nowUtcSql()), statusBeforeTrash: e.statusBeforeTrash };
  }

  /** Presents events with everything they embed, in a constant number of queries. */
  async present(rows: EventEntity[], opts: { jsonLd: boolean; actor?: Actor | null }): Promise<Json[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((e) => e.id);
    const [terms, organizerIds, images] = await Promise.all([
      this.taxonomies.termsOfEvents(ids),
      this.events.organizerIds(ids),
      this.media.present(rows.map((e) => e.imageId)),
    ]);
    const venueIds = [...new Set(rows.map((e) => e.venueId).filter((v): v is number => v !== null))];
    const [venues, organizers] = await Promise.all([
      this.venues.embed(venueIds, { jsonLd: opts.jsonLd, actor: opts.actor ?? null }),
      this.organizers.embed([...new Set([...organizerIds.values()].flat())], { jsonLd: opts.jsonLd, actor: opts.actor ?? null }),
    ]);
    const nowUtc = nowUtcSql();
    return rows.map((e) => presentEvent(e, { terms, organizerIds, images, venues, organizers }, this.config, { jsonLd: opts.jsonLd, nowUtc }));
  }

  /** Called after every event write: a new scheduled date may come sooner. */
  noteScheduled(dateUtc: string, status: string): void {
    if (status === 'future' && (this.nextScheduledUtc === null || dateUtc < this.nextScheduledUtc)) this.nextScheduledUtc = dateUtc;
  }

  /** Publishes scheduled events whose date has passed; cheap when none is due (one comparison). */
  async promoteDue(): Promise<void> {
    const now = nowUtcSql();
    if (this.nextScheduledUtc === null || this.nextScheduledUtc > now) return;
    await this.events.transaction(async (tx) => {
      const due = await this.events.findDueScheduled(now, tx);
      await this.events.markPublished(
        tx,
        due.map((e) => e.id),
      );
      for (const e of due) await this.taxonomies.eventPublicationChanged(tx, e.id, true);
    });
    await this.refreshSchedule();
  }

  private async refreshSchedule(): Promise<void> {
    this.nextScheduledUtc = await this.events.nextScheduledUtc();
  }
}

async function allIn(ids: number[], existing: (ids: number[]) => Promise<Set<number>>): Promise<boolean> {
  const found = await existing(ids);
  return ids.every((id) => found.has(id));
}

function definedOnly(o: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => e[1] !== undefined));
}
