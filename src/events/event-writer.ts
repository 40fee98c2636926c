import { Injectable } from '@nestjs/common';
import { assertIfMatch, assertUnchanged, Tagged } from '../common/http/preconditions';
import type { Actor } from '../common/auth';
import type { WpError } from '../common/errors';
import type { ChangeSet } from '../database/change-log';
import { OUTER, type Tx } from '../database/tx';
import { UnitOfWork } from '../database/unit-of-work';
import type { UpdateEventDto } from './dto/write-event.dto';
import type { EventEntity } from './entities/event.entity';
import { EventPresentation } from './event-presentation';
import { EventWriteAuthorize } from './event-write-authorize';
import { EXTENSION_ORIGIN, type EventWriteOrigin, ROUTE_ORIGIN } from './event-write-origin';
import { EventWriteParticipants } from './event-write-participants';
import { EventWritePersist } from './event-write-persist';
import { EventWritePrepare, type PreparedWrite } from './event-write-prepare';
import { eventNotFound, unknownEventSlug } from './events.errors';
import { EventsRepository } from './events.repository';
import { parseOrganizerInput, parseVenueInput } from './linked-input';

type Json = Record<string, unknown>;

/**
 * The event write pipeline (spec endpoints.md §4.3–§4.8), one for every caller, each saying who
 * it is (EventWriteOrigin): the routes, the editing form, EventWrites (an extension's or a
 * series' writes inside a running unit of work) and the importers. Its steps, in the spec's
 * order: prepare (every parameter check, 400: EventWritePrepare), authorize (401/403:
 * EventWriteAuthorize), the target (404/400), then one transaction (the caller's, or a unit of
 * work of its own with the participants its origin declares) in which persist writes every row
 * the write touches (EventWritePersist) and the participants follow (EventWriteParticipants).
 */
@Injectable()
export class EventWriter {
  constructor(
    private readonly prepare: EventWritePrepare,
    private readonly authorize: EventWriteAuthorize,
    private readonly persist: EventWritePersist,
    private readonly participants: EventWriteParticipants,
    private readonly unitOfWork: UnitOfWork,
    private readonly presentation: EventPresentation,
    private readonly events: EventsRepository,
  ) {}

  /** POST /events. `raw`: the request's parameters as received, for the event extensions. */
  async create(actor: Actor | null, dto: UpdateEventDto, raw: Json = {}, origin: EventWriteOrigin = ROUTE_ORIGIN): Promise<Json> {
    const w = await this.prepare.prepare({ actor, dto, raw, origin }, null, OUTER);
    this.authorize.create(actor);
    await this.prepare.probe(w);
    const saved = await this.unitOfWork.run((tx, changes) => this.inserted(tx, changes, actor, w), this.participants.declared(w));
    this.participants.written(saved);
    return (await this.presentation.present([saved], { jsonLd: false }))[0];
  }

  async updateById(
    actor: Actor | null,
    id: number,
    dto: UpdateEventDto,
    ifMatch?: string,
    raw: Json = {},
    origin: EventWriteOrigin = ROUTE_ORIGIN,
  ): Promise<Tagged | Json> {
    const existing = await this.authorize.target(id);
    const w = await this.prepare.prepare({ actor, dto, raw, origin }, existing, OUTER);
    this.authorize.update(actor, existing);
    return this.update(actor, await this.presentation.requireEvent(id), w, () => eventNotFound(id), ifMatch);
  }

  async updateBySlug(
    actor: Actor | null,
    slug: string,
    dto: UpdateEventDto,
    ifMatch?: string,
    raw: Json = {},
    origin: EventWriteOrigin = ROUTE_ORIGIN,
  ): Promise<Tagged | Json> {
    const existing = await this.presentation.requireSlug(slug);
    const w = await this.prepare.prepare({ actor, dto, raw, origin }, existing, OUTER);
    this.authorize.update(actor, existing);
    return this.update(actor, existing, w, unknownEventSlug, ifMatch);
  }

  // ---- writes inside a running unit of work (EventWrites) ----

  /**
   * A create inside `tx`, with the route's checks in the route's order; every read goes
   * through `tx`. Nothing may leave the service inside a transaction, so an image URL (of the
   * event or of a new venue/organizer) must be one already known (EventWritePrepare.inWrite).
   */
  async createIn(
    tx: Tx,
    changes: ChangeSet,
    actor: Actor | null,
    dto: UpdateEventDto,
    raw: Json,
    origin: EventWriteOrigin = EXTENSION_ORIGIN,
  ): Promise<EventEntity> {
    const w = await this.prepare.prepare({ actor, dto, raw, origin }, null, tx);
    this.authorize.create(actor);
    await this.prepare.inWrite(tx, w);
    const event = await this.inserted(tx, changes, actor, w);
    this.participants.written(event);
    return event;
  }

  /**
   * Many creates inside `tx`, with the rows, links, change records, errors and extension hooks
   * of as many createIn calls in a row, in a number of statements that does not grow with the
   * list (a series' occurrences) when the writes share their author, links, image and terms
   * (EventWritePersist.insertMany). Other lists go through createIn one by one. The `saved`
   * hooks run after every row and link of the list is written, in the list's order.
   */
  async createManyIn(
    tx: Tx,
    changes: ChangeSet,
    actor: Actor | null,
    writes: { dto: UpdateEventDto; raw: Json }[],
    origin: EventWriteOrigin = EXTENSION_ORIGIN,
  ): Promise<EventEntity[]> {
    if (!sharesLinks(writes.map((x) => x.dto))) {
      const created: EventEntity[] = [];
      for (const { dto, raw } of writes) created.push(await this.createIn(tx, changes, actor, dto, raw, origin));
      return created;
    }
    // The first write checked as createIn checks it; the others' own fields after it, their links being the same.
    const shared = await this.prepare.prepare({ actor, ...writes[0], origin }, null, tx);
    this.authorize.create(actor);
    await this.prepare.inWrite(tx, shared);
    const prepared = [shared];
    for (const write of writes.slice(1)) prepared.push(await this.prepare.prepare({ actor, ...write, origin }, null, tx, shared));
    const events = await this.persist.insertMany(tx, changes, actor, prepared);
    for (const [i, event] of events.entries()) {
      await this.participants.saved(tx, changes, actor, event, prepared[i], null);
      this.participants.written(event);
    }
    return events;
  }

  /** An update inside `tx`: the row is locked first, then checked as the route checks it. */
  async updateIn(
    tx: Tx,
    changes: ChangeSet,
    actor: Actor | null,
    id: number,
    dto: UpdateEventDto,
    raw: Json,
    origin: EventWriteOrigin = EXTENSION_ORIGIN,
  ): Promise<EventEntity> {
    const stored = await this.events.findForUpdate(id, tx);
    if (!stored) throw eventNotFound(id);
    const w = await this.prepare.prepare({ actor, dto, raw, origin }, stored, tx);
    this.authorize.update(actor, stored);
    await this.prepare.inWrite(tx, w);
    const event = await this.applied(tx, changes, actor, stored, w);
    this.participants.written(event);
    return event;
  }

  /** `gone`: the route's answer when a concurrent permanent delete came first. */
  private async update(actor: Actor | null, found: EventEntity, w: PreparedWrite, gone: () => WpError, ifMatch: string | undefined): Promise<Tagged | Json> {
    await assertIfMatch(ifMatch, () => this.presentation.singleBody(actor, found));
    await this.prepare.probe(w); // after the permission and the target: nothing leaves for a write refused
    const saved = await this.unitOfWork.run(async (tx, changes) => {
      // The row as committed now, locked until the end, so that a concurrent update of other
      // fields or a trash is not overwritten; a fresh copy on every attempt. An event deleted for
      // good meanwhile answers as unknown (nothing may be linked to a row that is gone).
      const stored = await this.events.findForUpdate(found.id, tx);
      if (!stored) throw gone();
      assertUnchanged(ifMatch, found, stored);
      return this.applied(tx, changes, actor, stored, w);
    }, this.participants.declared(w));
    this.participants.written(saved);
    return this.presentation.tagged(actor, saved, (await this.presentation.present([saved], { jsonLd: false }))[0]);
  }

  /** Persist and participants of a create, inside its transaction. */
  private async inserted(tx: Tx, changes: ChangeSet, actor: Actor | null, w: PreparedWrite): Promise<EventEntity> {
    const event = await this.persist.insert(tx, changes, actor, w);
    await this.participants.saved(tx, changes, actor, event, w, null);
    return event;
  }

  /** Persist and participants of an update of the locked row `stored`, inside its transaction. */
  private async applied(tx: Tx, changes: ChangeSet, actor: Actor | null, stored: EventEntity, w: PreparedWrite): Promise<EventEntity> {
    const event = await this.persist.apply(tx, changes, actor, stored, w);
    await this.participants.saved(tx, changes, actor, event, w, stored);
    return event;
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
