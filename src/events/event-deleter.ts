import { Injectable } from '@nestjs/common';
import { assertIfMatch, assertUnchanged } from '../common/http/preconditions';
import { Actor, assertCan, canDelete } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { WpError } from '../common/errors';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { UnitOfWork } from '../database/unit-of-work';
import { deleteForGood, trashedSlug } from '../items';
import { PostsService } from '../posts';
import { TermsService } from '../taxonomies';
import { EventEntity } from './entities/event.entity';
import { EventPresentation } from './event-presentation';
import { EventHooks } from './event-hooks';
import { declaredParticipants, EXTENSION_ORIGIN, type EventWriteOrigin, ROUTE_ORIGIN } from './event-write-origin';
import { eventInTrash, eventNotFound, invalidEventId, unknownEventSlug } from './events.errors';
import { EventsRepository } from './events.repository';

type Json = Record<string, unknown>;

/** DELETE of events (spec endpoints.md §4.9): to the trash, or with `force` for good (beyond.md #1). */
@Injectable()
export class EventDeleter {
  constructor(
    private readonly events: EventsRepository,
    private readonly presentation: EventPresentation,
    private readonly posts: PostsService,
    private readonly terms: TermsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly hooks: EventHooks,
  ) {}

  /** DELETE by id (spec §4.9); with `force`, for good (beyond.md #1). `input`: the request's parameters, for the hooks. */
  async removeById(actor: Actor | null, id: number, force = false, ifMatch?: string, input: Json = {}, origin: EventWriteOrigin = ROUTE_ORIGIN): Promise<Json> {
    const kind = await this.posts.typeOf(id);
    const event = kind === 'event' ? await this.events.findById(id) : null;
    // Permission first, on that event if it exists, else the general right (spec §4.9 step 2).
    if (event) this.presentation.assertMay(canDelete, actor, event);
    else assertCan(actor, 'delete_own_unpublished');
    if (kind === null) throw eventNotFound(id);
    if (!event) throw invalidEventId();
    const gone = () => eventNotFound(id);
    const op = { actor, gone, ifMatch, input, origin };
    return force ? this.deleteForGood(event, () => this.presentation.requireEvent(id), op) : this.trash(event, op);
  }

  async removeBySlug(
    actor: Actor | null,
    slug: string,
    force = false,
    ifMatch?: string,
    input: Json = {},
    origin: EventWriteOrigin = ROUTE_ORIGIN,
  ): Promise<Json> {
    const event = await this.presentation.requireSlug(slug);
    this.presentation.assertMay(canDelete, actor, event);
    const op = { actor, gone: () => unknownEventSlug(), ifMatch, input, origin };
    return force ? this.deleteForGood(event, () => this.presentation.requireSlug(slug), op) : this.trash(event, op);
  }

  /**
   * A delete inside a running unit of work (EventWrites.remove): the row locked, the right to
   * delete it checked, then the route's trash or permanent delete with the event hooks.
   */
  async removeIn(
    tx: Tx,
    changes: ChangeSet,
    actor: Actor | null,
    id: number,
    force: boolean,
    input: Json,
    origin: EventWriteOrigin = EXTENSION_ORIGIN,
  ): Promise<void> {
    const current = await this.events.findForUpdate(id, tx);
    if (!current) throw eventNotFound(id);
    this.presentation.assertMay(canDelete, actor, current);
    changes.record('event', id);
    const op = { actor, input, origin };
    if (force) await this.removeRow(tx, changes, op, current);
    else await this.trashRow(tx, changes, op, current);
  }

  private async trash(event: EventEntity, op: DeleteRequest): Promise<Json> {
    if (event.status === 'trash') throw eventInTrash();
    await assertIfMatch(op.ifMatch, () => this.presentation.singleBody(op.actor, event));
    const trashed = await this.unitOfWork.run(async (tx, changes) => {
      changes.record('event', event.id);
      // The row as committed now, locked until the end: a concurrent delete may have come first.
      const current = await this.events.findForUpdate(event.id, tx);
      if (!current) throw op.gone();
      assertUnchanged(op.ifMatch, event, current);
      return this.trashRow(tx, changes, op, current);
    }, declaredParticipants(op.origin));
    return (await this.presentation.present([trashed], { jsonLd: false }))[0];
  }

  /** The locked row `current` to the trash, the hooks told first. */
  private async trashRow(tx: Tx, changes: ChangeSet, { actor, input, origin }: DeleteParts, current: EventEntity): Promise<EventEntity> {
    if (current.status === 'trash') throw eventInTrash();
    await this.hooks.deleting(tx, current, { actor, input, force: false, changes, origin });
    const next = Object.assign(new EventEntity(), current, {
      statusBeforeTrash: current.status,
      status: 'trash',
      slug: trashedSlug(current.slug),
      modifiedUtc: nowUtcSql(),
    });
    await this.events.save(next, tx, { textChanged: false });
    await this.terms.eventPublicationChanged(tx, next.id, false);
    return next;
  }

  /** The locked row `event` and everything keyed by its id, for good; the hooks told first. */
  private async removeRow(tx: Tx, changes: ChangeSet, { actor, input, origin }: DeleteParts, event: EventEntity): Promise<void> {
    await this.hooks.deleting(tx, event, { actor, input, force: true, changes, origin });
    await this.terms.eventRemoved(tx, event.id);
    await this.events.remove(event.id, tx);
    await this.posts.release(event.id, tx);
  }

  /**
   * Permanent delete (beyond.md #1), from the trash too: the event, its organizer and term links
   * (published ones leave the term counts), its search document and its id. `previous` is the
   * event as the caller's single read shows it, JSON-LD included; a trashed event, which single
   * reads refuse, is shown as it is stored (compatibility note).
   */
  private async deleteForGood(found: EventEntity, reread: () => Promise<EventEntity>, op: DeleteRequest): Promise<Json> {
    const { actor } = op;
    return deleteForGood(this.unitOfWork, {
      type: 'event',
      found,
      condition: { ifMatch: op.ifMatch, body: (event) => this.presentation.singleBody(actor, event) },
      reread,
      assertMayDelete: (event) => this.presentation.assertMay(canDelete, actor, event),
      present: async (event) => (await this.presentation.present([event], { jsonLd: true, actor }))[0],
      lock: (tx, id) => this.events.findForUpdate(id, tx),
      gone: op.gone,
      remove: (tx, event, changes) => this.removeRow(tx, changes, op, event),
      participants: declaredParticipants(op.origin),
    });
  }
}

/** What a delete's hooks are told: the caller, its parameters and who asked. */
interface DeleteParts {
  actor: Actor | null;
  input: Json;
  origin: EventWriteOrigin;
}

/** A DELETE route's request: its If-Match, and its answer when a concurrent permanent delete came first. */
interface DeleteRequest extends DeleteParts {
  gone: () => WpError;
  ifMatch: string | undefined;
}
