import { Injectable } from '@nestjs/common';
import { Hook } from '../common/feature/hooks';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { type WriteParticipant, WRITE_PARTICIPANTS } from '../database/write-participants';
import { EventsRepository } from './events.repository';

/**
 * Keeps the listing columns of event_terms and event_organizers (ListingColumns) in step with
 * their events, in one place: every write runs through the unit of work and records the events
 * it touched (`changes.record('event', id)`: created, edited, trashed, restored, published by
 * the scheduler, relinked, the recurrence module's occurrences, the importers' events), so
 * before the commit one UPDATE per link table copies those events' columns onto their links
 * (EventsRepository.copyListingColumns), whichever path wrote them. Bulk loads outside the unit
 * of work (the seed) write the links with the columns set.
 */
@Hook(WRITE_PARTICIPANTS)
@Injectable()
export class ListingSync implements WriteParticipant {
  constructor(private readonly events: EventsRepository) {}

  async beforeCommit(tx: Tx, changes: ChangeSet): Promise<void> {
    const ids = changes
      .entries()
      .filter((c) => c.type === 'event')
      .map((c) => c.id);
    await this.events.copyListingColumns(ids, tx);
  }
}
