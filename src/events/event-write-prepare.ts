import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { Actor, can } from '../common/auth';
import { formatSql } from '../common/datetime/format';
import { parseDateInput } from '../common/datetime/parse-date';
import { invalidParam, invalidParams, PARAM_MESSAGES } from '../common/errors';
import { cleanTextField, columnOverflow } from '../common/text/text-fields';
import { EVENT_TEXT } from './event-text';
import { AppConfig } from '../config/app-config';
import type { Reader, Tx } from '../database/tx';
import { publicationDateUtc, resolveAuthor } from '../items';
import type { LinkedItemReads, LinkedItemWrites, PreparedCreate } from '../linked-items';
import { ImageChoice, MediaService } from '../media';
import { ORGANIZER_TOKENS, OrganizerEntity } from '../organizers';
import { UsersService } from '../users';
import { VENUE_TOKENS, VenueEntity } from '../venues';
import type { UpdateEventDto } from './dto/write-event.dto';
import type { EventEntity } from './entities/event.entity';
import { EventHooks } from './event-hooks';
import type { EventWriteOrigin } from './event-write-origin';
import { invalidLinkedPostId, LinkedRef, parseOrganizerInput, parseVenueInput } from './linked-input';

type Json = Record<string, unknown>;

/** A write after validation: everything parsed, nothing stored yet. */
export interface PreparedWrite {
  dto: UpdateEventDto;
  origin: EventWriteOrigin;
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
  /** Venues/organizers to create, already checked (see EventWritePersist.linkedId). */
  nested: Map<LinkedRef, PreparedCreate>;
  /** The transaction that checked (and locked) the linked ids, for a write inside a running unit of work. */
  checkedIn?: Tx;
  /** The write's parameters as received, for the event hooks (the DTO keeps only the core's). */
  raw: Json;
}

/** What the prepare step is given: the write, the event it updates (null on create), and where it reads. */
export interface WriteRequest {
  actor: Actor | null;
  dto: UpdateEventDto;
  raw: Json;
  origin: EventWriteOrigin;
}

/**
 * The first step of an event write (EventWriter): every check that needs no write, in the spec's
 * order (parameters before permission, endpoints.md §4.3–§4.8): dates in the write's zone, text
 * and the hooks' parameters (reported together), then author, linked ids and image. Also the
 * outbound requests of a write (probe), made after its permission and target are checked.
 */
@Injectable()
export class EventWritePrepare {
  constructor(
    private readonly config: AppConfig,
    private readonly hooks: EventHooks,
    private readonly users: UsersService,
    @Inject(VENUE_TOKENS.reads) private readonly venueReads: LinkedItemReads<VenueEntity>,
    @Inject(VENUE_TOKENS.writes) private readonly venueWrites: LinkedItemWrites<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.reads) private readonly organizerReads: LinkedItemReads<OrganizerEntity>,
    @Inject(ORGANIZER_TOKENS.writes) private readonly organizerWrites: LinkedItemWrites<OrganizerEntity>,
    private readonly media: MediaService,
  ) {}

  /**
   * `reader`: OUTER for a write whose transaction is not open yet, else the transaction it runs
   * in. `sharing`: a write of the same batch with the same author, links and image, checked
   * already (EventWriter.createManyIn).
   */
  async prepare(req: WriteRequest, current: EventEntity | null, reader: Reader, sharing?: PreparedWrite): Promise<PreparedWrite> {
    const w = await this.prepareFields(req, current);
    return sharing ? Object.assign(w, linksOf(sharing)) : this.prepareLinks(req, w, reader);
  }

  /**
   * The outbound requests of the write, after its parameters, permission and target are
   * checked and before its transaction: the image URL, and those of new nested venues/organizers.
   */
  async probe(w: PreparedWrite): Promise<void> {
    w.image = await this.media.probeChoice(w.image);
    for (const [ref, prepared] of w.nested) w.nested.set(ref, await this.writesOf(w, ref).probePrepared(prepared));
  }

  /**
   * What probe() does, for a write inside a running unit of work: nothing may leave the service
   * while a transaction is open, so an image URL (the event's, a new venue's or organizer's) must
   * be one already known (its media item is reused), else the write is refused (400).
   */
  async inWrite(tx: Tx, w: PreparedWrite): Promise<void> {
    w.image = await this.media.knownChoice(tx, w.image);
    for (const [ref, prepared] of w.nested) w.nested.set(ref, await this.writesOf(w, ref).knownPrepared(tx, prepared));
    // prepare() read the linked ids through `tx`, which keeps them locked until it ends: they need no second check.
    w.checkedIn = tx;
  }

  /**
   * Bare ids must name items of the kind the caller may link (param error); `{id}` objects
   * likewise (invalid-linked-post-id). Linkable: not in the trash and readable by the caller.
   */
  async checkLinked(actor: Actor | null, refs: LinkedRef[], kind: 'venue' | 'organizer', reader: Reader): Promise<void> {
    const reads = kind === 'venue' ? this.venueReads : this.organizerReads;
    const ids = refs.filter((r): r is Extract<LinkedRef, { id: number }> => r.kind !== 'new').map((r) => r.id);
    if (ids.length === 0) return;
    const found = await reads.linkableIds(actor, ids, reader);
    for (const ref of refs) {
      if (ref.kind === 'id' && !found.has(ref.id)) throw invalidParam(kind, PARAM_MESSAGES.unknownId(kind));
      if (ref.kind === 'ref' && !found.has(ref.id)) throw invalidLinkedPostId();
    }
  }

  private writesOf(w: PreparedWrite, ref: LinkedRef): LinkedItemWrites<VenueEntity> | LinkedItemWrites<OrganizerEntity> {
    return ref === w.venue ? this.venueWrites : this.organizerWrites;
  }

  /** The checks of prepare() that need no read: dates, text and the hooks' parameters. */
  private async prepareFields({ actor, dto, raw, origin }: WriteRequest, current: EventEntity | null): Promise<PreparedWrite> {
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
      dto,
      origin,
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
      const text = cleanTextField(EVENT_TEXT, field, value, unfiltered);
      const overflow = columnOverflow(EVENT_TEXT, field, text);
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
      const overflow = columnOverflow(EVENT_TEXT, 'cost', JSON.stringify(w.cost)); // stored as one JSON list
      if (overflow) bad.cost = overflow;
    }
    Object.assign(bad, await this.hooks.check(raw, { actor, current, origin }));
    if (Object.keys(bad).length > 0) throw invalidParams(bad);
    return w;
  }

  /** The checks of prepare() that read: author, linked ids (new ones prepared) and image, set on `w`. */
  private async prepareLinks({ actor, dto }: WriteRequest, w: PreparedWrite, reader: Reader): Promise<PreparedWrite> {
    w.authorId = await resolveAuthor(actor, dto.author, (id) => this.users.exists(id, reader));
    w.venue = parseVenueInput(dto.venue);
    w.organizers = parseOrganizerInput(dto.organizer);
    await this.checkLinked(actor, w.venue ? [w.venue] : [], 'venue', reader);
    await this.checkLinked(actor, w.organizers ?? [], 'organizer', reader);
    // New venues/organizers are checked now, outside the transaction (spec: parameters first).
    for (const [ref, writes] of [
      ...(w.venue ? [[w.venue, this.venueWrites] as const] : []),
      ...(w.organizers ?? []).map((ref) => [ref, this.organizerWrites] as const),
    ]) {
      if (ref.kind === 'new') w.nested.set(ref, await writes.prepareCreate(actor, ref.data, true, reader));
    }
    w.image = await this.media.choose(actor, dto.image, 'remove', reader);
    return w;
  }
}

/** What prepareLinks() set on a write, for writes that share it. */
function linksOf(w: PreparedWrite): Pick<PreparedWrite, 'authorId' | 'venue' | 'organizers' | 'image' | 'nested' | 'checkedIn'> {
  return { authorId: w.authorId, venue: w.venue, organizers: w.organizers, image: w.image, nested: w.nested, checkedIn: w.checkedIn };
}
