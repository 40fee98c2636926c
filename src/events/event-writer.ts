import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { EntityManager } from 'typeorm';
import { Actor, assertCan, can, canEdit } from '../common/auth';
import { formatSql } from '../common/datetime/format';
import { parseDateInput } from '../common/datetime/parse-date';
import { invalidParam, invalidParams, PARAM_MESSAGES } from '../common/errors';
import { itemSlug, publicationDateUtc, resolveAuthor, resolveWriteStatus, TRASHED_SUFFIX } from '../common/items';
import { sanitizeHtml, sanitizePlainText } from '../common/text/sanitize';
import { DataVersion } from '../common/cache/data-version.service';
import type { PreparedCreate } from '../common/items/linked-items.service';
import { AppConfig } from '../config/app-config';
import { Dialect } from '../database/dialect';
import { MediaService } from '../media';
import { OrganizersService } from '../organizers';
import { PostsService } from '../posts';
import { TaxonomiesService } from '../taxonomies';
import { UsersService } from '../users';
import { VenuesService } from '../venues';
import type { UpdateEventDto } from './dto/write-event.dto';
import { EventEntity } from './entities/event.entity';
import { applyTiming, EventTiming } from './event-timing';
import { countsAsPublished, EventsService } from './events.service';
import { EventsRepository } from './events.repository';
import { invalidLinkedPostId, LinkedRef, parseOrganizerInput, parseVenueInput } from './linked-input';

type Json = Record<string, unknown>;

/** A write after validation: everything parsed, nothing stored yet. */
interface PreparedWrite {
  zone: string;
  start?: string;
  end?: string;
  dateUtc?: string;
  authorId?: number;
  title?: string;
  description?: string;
  excerpt?: string;
  venue: LinkedRef | null | undefined;
  organizers: LinkedRef[] | undefined;
  imageId: number | null | undefined;
  /** Venues/organizers to create, already checked (see linkedId). */
  nested: Map<LinkedRef, PreparedCreate>;
}

/** How often a write is tried in all when it loses a race (see transaction()). */
const WRITE_ATTEMPTS = 5;

/**
 * Creating and updating events (spec endpoints.md §4.3–§4.8). Checks run in the spec's order:
 * parameters (400, everything that can be checked without writing), permission (401/403),
 * the target (404/400), then one transaction for every row the write touches.
 */
@Injectable()
export class EventWriter {
  constructor(
    private readonly events: EventsRepository,
    private readonly reader: EventsService,
    private readonly posts: PostsService,
    private readonly taxonomies: TaxonomiesService,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly media: MediaService,
    private readonly users: UsersService,
    private readonly config: AppConfig,
    private readonly version: DataVersion,
    private readonly dialect: Dialect,
  ) {}

  async create(actor: Actor | null, dto: UpdateEventDto): Promise<Json> {
    const w = await this.prepare(actor, dto, null);
    assertCan(actor, 'create_items');
    const saved = await this.transaction(async (tx) => {
      const id = await this.posts.allocate('event', tx);
      const event = new EventEntity();
      event.id = id;
      event.authorId = w.authorId ?? actor?.id ?? 0;
      event.parentId = 0;
      event.statusBeforeTrash = null;
      this.applyFields(event, dto, w, null, actor);
      event.slug = await itemSlug(dto.slug, event.title, String(id), (s) => this.events.slugTaken(s, id, tx));
      // The venue is known before the row is written: one INSERT, no UPDATE after it.
      if (w.venue) event.venueId = await this.linkedId(tx, w.venue, w, 'venue', actor);
      await this.events.insert(event, tx);
      await this.writeLinks(tx, event, dto, w, actor, null);
      await this.version.raiseShared(tx);
      return event;
    });
    this.reader.noteScheduled(saved.dateUtc, saved.status);
    this.version.committed();
    return (await this.reader.present([saved], { jsonLd: false }))[0];
  }

  async updateById(actor: Actor | null, id: number, dto: UpdateEventDto): Promise<Json> {
    const existing = (await this.posts.typeOf(id)) === 'event' ? await this.events.findById(id) : null;
    const w = await this.prepare(actor, dto, existing);
    if (existing) this.reader.assertMay(canEdit, actor, existing);
    else assertCan(actor, 'edit_own_unpublished');
    return this.update(actor, await this.reader.requireEvent(id), dto, w);
  }

  async updateBySlug(actor: Actor | null, slug: string, dto: UpdateEventDto): Promise<Json> {
    const existing = await this.reader.requireSlug(slug);
    const w = await this.prepare(actor, dto, existing);
    this.reader.assertMay(canEdit, actor, existing);
    return this.update(actor, existing, dto, w);
  }

  private async update(actor: Actor | null, event: EventEntity, dto: UpdateEventDto, w: PreparedWrite): Promise<Json> {
    const before = { status: event.status, published: countsAsPublished(event.status) };
    const saved = await this.transaction(async (tx) => {
      this.applyFields(event, dto, w, event, actor);
      if (before.status === 'trash' && event.status !== 'trash') event.statusBeforeTrash = null;
      if (dto.slug !== undefined) {
        event.slug = await itemSlug(dto.slug, event.title, String(event.id), (s) => this.events.slugTaken(s, event.id, tx));
      } else if (before.status === 'trash' && event.status !== 'trash' && event.slug.endsWith(TRASHED_SUFFIX)) {
        // Restoring from the trash takes the old slug back when it is free (spec beyond.md #2).
        const old = event.slug.slice(0, -TRASHED_SUFFIX.length);
        event.slug = await itemSlug(old, event.title, String(event.id), (s) => this.events.slugTaken(s, event.id, tx));
      }
      if (w.venue !== undefined) event.venueId = w.venue === null ? null : await this.linkedId(tx, w.venue, w, 'venue', actor);
      const textChanged = w.title !== undefined || w.description !== undefined || w.excerpt !== undefined;
      const stored = await this.events.save(event, tx, textChanged);
      if (countsAsPublished(stored.status) !== before.published) {
        await this.taxonomies.eventPublicationChanged(tx, stored.id, countsAsPublished(stored.status));
      }
      await this.writeLinks(tx, stored, dto, w, actor, event);
      await this.version.raiseShared(tx);
      return stored;
    });
    this.reader.noteScheduled(saved.dateUtc, saved.status);
    this.version.committed();
    return (await this.reader.present([saved], { jsonLd: false }))[0];
  }

  /** Every check that needs no write: dates in the write's zone, author, linked ids, image, text. */
  private async prepare(actor: Actor | null, dto: UpdateEventDto, current: EventEntity | null): Promise<PreparedWrite> {
    const bad: Record<string, string> = {};
    const now = DateTime.utc();
    const zone =
      dto.timezone !== undefined && dto.timezone.trim() !== '' ? dto.timezone.trim() : dto.timezone === undefined && current ? current.timezone : this.config.timezone;
    const wall = (name: 'start_date' | 'end_date') => {
      if (dto[name] === undefined) return undefined;
      const dt = parseDateInput(dto[name], zone, now);
      if (!dt) bad[name] = PARAM_MESSAGES.date;
      return dt ? formatSql(dt.setZone(zone)) : undefined;
    };
    const w: PreparedWrite = {
      zone,
      start: wall('start_date'),
      end: wall('end_date'),
      venue: undefined,
      organizers: undefined,
      imageId: undefined,
      nested: new Map(),
    };
    const publication = publicationDateUtc(dto, zone, now);
    publication.bad.forEach((name) => (bad[name] = PARAM_MESSAGES.date));
    w.dateUtc = publication.utc;

    const unfiltered = can(actor, 'unfiltered_html');
    if (dto.title !== undefined) {
      w.title = (unfiltered ? dto.title : sanitizePlainText(dto.title)).trim();
      if (w.title === '') bad.title = PARAM_MESSAGES.text;
    }
    if (dto.description !== undefined) w.description = unfiltered ? dto.description : sanitizeHtml(dto.description);
    if (dto.excerpt !== undefined) w.excerpt = unfiltered ? dto.excerpt : sanitizeHtml(dto.excerpt);
    if (Object.keys(bad).length > 0) throw invalidParams(bad);

    w.authorId = await resolveAuthor(actor, dto.author, async (id) => (await this.users.findById(id)) !== null);
    w.venue = parseVenueInput(dto.venue);
    w.organizers = parseOrganizerInput(dto.organizer);
    await this.checkLinked(w.venue ? [w.venue] : [], 'venue');
    await this.checkLinked(w.organizers ?? [], 'organizer');
    // New venues/organizers are checked now, outside the transaction (spec: parameters first).
    for (const [ref, service] of [
      ...(w.venue ? [[w.venue, this.venues] as const] : []),
      ...(w.organizers ?? []).map((ref) => [ref, this.organizers] as const),
    ]) {
      if (ref.kind === 'new') w.nested.set(ref, await service.prepareCreate(actor, ref.data, true));
    }
    w.imageId = await this.media.resolve(actor, dto.image, 'remove');
    return w;
  }

  /** Bare ids must be existing items of the kind (param error); `{id}` objects must be of the kind (invalid-linked-post-id). */
  private async checkLinked(refs: LinkedRef[], kind: 'venue' | 'organizer'): Promise<void> {
    const service = kind === 'venue' ? this.venues : this.organizers;
    const ids = refs.filter((r): r is Extract<LinkedRef, { id: number }> => r.kind !== 'new').map((r) => r.id);
    if (ids.length === 0) return;
    const found = await service.existingIds(ids);
    for (const ref of refs) {
      if (ref.kind === 'id' && !found.has(ref.id)) throw invalidParam(kind, PARAM_MESSAGES.unknownId(kind));
      if (ref.kind === 'ref' && !found.has(ref.id)) throw invalidLinkedPostId();
    }
  }

  /** Scalar fields, timing, publication date and status. `current` null on create. */
  private applyFields(event: EventEntity, dto: UpdateEventDto, w: PreparedWrite, current: EventEntity | null, actor: Actor | null): void {
    const now = DateTime.utc();
    const nowSql = formatSql(now);
    if (w.title !== undefined) event.title = w.title;
    if (!current) {
      event.description = '';
      event.excerpt = '';
      event.website = '';
      event.cost = '[]';
      event.imageId = null;
      event.venueId = null;
    }
    if (w.description !== undefined) event.description = w.description;
    if (w.excerpt !== undefined) event.excerpt = w.excerpt;
    if (w.authorId !== undefined) event.authorId = w.authorId;
    if (dto.website !== undefined) event.website = dto.website;
    if (dto.cost !== undefined) event.cost = JSON.stringify((Array.isArray(dto.cost) ? dto.cost : [dto.cost]).map(String).filter((c) => c.trim() !== ''));
    if (w.imageId !== undefined) event.imageId = w.imageId;
    for (const [field, prop] of [
      ['show_map', 'showMap'],
      ['show_map_link', 'showMapLink'],
      ['hide_from_listings', 'hideFromListings'],
      ['sticky', 'sticky'],
      ['featured', 'featured'],
    ] as const) {
      if (dto[field] !== undefined) event[prop] = dto[field] as boolean;
      else if (!current) event[prop] = false;
    }

    const timing: EventTiming = applyTiming(current ? timingOf(current) : null, {
      start: w.start,
      end: w.end,
      timezone: w.zone,
      allDay: dto.all_day,
    });
    Object.assign(event, timing);

    event.dateUtc = w.dateUtc ?? current?.dateUtc ?? nowSql;
    const requested = dto.status;
    event.status = resolveWriteStatus(actor, requested, current?.status, event.dateUtc, now);
    event.modifiedUtc = nowSql;
  }

  /** Organizers and terms, inside the write's transaction (the venue is set on the row before it is written). */
  private async writeLinks(tx: EntityManager, event: EventEntity, dto: UpdateEventDto, w: PreparedWrite, actor: Actor | null, current: EventEntity | null): Promise<void> {
    if (w.organizers !== undefined) {
      const ids: number[] = [];
      for (const ref of w.organizers) {
        const id = await this.linkedId(tx, ref, w, 'organizer', actor);
        if (!ids.includes(id)) ids.push(id);
      }
      await this.events.replaceOrganizers(tx, event.id, ids, current === null);
    }
    const published = countsAsPublished(event.status);
    for (const taxonomy of ['category', 'tag'] as const) {
      const items = taxonomy === 'category' ? dto.categories : dto.tags;
      if (items === undefined) continue;
      const ids = await this.taxonomies.resolveForEventWrite(tx, taxonomy, items, actor);
      await this.taxonomies.assignToEvent(tx, event.id, taxonomy, ids, published, current === null);
    }
  }

  private async linkedId(tx: EntityManager, ref: LinkedRef, w: PreparedWrite, kind: 'venue' | 'organizer', actor: Actor | null): Promise<number> {
    const prepared = w.nested.get(ref);
    if (ref.kind !== 'new' || !prepared) return (ref as { id: number }).id;
    const service = kind === 'venue' ? this.venues : this.organizers;
    const { entity } = await service.createPrepared(actor, prepared, tx);
    return entity.id;
  }

  /**
   * The write's transaction, run again when it loses a race: two writes creating the same new
   * term by name (the next attempt finds the term the first made), or an InnoDB deadlock
   * between concurrent writes touching the same link tables. Nothing of a failed attempt stays.
   */
  private async transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.events.transaction(work);
      } catch (err) {
        if (attempt >= WRITE_ATTEMPTS || !this.dialect.isRetryable(err)) throw err;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  }
}

function timingOf(e: EventEntity): EventTiming {
  return { startDate: e.startDate, endDate: e.endDate, startDateUtc: e.startDateUtc, endDateUtc: e.endDateUtc, timezone: e.timezone, allDay: e.allDay };
}
