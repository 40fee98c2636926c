import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import type { WriteParticipant } from '../database/write-participants';
import type { EventEntity } from './entities/event.entity';
import { EventHooks } from './event-hooks';
import { declaredParticipants } from './event-write-origin';
import type { PreparedWrite } from './event-write-prepare';
import { ScheduledPublisher } from './scheduled-publisher';

/**
 * The participants step of an event write (EventWriter): inside its transaction, after the
 * persist step, the event hooks' `saved` (told the write's origin); the participants
 * its origin declares for the unit of work (an import's bookkeeping, WriteParticipant.written);
 * and after the commit, the scheduled publisher told of a future publication.
 */
@Injectable()
export class EventWriteParticipants {
  constructor(
    private readonly hooks: EventHooks,
    private readonly publisher: ScheduledPublisher,
  ) {}

  /** Every event hook's `saved`, in the hooks' order. `before`: the row as it was (null on create). */
  saved(tx: Tx, changes: ChangeSet, actor: Actor | null, event: EventEntity, w: PreparedWrite, before: EventEntity | null): Promise<void> {
    return this.hooks.saved(tx, event, { actor, input: w.raw, before, changes, origin: w.origin });
  }

  /** The participants the write's origin declares, for UnitOfWork.run. */
  declared(w: PreparedWrite): readonly WriteParticipant[] {
    return declaredParticipants(w.origin);
  }

  /** After the write (or, inside a running unit of work, after its part of it). */
  written(event: EventEntity): void {
    this.publisher.noteScheduled(event.dateUtc, event.status);
  }
}
