// STOP-GAP until POST /events exists: event rows (and their organizer links) written straight
// through the DataSource, so that the venue/organizer tests can exercise what looks at linked
// events (has_events, only_with_upcoming, the `event` filter, unlinking on trash). Once event
// writes are served, seed through the API instead and delete this file.
import { DataSource } from 'typeorm';
import { nowUtcSql } from '../../src/common/datetime/clock';
import { EventOrganizerEntity } from '../../src/events/entities/event-organizer.entity';
import { EventEntity } from '../../src/events/entities/event.entity';
import { PostsService } from '../../src/posts';
import { eventRow } from './rows';
import type { TestApp } from './test-app';

export interface SeededEvent {
  status?: string;
  /** Start in UTC, `YYYY-MM-DD HH:MM:SS` (the event zone is UTC); default far in the future. */
  startUtc?: string;
  venueId?: number | null;
  organizerIds?: number[];
}

/** Inserts an event with every column set; returns its id (from the shared post sequence). */
export async function seedEvent(t: TestApp, e: SeededEvent = {}): Promise<number> {
  return t.app.get(DataSource).transaction(async (m) => {
    const id = await t.app.get(PostsService).allocate('event', m);
    const now = nowUtcSql();
    await m.getRepository(EventEntity).insert(
      eventRow(id, {
        status: e.status ?? 'publish',
        statusBeforeTrash: e.status === 'trash' ? 'publish' : null,
        // a scheduled event has its publication date ahead (else it counts as published, spec §3 rule 5)
        dateUtc: e.status === 'future' ? '2098-12-31 00:00:00' : now,
        modifiedUtc: now,
        ...(e.startUtc ? { startDateUtc: e.startUtc } : {}),
        venueId: e.venueId ?? null,
      }),
    );
    const organizers = e.organizerIds ?? [];
    if (organizers.length > 0) {
      await m.getRepository(EventOrganizerEntity).insert(organizers.map((organizerId, position) => ({ eventId: id, organizerId, position })));
    }
    return id;
  });
}

/** What an event links to, read back from the database. */
export async function eventLinks(t: TestApp, eventId: number): Promise<{ venueId: number | null; organizerIds: number[] }> {
  const db = t.app.get(DataSource);
  const event = await db.getRepository(EventEntity).findOneOrFail({ where: { id: eventId } });
  const links = await db.getRepository(EventOrganizerEntity).find({ where: { eventId }, order: { position: 'ASC' } });
  return { venueId: event.venueId, organizerIds: links.map((l) => l.organizerId) };
}
