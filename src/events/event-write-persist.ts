import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import type { Actor } from '../common/auth';
import { formatSql } from '../common/datetime/format';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { baseSlug, resolveWriteStatus, TRASHED_SUFFIX, trashedSlug } from '../items';
import { MediaService } from '../media';
import type { LinkedItemWrites } from '../linked-items';
import { EventOrganizerEntity, ORGANIZER_TOKENS, OrganizerEntity } from '../organizers';
import { PostsService } from '../posts';
import { TermsService } from '../taxonomies';
import { VENUE_TOKENS, VenueEntity } from '../venues';
import { EventEntity } from './entities/event.entity';
import { applyTiming, EventTiming } from './event-timing';
import { EventWritePrepare, type PreparedWrite } from './event-write-prepare';
import { EventsRepository } from './events.repository';
import type { LinkedRef } from './linked-input';
import { countsAsPublished } from './scheduled-publisher';

/**
 * The persist step of an event write (EventWriter), inside its transaction: the event's row,
 * its venue, organizers and terms (new nested venues and organizers created), the term counts
 * and the change records. The extensions' hooks come after it (EventWriter's participants step).
 */
@Injectable()
export class EventWritePersist {
  constructor(
    private readonly events: EventsRepository,
    private readonly posts: PostsService,
    private readonly terms: TermsService,
    @Inject(VENUE_TOKENS.writes) private readonly venues: LinkedItemWrites<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.writes) private readonly organizers: LinkedItemWrites<OrganizerEntity>,
    private readonly media: MediaService,
    private readonly prepare: EventWritePrepare,
  ) {}

  /** A new event's rows and links. */
  async insert(tx: Tx, changes: ChangeSet, actor: Actor | null, w: PreparedWrite): Promise<EventEntity> {
    const id = await this.posts.allocate('event', tx);
    changes.record('event', id);
    const event = this.newEvent(id, w, actor);
    event.imageId = (await this.media.idFor(tx, w.image, actor)) ?? null;
    // The venue is known before the row is written: one INSERT, no UPDATE after it.
    if (w.venue) event.venueId = await this.linkedId(tx, w.venue, w, 'venue', actor, changes);
    await this.events.insert(event, baseSlug(w.dto.slug, event.title, String(id)), tx);
    await this.writeLinks(tx, event, w, actor, null, changes);
    return event;
  }

  /**
   * New events that share their author, links, image and terms (`writes[0]` checked as a single
   * create is, the others sharing its links): those are resolved and linked once; the ids come
   * from one statement (PostsService.allocateIn), the rows, organizer and term links and search
   * documents from multi-row INSERTs, the slugs from one read, and the term counts move once.
   */
  async insertMany(tx: Tx, changes: ChangeSet, actor: Actor | null, writes: PreparedWrite[]): Promise<EventEntity[]> {
    const shared = writes[0];
    const ids = await this.posts.allocateIn('event', writes.length, tx);
    const imageId = (await this.media.idFor(tx, shared.image, actor)) ?? null;
    const venueId = shared.venue ? await this.linkedId(tx, shared.venue, shared, 'venue', actor, changes) : null;
    const events = writes.map((w, i) => {
      changes.record('event', ids[i]);
      const event = this.newEvent(ids[i], w, actor);
      event.imageId = imageId;
      if (shared.venue) event.venueId = venueId;
      return event;
    });
    await this.events.insertAll(
      events.map((event, i) => ({ event, base: baseSlug(writes[i].dto.slug, event.title, String(event.id)) })),
      tx,
    );
    await this.writeManyLinks(tx, events, shared, actor, changes);
    return events;
  }

  /** The update of the locked row `stored`: fields, slug, venue, term counts and links. */
  async apply(tx: Tx, changes: ChangeSet, actor: Actor | null, stored: EventEntity, w: PreparedWrite): Promise<EventEntity> {
    const { dto } = w;
    changes.record('event', stored.id);
    const before = { status: stored.status, published: countsAsPublished(stored.status) };
    const event = Object.assign(new EventEntity(), stored);
    applyFields(event, w, stored, actor);
    const imageId = await this.media.idFor(tx, w.image, actor);
    if (imageId !== undefined) event.imageId = imageId;
    const restored = before.status === 'trash' && event.status !== 'trash';
    if (restored) event.statusBeforeTrash = null;
    let slugBase: string | undefined;
    if (dto.slug !== undefined && event.status === 'trash') {
      // A trashed item keeps a trash slug until it is restored (spec beyond.md #2).
      event.slug = trashedSlug(baseSlug(dto.slug, event.title, String(event.id)));
    } else if (dto.slug !== undefined) {
      slugBase = baseSlug(dto.slug, event.title, String(event.id));
    } else if (restored && event.slug.endsWith(TRASHED_SUFFIX)) {
      // Restoring from the trash takes the old slug back when it is free (spec beyond.md #2).
      slugBase = baseSlug(event.slug.slice(0, -TRASHED_SUFFIX.length), event.title, String(event.id));
    }
    if (w.venue !== undefined) event.venueId = w.venue === null ? null : await this.linkedId(tx, w.venue, w, 'venue', actor, changes);
    const textChanged = w.title !== undefined || w.description !== undefined || w.excerpt !== undefined;
    await this.events.save(event, tx, { textChanged, slugBase });
    if (countsAsPublished(event.status) !== before.published) {
      await this.terms.eventPublicationChanged(tx, event.id, countsAsPublished(event.status));
    }
    await this.writeLinks(tx, event, w, actor, stored, changes);
    return event;
  }

  /** A new event's row with its fields (no image, venue or slug yet). */
  private newEvent(id: number, w: PreparedWrite, actor: Actor | null): EventEntity {
    const event = new EventEntity();
    event.id = id;
    event.authorId = w.authorId ?? actor?.id ?? 0;
    event.parentId = 0;
    event.statusBeforeTrash = null;
    applyFields(event, w, null, actor);
    return event;
  }

  /** Organizers and terms, inside the write's transaction (the venue is set on the row before it is written). */
  private async writeLinks(tx: Tx, event: EventEntity, w: PreparedWrite, actor: Actor | null, current: EventEntity | null, changes: ChangeSet): Promise<void> {
    if (w.organizers !== undefined)
      await this.events.replaceOrganizers(tx, event.id, await this.organizerIds(tx, w, w.organizers, actor, changes), current === null);
    const published = countsAsPublished(event.status);
    for (const taxonomy of ['category', 'tag'] as const) {
      const items = taxonomy === 'category' ? w.dto.categories : w.dto.tags;
      if (items === undefined) continue;
      const ids = await this.terms.resolveForEventWrite(tx, taxonomy, items, actor);
      await this.terms.assignToEvent(tx, event.id, taxonomy, ids, published, current === null);
    }
  }

  /** writeLinks() for new events that share their organizers and terms: resolved once, linked in multi-row INSERTs. */
  private async writeManyLinks(tx: Tx, events: EventEntity[], w: PreparedWrite, actor: Actor | null, changes: ChangeSet): Promise<void> {
    if (w.organizers !== undefined) {
      const ids = await this.organizerIds(tx, w, w.organizers, actor, changes);
      const links = events.flatMap((e) =>
        ids.map((organizerId, position) => Object.assign(new EventOrganizerEntity(), { eventId: e.id, organizerId, position })),
      );
      await this.events.insertOrganizerLinks(links, tx);
    }
    for (const taxonomy of ['category', 'tag'] as const) {
      const items = taxonomy === 'category' ? w.dto.categories : w.dto.tags;
      if (items === undefined) continue;
      const ids = await this.terms.resolveForEventWrite(tx, taxonomy, items, actor);
      await this.terms.assignToNewEvents(
        tx,
        events.map((e) => ({ id: e.id, published: countsAsPublished(e.status) })),
        ids,
      );
    }
  }

  /** The organizers to link, in order, each once (new ones created now). */
  private async organizerIds(tx: Tx, w: PreparedWrite, refs: LinkedRef[], actor: Actor | null, changes: ChangeSet): Promise<number[]> {
    const ids: number[] = [];
    for (const ref of refs) {
      const id = await this.linkedId(tx, ref, w, 'organizer', actor, changes);
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  /**
   * The id to link: a new item created now, or an existing one checked again inside the
   * transaction with a lock that keeps it from being trashed before the link commits (a trash
   * that came first is seen here and refused).
   */
  private async linkedId(tx: Tx, ref: LinkedRef, w: PreparedWrite, kind: 'venue' | 'organizer', actor: Actor | null, changes: ChangeSet): Promise<number> {
    const prepared = w.nested.get(ref);
    if (ref.kind !== 'new' || !prepared) {
      if (w.checkedIn !== tx) await this.prepare.checkLinked(actor, [ref], kind, tx);
      return (ref as { id: number }).id;
    }
    const writes = kind === 'venue' ? this.venues : this.organizers;
    const { entity, reused } = await writes.createPrepared(actor, prepared, tx, changes);
    if (!reused) changes.record(kind, entity.id);
    return entity.id;
  }
}

/** Scalar fields, timing, publication date and status. `current` null on create. */
function applyFields(event: EventEntity, w: PreparedWrite, current: EventEntity | null, actor: Actor | null): void {
  const { dto } = w;
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
  if (w.website !== undefined) event.website = w.website;
  if (w.cost !== undefined) event.cost = JSON.stringify(w.cost);
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
  event.status = resolveWriteStatus(actor, dto.status, current?.status, event.dateUtc, now);
  event.modifiedUtc = nowSql;
}

function timingOf(e: EventEntity): EventTiming {
  return { startDate: e.startDate, endDate: e.endDate, startDateUtc: e.startDateUtc, endDateUtc: e.endDateUtc, timezone: e.timezone, allDay: e.allDay };
}
