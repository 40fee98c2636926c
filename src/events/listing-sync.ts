import { Injectable } from '@nestjs/common';
import { Hook } from '../common/feature/hooks';
import type { ChangeSet } from '../database/change-log';
import { Dialect } from '../database/dialect';
import type { Tx } from '../database/tx';
import { type WriteParticipant, WRITE_PARTICIPANTS } from '../database/write-participants';

/** Events per UPDATE (bound parameters stay far below either engine's limit). */
const IDS_PER_STATEMENT = 500;

/**
 * Keeps the listing columns of event_terms and event_organizers (ListingColumns) in step with
 * their events, in one place: every write runs through the unit of work and
 * records the events it touched (`changes.record('event', id)`: created, edited, trashed,
 * restored, published by the scheduler, relinked, the recurrence module's occurrences, the
 * importers' events), so before the commit one UPDATE per link table copies those events'
 * columns onto their links, whichever path wrote them. Bulk loads outside the unit of work (the
 * seed) write the links with the columns set.
 */
@Hook(WRITE_PARTICIPANTS)
@Injectable()
export class ListingSync implements WriteParticipant {
  constructor(private readonly dialect: Dialect) {}

  async beforeCommit(tx: Tx, changes: ChangeSet): Promise<void> {
    const ids = changes
      .entries()
      .filter((c) => c.type === 'event')
      .map((c) => c.id);
    for (let at = 0; at < ids.length; at += IDS_PER_STATEMENT) {
      const chunk = ids.slice(at, at + IDS_PER_STATEMENT);
      for (const table of ['event_terms', 'event_organizers'] as const) {
        const [sql, params] = this.dialect.copyListingColumns(table, 'events', chunk);
        await tx.query(sql, params);
      }
    }
  }
}
