import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { placeholders } from '../database/sql';

/** The statuses of an event that "uses" a venue or organizer: every one but the trash. */
const LIVE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/** Where the links of each kind live: a column of an indexed table whose rows carry the event's status. */
const LINKS = {
  // ix_events_venue (venue_id, status, …): the count reads index entries only.
  venue: { table: 'events', column: 'venue_id' },
  // ix_event_organizers_listing (organizer_id, status, …): the link rows carry the event's status.
  organizer: { table: 'event_organizers', column: 'organizer_id' },
} as const;

/**
 * How many events (not in the trash) use each venue or organizer of a list page: one grouped
 * query over the link index for the whole page, never a scan of the events table per row. A
 * read only; the editing pages write nothing by SQL.
 */
@Injectable()
export class RecordCounts {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async eventCounts(kind: keyof typeof LINKS, ids: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>(ids.map((id) => [id, 0]));
    if (ids.length === 0) return out;
    const { table, column } = LINKS[kind];
    const rows: { id: number | string; n: number | string }[] = await this.db.query(
      `SELECT ${column} AS id, COUNT(*) AS n FROM ${table} WHERE ${column} IN (${placeholders(ids)}) AND status IN (${placeholders(LIVE_STATUSES)}) GROUP BY ${column}`,
      [...ids, ...LIVE_STATUSES],
    );
    for (const row of rows) out.set(Number(row.id), Number(row.n));
    return out;
  }
}
