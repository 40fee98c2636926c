import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { insertInChunks } from '../database/bulk-insert';
import { Dialect } from '../database/dialect';
import type { Tx } from '../database/tx';
import { placeholders } from '../database/sql';
import { chooseFreeSlugs, storeUnderFreeSlug } from '../items';
import { EventOrganizerEntity } from '../organizers';
import { EventEntity } from './entities/event.entity';
import { searchDocument, searchTexts } from './search-grams';

/** Search documents are long (hundreds of tokens): a few hundred to a statement. */
const SEARCH_ROWS_PER_STATEMENT = 200;

/** New events written by one INSERT in insertAll (as many rows as insertInChunks puts in one statement at most). */
const NEW_ROWS_PER_STATEMENT = 500;

/** Events per UPDATE of copyListingColumns (bound parameters stay far below either engine's limit). */
const LISTING_IDS_PER_STATEMENT = 500;

/**
 * The queries on event rows and their organizer links: reads by id and slug, inserts and
 * updates with their search documents and slugs, deletes, the listing columns of the links,
 * and the scheduled publisher's. The list queries are EventListRepository's.
 */
@Injectable()
export class EventsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dialect: Dialect,
  ) {}

  private events(manager: EntityManager = this.db.manager) {
    return manager.getRepository(EventEntity);
  }

  findById(id: number): Promise<EventEntity | null> {
    return this.events().findOne({ where: { id } });
  }

  /** The event as committed now, kept from other writers until `tx` ends (Dialect.lockForUpdate). */
  findForUpdate(id: number, tx: Tx): Promise<EventEntity | null> {
    return this.dialect.lockForUpdate(this.events(tx).createQueryBuilder('e').where('e.id = :id', { id })).getOne();
  }

  /** By exact slug, any status (spec §4.2 step 1); a live event wins over a trashed one. */
  async findBySlug(slug: string): Promise<EventEntity | null> {
    const rows = await this.events().find({ where: { slug }, order: { id: 'ASC' } });
    return rows.find((e) => e.status !== 'trash') ?? rows[0] ?? null;
  }

  /**
   * A new event's row under the first free slug for `base`, with its search document (the text
   * pre-filter). Every column is set by the caller: no read-back of the row.
   */
  async insert(event: EventEntity, base: string, tx: Tx): Promise<void> {
    await storeUnderFreeSlug(tx, this.dialect, 'events', event, base, () => insertInChunks(tx, EventEntity, [event]));
    await this.writeSearch([event], tx);
  }

  /**
   * New events (ids allocated, every column set but the slug), each under the first free slug
   * for its base as insert() would choose them one after the other, with their search
   * documents, in a few statements for the whole list. A slug taken meanwhile by a concurrent
   * writer (the unique index refuses the statement, which writes nothing) sends that
   * statement's rows through insert(), one by one.
   */
  async insertAll(items: { event: EventEntity; base: string }[], tx: Tx): Promise<void> {
    await chooseFreeSlugs(
      tx,
      'events',
      items.map(({ event, base }) => ({ item: event, base, live: event.status !== 'trash' })),
    );
    for (let i = 0; i < items.length; i += NEW_ROWS_PER_STATEMENT) {
      const chunk = items.slice(i, i + NEW_ROWS_PER_STATEMENT);
      try {
        await insertInChunks(
          tx,
          EventEntity,
          chunk.map((c) => c.event),
        );
      } catch (err) {
        if (!this.dialect.violatesUnique(err, 'events', 'uq_events_live_slug', ['live_slug'])) throw err;
        for (const { event, base } of chunk) await storeUnderFreeSlug(tx, this.dialect, 'events', event, base, () => insertInChunks(tx, EventEntity, [event]));
      }
    }
    await this.writeSearchInChunks(
      items.map((c) => c.event),
      tx,
    );
  }

  /** Bulk load (`seed`): rows with their ids already allocated, in the caller's transaction. */
  /**
   * New events with every column set, and their search documents: `documents[i]` is that of
   * `events[i]` when the caller made them already (SearchDocumentsThread), else made here.
   */
  async insertMany(events: EventEntity[], tx: Tx, documents?: string[]): Promise<void> {
    await insertInChunks(tx, EventEntity, events);
    await this.writeSearchInChunks(events, tx, documents);
  }

  private async writeSearchInChunks(events: EventEntity[], tx: Tx, documents?: string[]): Promise<void> {
    for (let i = 0; i < events.length; i += SEARCH_ROWS_PER_STATEMENT) {
      await this.writeSearch(events.slice(i, i + SEARCH_ROWS_PER_STATEMENT), tx, documents?.slice(i, i + SEARCH_ROWS_PER_STATEMENT));
    }
  }

  insertOrganizerLinks(links: EventOrganizerEntity[], tx: Tx): Promise<void> {
    return insertInChunks(tx, EventOrganizerEntity, links);
  }

  /**
   * Stores the changed event; with `slugBase`, under the first free slug for it. `textChanged:
   * false` when the title, description and excerpt are known to be as stored.
   */
  async save(event: EventEntity, tx: Tx, opts: { textChanged?: boolean; slugBase?: string } = {}): Promise<EventEntity> {
    // The columns are read when the UPDATE is sent: storeUnderFreeSlug sets the slug it chose first.
    const update = async () => {
      const { id, ...columns } = event;
      await this.events(tx).update(id, columns);
    };
    if (opts.slugBase !== undefined) await storeUnderFreeSlug(tx, this.dialect, 'events', event, opts.slugBase, update);
    else await update();
    if (opts.textChanged ?? true) await this.writeSearch([event], tx);
    return event;
  }

  private async writeSearch(events: EventEntity[], tx: Tx, documents?: string[]): Promise<void> {
    const rows = events.map((e, i) => ({ id: e.id, document: documents?.[i] ?? searchDocument(searchTexts(e)) }));
    const [sql, params] = this.dialect.searchWrite(rows);
    await tx.query(sql, params);
  }

  /** Organizer ids of each event, in link order; one query for a page. */
  async organizerIds(eventIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    if (eventIds.length === 0) return out;
    // Plain SQL: every presented page asks this.
    const rows: { event_id: number | string; organizer_id: number | string }[] = await this.db.query(
      `SELECT event_id, organizer_id FROM event_organizers WHERE event_id IN (${placeholders(eventIds)}) ORDER BY event_id, position, organizer_id`,
      eventIds,
    );
    for (const row of rows) {
      const eventId = Number(row.event_id);
      const ids = out.get(eventId);
      if (ids) ids.push(Number(row.organizer_id));
      else out.set(eventId, [Number(row.organizer_id)]);
    }
    return out;
  }

  /** `isNew`: the event has no links yet (no DELETE, whose gap locks would make InnoDB writers collide). */
  async replaceOrganizers(tx: Tx, eventId: number, organizerIds: number[], isNew = false): Promise<void> {
    const links = tx.getRepository(EventOrganizerEntity);
    if (!isNew) await links.delete({ eventId });
    if (organizerIds.length > 0) await links.insert(organizerIds.map((organizerId, position) => ({ eventId, organizerId, position })));
  }

  /**
   * Deletes the event's row for good with its organizer links and its search document (terms
   * are the taxonomies' to remove, with their counts).
   */
  async remove(id: number, tx: Tx): Promise<void> {
    await tx.getRepository(EventOrganizerEntity).delete({ eventId: id });
    const [sql, params] = this.dialect.searchDelete(id);
    await tx.query(sql, params);
    await this.events(tx).delete({ id });
  }

  /**
   * Copies the listing columns (ListingColumns) of these events onto their rows of event_terms
   * and event_organizers, a few hundred events to a statement.
   */
  async copyListingColumns(ids: number[], tx: Tx): Promise<void> {
    for (let at = 0; at < ids.length; at += LISTING_IDS_PER_STATEMENT) {
      const chunk = ids.slice(at, at + LISTING_IDS_PER_STATEMENT);
      for (const table of ['event_terms', 'event_organizers'] as const) {
        const [sql, params] = this.dialect.copyListingColumns(table, 'events', chunk);
        await tx.query(sql, params);
      }
    }
  }

  /** Sets the event's `modified_utc` (UTC `YYYY-MM-DD HH:MM:SS`) inside `tx`, nothing else. */
  async setModifiedUtc(id: number, modifiedUtc: string, tx: Tx): Promise<void> {
    await this.events(tx).update({ id }, { modifiedUtc });
  }

  /** Ids of scheduled events whose publication date has passed (spec endpoints.md §3 rule 5), oldest date first. */
  async dueScheduledIds(nowUtc: string, tx: Tx): Promise<number[]> {
    const rows = await this.events(tx)
      .createQueryBuilder('e')
      .select('e.id', 'id')
      .where("e.status = 'future' AND e.dateUtc <= :now", { now: nowUtc })
      .orderBy('e.dateUtc')
      .addOrderBy('e.id')
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  /**
   * Publishes the event if it is still scheduled; false when it no longer is (another instance
   * published it first: its UPDATE held the row, and this one then matches nothing).
   */
  async publishIfScheduled(id: number, tx: Tx): Promise<boolean> {
    const result = await this.events(tx).update({ id, status: 'future' }, { status: 'publish' });
    return result.affected === 1;
  }

  /** The earliest publication date among scheduled events, or null. */
  async nextScheduledUtc(): Promise<string | null> {
    const row = await this.events().createQueryBuilder('e').select('MIN(e.dateUtc)', 'next').where("e.status = 'future'").getRawOne<{ next: string | null }>();
    return row?.next ?? null;
  }
}
