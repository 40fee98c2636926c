import { Injectable } from '@nestjs/common';
import { Actor, assertCan, canEdit } from '../common/auth';
import { PostsService } from '../posts';
import type { EventEntity } from './entities/event.entity';
import { EventPresentation } from './event-presentation';
import { EventsRepository } from './events.repository';

/**
 * The authorize step of an event write (EventWriter), after its parameters are checked and
 * before its target is (spec: 400, then 401/403, then 404): the right to create, or to edit
 * the event as it was read.
 */
@Injectable()
export class EventWriteAuthorize {
  constructor(
    private readonly presentation: EventPresentation,
    private readonly posts: PostsService,
    private readonly events: EventsRepository,
  ) {}

  /** The event an update by id names, when that id is an event's; null for anything else (refused after the permission check). */
  async target(id: number): Promise<EventEntity | null> {
    return (await this.posts.typeOf(id)) === 'event' ? this.events.findById(id) : null;
  }

  create(actor: Actor | null): void {
    assertCan(actor, 'create_items');
  }

  /** The right to edit `existing`; for a target that is no event, the least right an edit needs (a 401/403 before its 404). */
  update(actor: Actor | null, existing: EventEntity | null): void {
    if (existing) this.presentation.assertMay(canEdit, actor, existing);
    else assertCan(actor, 'edit_own_unpublished');
  }
}
