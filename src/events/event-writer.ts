import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { assertIfMatch, assertUnchanged, Tagged } from '../common/http/preconditions';
import { Actor, assertCan, can, canEdit } from '../common/auth';
import { formatSql } from '../common/datetime/format';
import { parseDateInput } from '../common/datetime/parse-date';
import { invalidParam, invalidParams, PARAM_MESSAGES, WpError } from '../common/errors';
import { cleanTextField, columnOverflow } from '../common/text/text-fields';
import { AppConfig } from '../config/app-config';
import type { ChangeSet } from '../database/change-log';
import { OUTER, type Reader, type Tx } from '../database/tx';
import { UnitOfWork } from '../database/unit-of-work';
import { baseSlug, type PreparedCreate, publicationDateUtc, resolveAuthor, resolveWriteStatus, TRASHED_SUFFIX, trashedSlug } from '../items';
import { ImageChoice, MediaService } from '../media';
import { EventOrganizerEntity, OrganizersService } from '../organizers';
import { PostsService } from '../posts';
import { TaxonomiesService } from '../taxonomies';
import { UsersService } from '../users';
import { VenuesService } from '../venues';
import type { UpdateEventDto } from './dto/write-event.dto';
import { EventEntity } from './entities/event.entity';
import { EventExtensions } from './event-extensions';
import { applyTiming, EventTiming } from './event-timing';
import { EventAccess } from './event-access';
import { countsAsPublished, ScheduledPublisher } from './scheduled-publisher';
import { eventNotFound, unknownEventSlug } from './events.errors';
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
  website?: string;
  /** Cost entries, cleaned, empty ones dropped. */
  cost?: string[];
  venue: LinkedRef | null | undefined;
  organizers: LinkedRef[] | undefined;
  /** The image as chosen, probed before the transaction (see probe()), stored inside it. */
  image: ImageChoice;
  /** Venues/organizers to create, already checked (see linkedId). */
  nested: Map<LinkedRef, PreparedCreate>;
  /** The transaction that checked (and locked) the linked ids, for a write inside a running unit of work. */
  checkedIn?: Tx;
  /** The write's parameters as received, for the event extensions (the DTO keeps only the core's). */
  raw: Json;
}

/**
 * Creating and updating events (spec endpoints.md §4.3–§4.8). Checks run in the spec's order:
 * parameters (400, everything that can be checked without writing), permission (401/403),
 * the target (404/400), then one transaction for every row the write touches.
 */
@Injectable()
export class EventWriter {
  constructor(
    private readonly events: EventsRepository,
    private readonly access: EventAccess,
    private readonly publisher: ScheduledPublisher,
    private readonly posts: PostsService,
    private readonly taxonomies: TaxonomiesService,
    private readonly venues: VenuesService,
    private readonly organizers: OrganizersService,
    private readonly media: MediaService,
    private readonly users: UsersService,
    private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly extensions: EventExtensions,
  ) {}

  /** POST /events. `raw`: the request's parameters as received, for the event extensions. */
  async create(actor: Actor | null, dto: UpdateEventDto, raw: Json = {}): Promise<Json> {
    const w = await this.prepare(actor, dto, null, OUTER, raw);
    assertCan(actor, 'create_items');
    await this.probe(w);
    const saved = await this.uow.run((tx, changes) => this.insert(tx, changes, actor, dto, w));
    this.publisher.noteScheduled(saved.dateUtc, saved.status);
    return (await this.access.present([saved], { jsonLd: false }))[0];
  }

  async updateById(actor: Actor | null, id: number, dto: UpdateEventDto, ifMatch?: string, raw: Json = {}): Promise<Tagged | Json> {
    const existing = (await this.posts.typeOf(id)) === 'event' ? await this.events.findById(id) : null;
    const w = await this.prepare(actor, dto, existing, OUTER, raw);
    if (existing) this.access.assertMay(canEdit, actor, existing);
    else assertCan(actor, 'edit_own_unpublished');
    return this.update(actor, await this.access.requireEvent(id), dto, w, () => eventNotFound(id), ifMatch);
  }

  async updateBySlug(actor: Actor | null, slug: string, dto: UpdateEventDto, ifMatch?: string, raw: Json = {}): Promise<Tagged | Json> {
    const existing = await this.access.requireSlug(slug);
    const w = await this.prepare(actor, dto, existing, OUTER, raw);
    this.access.assertMay(canEdit, actor, existing);
    return this.update(actor, existing, dto, w, unknownEventSlug, ifMatch);
  }

  // ---- writes inside a running unit of work (EventWrites) ----

  /**
   * A create inside `tx`, with the route's checks in the route's order; every read goes
   * through `tx`. Nothing may leave the service inside a transaction, so an image URL (of the
   * event or of a new venue/organizer) must be one already known (inWrite).
   */
  async createIn(tx: Tx, changes: ChangeSet, actor: Actor | null, dto: UpdateEventDto, raw: Json): Promise<EventEntity> {
    const w = await this.prepare(actor, dto, null, tx, raw);
    assertCan(actor, 'create_items');
    await this.inWrite(tx, w);
    const event = await this.insert(tx, changes, actor, dto, w);
    this.publisher.noteScheduled(event.dateUtc, event.status);
    return event;
  }

  /**
   * Many creates inside `tx`, with the rows, links, change records, errors and extension hooks
   * of as many createIn calls in a row, in a number of statements that does not grow with the
   * list (a series' occurrences): when the writes share their author, links, image and terms,
   * those are checked, resolved and linked once; the ids come from one statement
   * (PostsService.allocateIn), the rows, organizer and term links and search documents from
   * multi-row INSERTs, the slugs from one read (chooseFreeSlugs), and the term counts move
   * once. Other lists go through createIn one by one. The `saved` hooks run after every row
   * and link of the list is written, in the list's order.
   */
  async createManyIn(tx: Tx, changes: ChangeSet, actor: Actor | null, writes: { dto: UpdateEventDto; raw: Json }[]): Promise<EventEntity[]> {
    if (!sharesLinks(writes.map((x) => x.dto))) {
      const created: EventEntity[] = [];
      for (const { dto, raw } of writes) created.push(await this.createIn(tx, changes, actor, dto, raw));
      return created;
    }
    // The first write checked as createIn checks it; the others' own fields after it, their links being the same.
    const shared = await this.prepare(actor, writes[0].dto, null, tx, writes[0].raw);
    assertCan(actor, 'create_items');
    await this.inWrite(tx, shared);
    const prepared = [shared];
    for (const { dto, raw } of writes.slice(1)) prepared.push(await this.prepare(actor, dto, null, tx, raw, shared));

    const ids = await this.posts.allocateIn('event', writes.length, tx);
    const imageId = (await this.media.idFor(tx, shared.image, actor)) ?? null;
    const venueId = shared.venue ? await this.linkedId(tx, shared.venue, shared, 'venue', actor, changes) : null;
    const events = writes.map(({ dto }, i) => {
      changes.record('event', ids[i]);
      const event = this.newEvent(ids[i], dto, prepared[i], actor);
      event.imageId = imageId;
      if (shared.venue) event.venueId = venueId;
      return event;
    });
    await this.events.insertAll(
      events.map((event, i) => ({ event, base: baseSlug(writes[i].dto.slug, event.title, String(event.id)) })),
      tx,
    );
    await this.writeManyLinks(tx, events, writes[0].dto, shared, actor, changes);
    for (const [i, event] of events.entries()) {
      await this.extensions.saved(tx, event, { actor, input: prepared[i].raw, before: null, changes });
      this.publisher.noteScheduled(event.dateUtc, event.status);
    }
    return events;
  }

  /** An update inside `tx`: the row is locked first, then checked as the route checks it. */
  async updateIn(tx: Tx, changes: ChangeSet, actor: Actor | null, id: number, dto: UpdateEventDto, raw: Json): Promise<EventEntity> {
    const stored = await this.events.findForUpdate(id, tx);
    if (!stored) throw eventNotFound(id);
    const w = await this.prepare(actor, dto, stored, tx, raw);
    this.access.assertMay(canEdit, actor, stored);
    await this.inWrite(tx, w);
    const event = await this.apply(tx, changes, actor, stored, dto, w);
    this.publisher.noteScheduled(event.dateUtc, event.status);
    return event;
  }

  /** A new event's rows, its links and the extensions' data, inside the write's transaction. */
  private async insert(tx: Tx, changes: ChangeSet, actor: Actor | null, dto: UpdateEventDto, w: PreparedWrite): Promise<EventEntity> {
    const id = await this.posts.allocate('event', tx);
    changes.record('event', id);
    const event = this.newEvent(id, dto, w, actor);
    event.imageId = (await this.media.idFor(tx, w.image, actor)) ?? null;
    // The venue is known before the row is written: one INSERT, no UPDATE after it.
    if (w.venue) event.venueId = await this.linkedId(tx, w.venue, w, 'venue', actor, changes);
    await this.events.insert(event, baseSlug(dto.slug, event.title, String(id)), tx);
    await this.writeLinks(tx, event, dto, w, actor, null, changes);
    await this.extensions.saved(tx, event, { actor, input: w.raw, before: null, changes });
    return event;
  }

  /** A new event's row with its fields (no image, venue or slug yet). */
  private newEvent(id: number, dto: UpdateEventDto, w: PreparedWrite, actor: Actor | null): EventEntity {
    const event = new EventEntity();
    event.id = id;
    event.authorId = w.authorId ?? actor?.id ?? 0;
    event.parentId = 0;
    event.statusBeforeTrash = null;
    this.applyFields(event, dto, w, null, actor);
    return event;
  }

  /** `gone`: the route's answer when a concurrent permanent delete came first. */
  private async update(
    actor: Actor | null,
    found: EventEntity,
    dto: UpdateEventDto,
    w: PreparedWrite,
    gone: () => WpError,
    ifMatch: string | undefined,
  ): Promise<Tagged | Json> {
    await assertIfMatch(ifMatch, () => this.access.singleBody(actor, found));
    await this.probe(w); // after the permission and the target: nothing leaves for a write refused
    const saved = await this.uow.run(async (tx, changes) => {
      // The row as committed now, locked until the end, so that a concurrent update of other
      // fields or a trash is not overwritten; a fresh copy on every attempt. An event deleted for
      // good meanwhile answers as unknown (nothing may be linked to a row that is gone).
      const stored = await this.events.findForUpdate(found.id, tx);
      if (!stored) throw gone();
      assertUnchanged(ifMatch, found, stored);
      return this.apply(tx, changes, actor, stored, dto, w);
    });
    this.publisher.noteScheduled(saved.dateUtc, saved.status);
    return this.access.tagged(actor, saved, (await this.access.present([saved], { jsonLd: false }))[0]);
  }

  /** The update of the locked row `stored`: fields, slug, venue, term counts, links and the extensions' data. */
  private async apply(tx: Tx, changes: ChangeSet, actor: Actor | null, stored: EventEntity, dto: UpdateEventDto, w: PreparedWrite): Promise<EventEntity> {
    changes.record('event', stored.id);
    const before = { status: stored.status, published: countsAsPublished(stored.status) };
    const event = Object.assign(new EventEntity(), stored);
    this.applyFields(event, dto, w, stored, actor);
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
      await this.taxonomies.eventPublicationChanged(tx, event.id, countsAsPublished(event.status));
    }
    await this.writeLinks(tx, event, dto, w, actor, stored, changes);
    await this.extensions.saved(tx, event, { actor, input: w.raw, before: stored, changes });
    return event;
  }

  /**
   * The outbound requests of the write, after its parameters, permission and target are
   * checked and before its transaction: the image URL, and those of new nested venues/organizers.
   */
  private async probe(w: PreparedWrite): Promise<void> {
    w.image = await this.media.probeChoice(w.image);
    for (const [ref, prepared] of w.nested) {
      const service = ref === w.venue ? this.venues.items : this.organizers.items;
      w.nested.set(ref, await service.probePrepared(prepared));
    }
  }

  /**
   * Every check that needs no write: dates in the write's zone, text, the extensions' parameters
   * (reported together), then author, linked ids and image. `reader`: OUTER for a route's
   * write, else the transaction the write runs in.
   */
  private async prepare(
    actor: Actor | null,
    dto: UpdateEventDto,
    current: EventEntity | null,
    reader: Reader,
    raw: Json,
    sharing?: PreparedWrite,
  ): Promise<PreparedWrite> {
    const w = await this.prepareFields(actor, dto, current, raw);
    // `sharing`: a write of the same batch with the same author, links and image, checked already (createManyIn).
    return sharing ? Object.assign(w, linksOf(sharing)) : this.prepareLinks(actor, dto, w, reader);
  }

  /** The checks of prepare() that need no read: dates, text and the extensions' parameters. */
  private async prepareFields(actor: Actor | null, dto: UpdateEventDto, current: EventEntity | null, raw: Json): Promise<PreparedWrite> {
    const bad: Record<string, string> = {};
    const now = DateTime.utc();
    const zone =
      dto.timezone !== undefined && dto.timezone.trim() !== ''
        ? dto.timezone.trim()
        : dto.timezone === undefined && current
          ? current.timezone
          : this.config.timezone;
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
      image: { kind: 'keep' },
      nested: new Map(),
      raw,
    };
    const publication = publicationDateUtc(dto, zone, now);
    publication.bad.forEach((name) => (bad[name] = PARAM_MESSAGES.date));
    w.dateUtc = publication.utc;

    const unfiltered = can(actor, 'unfiltered_html');
    const clean = (field: string, value: string) => {
      const text = cleanTextField('event', field, value, unfiltered);
      const overflow = columnOverflow('event', field, text);
      if (overflow) bad[field] = overflow;
      return text;
    };
    if (dto.title !== undefined) {
      w.title = clean('title', dto.title).trim();
      if (w.title === '') bad.title = PARAM_MESSAGES.text;
    }
    if (dto.description !== undefined) w.description = clean('description', dto.description);
    if (dto.excerpt !== undefined) w.excerpt = clean('excerpt', dto.excerpt);
    if (dto.website !== undefined) w.website = clean('website', dto.website);
    if (dto.cost !== undefined) {
      w.cost = (Array.isArray(dto.cost) ? dto.cost : [dto.cost]).map((c) => clean('cost', String(c))).filter((c) => c.trim() !== '');
      const overflow = columnOverflow('event', 'cost', JSON.stringify(w.cost)); // stored as one JSON list
      if (overflow) bad.cost = overflow;
    }
    Object.assign(bad, await this.extensions.check(raw, { actor, current }));
    if (Object.keys(bad).length > 0) throw invalidParams(bad);
    return w;
  }

  /** The checks of prepare() that read: author, linked ids (new ones prepared) and image, set on `w`. */
  private async prepareLinks(actor: Actor | null, dto: UpdateEventDto, w: PreparedWrite, reader: Reader): Promise<PreparedWrite> {
    w.authorId = await resolveAuthor(actor, dto.author, (id) => this.users.exists(id, reader));
    w.venue = parseVenueInput(dto.venue);
    w.organizers = parseOrganizerInput(dto.organizer);
    await this.checkLinked(actor, w.venue ? [w.venue] : [], 'venue', reader);
    await this.checkLinked(actor, w.organizers ?? [], 'organizer', reader);
    // New venues/organizers are checked now, outside the transaction (spec: parameters first).
    for (const [ref, service] of [
      ...(w.venue ? [[w.venue, this.venues.items] as const] : []),
      ...(w.organizers ?? []).map((ref) => [ref, this.organizers.items] as const),
    ]) {
      if (ref.kind === 'new') w.nested.set(ref, await service.prepareCreate(actor, ref.data, true, reader));
    }
    w.image = await this.media.choose(actor, dto.image, 'remove', reader);
    return w;
  }

  /**
   * What probe() does, for a write inside a running unit of work: nothing may leave the service
   * while a transaction is open, so an image URL (the event's, a new venue's or organizer's) must
   * be one already known (its media item is reused), else the write is refused (400).
   */
  private async inWrite(tx: Tx, w: PreparedWrite): Promise<void> {
    w.image = await this.media.knownChoice(tx, w.image);
    for (const [ref, prepared] of w.nested) {
      const service = ref === w.venue ? this.venues.items : this.organizers.items;
      w.nested.set(ref, await service.knownPrepared(tx, prepared));
    }
    // prepare() read the linked ids through `tx`, which keeps them locked until it ends: linkedId need not check them again.
    w.checkedIn = tx;
  }

  /**
   * Bare ids must name items of the kind the caller may link (param error); `{id}` objects
   * likewise (invalid-linked-post-id). Linkable: not in the trash and readable by the caller.
   */
  private async checkLinked(actor: Actor | null, refs: LinkedRef[], kind: 'venue' | 'organizer', reader: Reader): Promise<void> {
    const service = kind === 'venue' ? this.venues.items : this.organizers.items;
    const ids = refs.filter((r): r is Extract<LinkedRef, { id: number }> => r.kind !== 'new').map((r) => r.id);
    if (ids.length === 0) return;
    const found = await service.linkableIds(actor, ids, reader);
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
    const requested = dto.status;
    event.status = resolveWriteStatus(actor, requested, current?.status, event.dateUtc, now);
    event.modifiedUtc = nowSql;
  }

  /** Organizers and terms, inside the write's transaction (the venue is set on the row before it is written). */
  private async writeLinks(
    tx: Tx,
    event: EventEntity,
    dto: UpdateEventDto,
    w: PreparedWrite,
    actor: Actor | null,
    current: EventEntity | null,
    changes: ChangeSet,
  ): Promise<void> {
    if (w.organizers !== undefined)
      await this.events.replaceOrganizers(tx, event.id, await this.organizerIds(tx, w, w.organizers, actor, changes), current === null);
    const published = countsAsPublished(event.status);
    for (const taxonomy of ['category', 'tag'] as const) {
      const items = taxonomy === 'category' ? dto.categories : dto.tags;
      if (items === undefined) continue;
      const ids = await this.taxonomies.resolveForEventWrite(tx, taxonomy, items, actor);
      await this.taxonomies.assignToEvent(tx, event.id, taxonomy, ids, published, current === null);
    }
  }

  /** writeLinks() for new events that share their organizers and terms (createManyIn): resolved once, linked in multi-row INSERTs. */
  private async writeManyLinks(tx: Tx, events: EventEntity[], dto: UpdateEventDto, w: PreparedWrite, actor: Actor | null, changes: ChangeSet): Promise<void> {
    if (w.organizers !== undefined) {
      const ids = await this.organizerIds(tx, w, w.organizers, actor, changes);
      const links = events.flatMap((e) =>
        ids.map((organizerId, position) => Object.assign(new EventOrganizerEntity(), { eventId: e.id, organizerId, position })),
      );
      await this.events.insertOrganizerLinks(links, tx);
    }
    for (const taxonomy of ['category', 'tag'] as const) {
      const items = taxonomy === 'category' ? dto.categories : dto.tags;
      if (items === undefined) continue;
      const ids = await this.taxonomies.resolveForEventWrite(tx, taxonomy, items, actor);
      await this.taxonomies.assignToNewEvents(
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
      if (w.checkedIn !== tx) await this.checkLinked(actor, [ref], kind, tx);
      return (ref as { id: number }).id;
    }
    const service = kind === 'venue' ? this.venues.items : this.organizers.items;
    const { entity, reused } = await service.createPrepared(actor, prepared, tx);
    if (!reused) changes.record(kind, entity.id);
    return entity.id;
  }
}

/** The fields of a write that createManyIn checks and links once: equal in every write, and no new venue or organizer. */
const SHARED_FIELDS = ['author', 'venue', 'organizer', 'image', 'categories', 'tags'] as const;

function sharesLinks(dtos: UpdateEventDto[]): boolean {
  const key = (dto: UpdateEventDto) => JSON.stringify(SHARED_FIELDS.map((f) => dto[f] ?? null));
  const first = dtos[0];
  if (first === undefined || !dtos.every((dto) => key(dto) === key(first))) return false;
  try {
    return [parseVenueInput(first.venue), ...(parseOrganizerInput(first.organizer) ?? [])].every((r) => r?.kind !== 'new');
  } catch {
    return false; // a bad link: createIn refuses it after the checks that come first
  }
}

/** What prepareLinks() set on a write, for writes that share it. */
function linksOf(w: PreparedWrite): Pick<PreparedWrite, 'authorId' | 'venue' | 'organizers' | 'image' | 'nested' | 'checkedIn'> {
  return { authorId: w.authorId, venue: w.venue, organizers: w.organizers, image: w.image, nested: w.nested, checkedIn: w.checkedIn };
}

function timingOf(e: EventEntity): EventTiming {
  return { startDate: e.startDate, endDate: e.endDate, startDateUtc: e.startDateUtc, endDateUtc: e.endDateUtc, timezone: e.timezone, allDay: e.allDay };
}
