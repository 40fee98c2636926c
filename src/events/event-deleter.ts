import { Injectable } from '@nestjs/common';
import { assertIfMatch, assertUnchanged } from '../common/http/preconditions';
import { Actor, assertCan, canDelete } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { WpError } from '../common/errors';
import { UnitOfWork } from '../database/unit-of-work';
import { deleteForGood, trashedSlug } from '../items';
import { PostsService } from '../posts';
import { TaxonomiesService } from '../taxonomies';
import { EventEntity } from './entities/event.entity';
import { EventAccess } from './event-access';
import { eventInTrash, eventNotFound, invalidEventId, unknownEventSlug } from './events.errors';
import { EventsRepository } from './events.repository';

type Json = Record<string, unknown>;

/** DELETE of events (spec endpoints.md §4.9): to the trash, or with `force` for good (beyond.md #1). */
@Injectable()
export class EventDeleter {
  constructor(
    private readonly events: EventsRepository,
    private readonly access: EventAccess,
    private readonly posts: PostsService,
    private readonly taxonomies: TaxonomiesService,
    private readonly uow: UnitOfWork,
  ) {}

  /** DELETE by id (spec §4.9); with `force`, for good (beyond.md #1). */
  async removeById(actor: Actor | null, id: number, force = false, ifMatch?: string): Promise<Json> {
    const kind = await this.posts.typeOf(id);
    const event = kind === 'event' ? await this.events.findById(id) : null;
    // Permission first, on that event if it exists, else the general right (spec §4.9 step 2).
    if (event) this.access.assertMay(canDelete, actor, event);
    else assertCan(actor, 'delete_own_unpublished');
    if (kind === null) throw eventNotFound(id);
    if (!event) throw invalidEventId();
    const gone = () => eventNotFound(id);
    return force ? this.deleteForGood(actor, event, () => this.access.requireEvent(id), gone, ifMatch) : this.trash(actor, event, gone, ifMatch);
  }

  async removeBySlug(actor: Actor | null, slug: string, force = false, ifMatch?: string): Promise<Json> {
    const event = await this.access.requireSlug(slug);
    this.access.assertMay(canDelete, actor, event);
    const gone = () => unknownEventSlug();
    return force ? this.deleteForGood(actor, event, () => this.access.requireSlug(slug), gone, ifMatch) : this.trash(actor, event, gone, ifMatch);
  }

  /** `gone`: the route's answer when a concurrent permanent delete came first. */
  private async trash(actor: Actor | null, event: EventEntity, gone: () => WpError, ifMatch: string | undefined): Promise<Json> {
    if (event.status === 'trash') throw eventInTrash();
    await assertIfMatch(ifMatch, () => this.access.singleBody(actor, event));
    const trashed = await this.uow.run(async (tx, changes) => {
      changes.record('event', event.id);
      // The row as committed now, locked until the end: a concurrent delete may have come first.
      const current = await this.events.findForUpdate(event.id, tx);
      if (!current) throw gone();
      assertUnchanged(ifMatch, event, current);
      if (current.status === 'trash') throw eventInTrash();
      const next = Object.assign(new EventEntity(), current, {
        statusBeforeTrash: current.status,
        status: 'trash',
        slug: trashedSlug(current.slug),
        modifiedUtc: nowUtcSql(),
      });
      await this.events.save(next, tx, { textChanged: false });
      await this.taxonomies.eventPublicationChanged(tx, next.id, false);
      return next;
    });
    return (await this.access.present([trashed], { jsonLd: false }))[0];
  }

  /**
   * Permanent delete (beyond.md #1), from the trash too: the event, its organizer and term links
   * (published ones leave the term counts), its search document and its id. `previous` is the
   * event as the caller's single read shows it, JSON-LD included; a trashed event, which single
   * reads refuse, is shown as it is stored (compatibility note).
   */
  private async deleteForGood(
    actor: Actor | null,
    found: EventEntity,
    reread: () => Promise<EventEntity>,
    gone: () => WpError,
    ifMatch: string | undefined,
  ): Promise<Json> {
    return deleteForGood(this.uow, {
      type: 'event',
      found,
      condition: { ifMatch, body: (event) => this.access.singleBody(actor, event) },
      reread,
      assertMayDelete: (event) => this.access.assertMay(canDelete, actor, event),
      present: async (event) => (await this.access.present([event], { jsonLd: true, actor }))[0],
      lock: (tx, id) => this.events.findForUpdate(id, tx),
      gone,
      remove: async (tx, event) => {
        await this.taxonomies.eventRemoved(tx, event.id);
        await this.events.remove(event.id, tx);
        await this.posts.release(event.id, tx);
      },
    });
  }
}
