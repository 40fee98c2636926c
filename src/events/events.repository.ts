import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { insertInChunks } from '../database/bulk-insert';
import { Dialect } from '../database/dialect';
import { findEntitiesByIds } from '../database/entity-rows';
import type { Tx } from '../database/tx';
import { placeholders } from '../database/sql';
import { chooseFreeSlugs, storeUnderFreeSlug } from '../items';
import { EventOrganizerEntity } from '../organizers';
import { EventTermEntity } from '../taxonomies';
import { EventEntity } from './entities/event.entity';
import { searchDocument, searchTexts } from './search-grams';
import {
  applyEditingOrder,
  applyEventFilters,
  applyEventOrder,
  EventListFilters,
  EventQueryExtension,
  IdAndStart,
  LinkDrive,
  linkDrive,
  ListingSource,
  nearestFirst,
  needsEvents,
  ON_EVENTS,
} from './events.filters';

/** Search documents are long (hundreds of tokens): a few hundred to a statement. */
const SEARCH_ROWS_PER_STATEMENT = 200;

/** New events written by one INSERT in insertAll (as many rows as insertInChunks puts in one statement at most). */
const NEW_ROWS_PER_STATEMENT = 500;

/**
 * Planner threshold for term filters: when the filtered terms carry more published events than
 * this (their maintained counts added up), the list walks the listing index in list order and
 * probes each event's terms (`exists`): a page fills after a few rows. Below it, the list starts
 * from the terms' few events (`in`). 2,000 is where the two plans took the same time on 100,000
 * events.
 */
export const COMMON_TERM_EVENTS = 2000;

/**
 * Planner threshold for search: up to this many full-text candidates, the count and the page
 * start from their ids; above it, the count asks the full-text index as a subquery and the
 * pages walk the listing index (a common word fills a page after a few rows).
 */
export const FEW_SEARCH_CANDIDATES = 2000;

/**
 * A page of a list driven by several terms (a category with its descendants) is merged from
 * the first offset+limit of each term's range, in one statement, up to this many terms; more,
 * and the ranges are read together and sorted.
 */
export const MERGED_RANGES = 64;

/** The list query over `l`, a link table, or `e`, the events; `on` says which. */
interface ListQuery {
  qb: SelectQueryBuilder<ObjectLiteral>;
  on: ListingSource;
  drive?: LinkDrive;
}

/** Every query on events and their organizer links. */
/** An event's id and its wall start and end (`YYYY-MM-DD HH:MM:SS`, in its own zone). */
export interface EventSpan {
  id: number;
  start: string;
  end: string;
}

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

  /** How many events match; extensions may add conditions of their own. */
  async countMatching(filters: EventListFilters, extensions: EventQueryExtension[] = []): Promise<number> {
    const { qb, drive } = this.matching(filters, extensions);
    if (!drive) return qb.getCount();
    // One link row per event and term (organizer): one range counts its rows; several count each event once.
    const row = await qb.select(drive.ids.length === 1 ? 'COUNT(*)' : 'COUNT(DISTINCT l.event_id)', 'n').getRawOne<{ n: number | string }>();
    return Number(row?.n ?? 0);
  }

  /** The ids of one page, in list order (spec §4.1.4), without loading the rows. */
  async pageIds(filters: EventListFilters, offset: number, limit: number, extensions: EventQueryExtension[] = []): Promise<number[]> {
    const list = this.matching(filters, extensions, true);
    if (list.drive && list.drive.ids.length > 1 && list.drive.ids.length <= MERGED_RANGES) return this.mergedPage(filters, list.drive, offset, limit);
    const qb = filters.order ? applyEditingOrder(list.qb, filters.order) : applyEventOrder(list.qb, filters.include !== undefined, 'ASC', list.on);
    const rows = await qb.offset(offset).limit(limit).getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  /**
   * A page of a list driven by several terms: the events of the page are among the first
   * offset+limit of each term's range in list order (an event ahead of one in a term's range is
   * ahead of it in the list), so each range is read that far along its index, and the union,
   * each event once, is sorted and cut.
   */
  private async mergedPage(filters: EventListFilters, drive: LinkDrive, offset: number, limit: number): Promise<number[]> {
    const parts = drive.ids.map((id) => {
      const { qb, on } = this.matching(filters, [], true, { ...drive, ids: [id] });
      qb.addSelect('l.start_date', 's').addSelect('l.date_utc', 'd');
      return applyEventOrder(qb, false, 'ASC', on)
        .limit(offset + limit)
        .getQueryAndParameters();
    });
    const union = parts.map(([sql], i) => `SELECT * FROM (${sql}) r${i}`).join(' UNION ALL ');
    const rows: { id: number | string }[] = await this.db.query(`SELECT DISTINCT u.id, u.s, u.d FROM (${union}) u ORDER BY u.s, u.d, u.id LIMIT ? OFFSET ?`, [
      ...parts.flatMap(([, params]) => params as unknown[]),
      limit,
      offset,
    ]);
    return rows.map((r) => Number(r.id));
  }

  /**
   * Up to `limit` matching ids nearest to `pivot` (a wall time compared with start dates, as the
   * list's window is), in list order (nearestFirst): two walks of the listing index from the
   * pivot, one each way, of at most `limit` rows each. With `include`, which has no start
   * order, the first `limit` in list order.
   */
  async nearestIds(filters: EventListFilters, pivot: string, limit: number, extensions: EventQueryExtension[] = []): Promise<number[]> {
    if (filters.include !== undefined) return this.pageIds(filters, 0, limit, extensions);
    const side = async (later: boolean): Promise<IdAndStart[]> => {
      const { qb, on } = this.matching(filters, extensions, true);
      qb.addSelect(`${on.alias}.startDate`, 'start');
      qb.andWhere(later ? `${on.alias}.startDate >= :pivot` : `${on.alias}.startDate < :pivot`, { pivot });
      const rows = await applyEventOrder(qb, false, later ? 'ASC' : 'DESC', on)
        .limit(limit)
        .getRawMany<{ id: number | string; start: string }>();
      return rows.map((r) => ({ id: Number(r.id), start: r.start }));
    };
    const later = await side(true);
    const earlier = await side(false);
    return nearestFirst(earlier, later, pivot, limit);
  }

  /**
   * Every matching event's id and wall dates, in list order, with no paging: what a calendar grid
   * needs to place events on its days (the month page), from the listing index alone.
   */
  async spans(filters: EventListFilters, extensions: EventQueryExtension[] = []): Promise<EventSpan[]> {
    const { qb, on } = this.matching(filters, extensions, true);
    qb.addSelect(`${on.alias}.startDate`, 'start').addSelect(`${on.alias}.endDate`, 'end');
    const rows = await applyEventOrder(qb, filters.include !== undefined, 'ASC', on).getRawMany<{ id: number | string; start: string; end: string }>();
    return rows.map((r) => ({ id: Number(r.id), start: r.start, end: r.end }));
  }

  /**
   * How a search for these tokens is planned (events.filters.ts): the candidate ids the
   * full-text index gives, when they are at most FEW_SEARCH_CANDIDATES; else `index`.
   */
  async searchPlan(tokens: string[]): Promise<number[] | 'index'> {
    const rows: Record<string, number | string>[] = await this.db.query(`${this.dialect.searchCandidates('?')} LIMIT ${FEW_SEARCH_CANDIDATES + 1}`, [
      this.dialect.searchExpression(tokens),
    ]);
    return rows.length > FEW_SEARCH_CANDIDATES ? 'index' : rows.map((r) => Number(Object.values(r)[0]));
  }

  /** How a filter by these terms is planned (COMMON_TERM_EVENTS): from the terms' events, or along the listing index. */
  async termPlan(termIds: number[]): Promise<'in' | 'exists'> {
    if (termIds.length === 0) return 'in';
    const rows: { n: number | string | null }[] = await this.db.query(`SELECT SUM(count) AS n FROM terms WHERE id IN (${placeholders(termIds)})`, termIds);
    return Number(rows[0]?.n ?? 0) > COMMON_TERM_EVENTS ? 'exists' : 'in';
  }

  /** Events by id, in the order of `ids`. */
  async findByIds(ids: number[]): Promise<EventEntity[]> {
    if (ids.length === 0) return [];
    const rows = await findEntitiesByIds(this.db.manager, EventEntity, [...new Set(ids)]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((e): e is EventEntity => e !== undefined);
  }

  /**
   * The list query; `idsOnly` selects just the id (extensions may still add their own columns).
   * A list filtered by terms or organizers walks their link table's listing index (linkDrive), joining the events only for conditions on their other columns.
   */
  private matching(filters: EventListFilters, extensions: EventQueryExtension[], idsOnly = false, drive = linkDrive(filters, extensions.length)): ListQuery {
    if (drive) {
      const on: ListingSource = { alias: 'l', id: 'l.eventId', driven: drive.filter };
      const qb = this.db.createQueryBuilder().from(drive.filter === 'organizer' ? EventOrganizerEntity : EventTermEntity, 'l');
      if (needsEvents(filters)) qb.innerJoin(EventEntity, 'e', 'e.id = l.event_id');
      if (idsOnly) qb.select('l.event_id', 'id');
      applyEventFilters(qb, filters, this.dialect, on);
      const column = drive.filter === 'organizer' ? 'l.organizer_id' : 'l.term_id';
      if (drive.ids.length === 1) qb.andWhere(`${column} = :driveId`, { driveId: drive.ids[0] });
      else qb.andWhere(`${column} IN (:...driveIds)`, { driveIds: drive.ids });
      return { qb, on, drive };
    }
    const qb = this.events().createQueryBuilder('e');
    if (idsOnly) qb.select('e.id', 'id');
    applyEventFilters(qb, filters, this.dialect);
    for (const extend of extensions) extend(qb);
    return { qb, on: ON_EVENTS };
  }

  /**
   * A new event's row under the first free slug for `base`, with its search document (the text
   * pre-filter). Every column is set by the caller: no read-back of the row.
   */
  async insert(event: EventEntity, base: string, manager: Tx): Promise<void> {
    await storeUnderFreeSlug(manager, this.dialect, 'events', event, base, () => insertInChunks(manager, EventEntity, [event]));
    await this.writeSearch([event], manager);
  }

  /**
   * New events (ids allocated, every column set but the slug), each under the first free slug
   * for its base as insert() would choose them one after the other, with their search
   * documents, in a few statements for the whole list. A slug taken meanwhile by a concurrent
   * writer (the unique index refuses the statement, which writes nothing) sends that
   * statement's rows through insert(), one by one.
   */
  async insertAll(items: { event: EventEntity; base: string }[], manager: Tx): Promise<void> {
    await chooseFreeSlugs(
      manager,
      'events',
      items.map(({ event, base }) => ({ item: event, base, live: event.status !== 'trash' })),
    );
    for (let i = 0; i < items.length; i += NEW_ROWS_PER_STATEMENT) {
      const chunk = items.slice(i, i + NEW_ROWS_PER_STATEMENT);
      try {
        await insertInChunks(
          manager,
          EventEntity,
          chunk.map((c) => c.event),
        );
      } catch (err) {
        if (!this.dialect.violatesUnique(err, 'events', 'uq_events_live_slug', ['live_slug'])) throw err;
        for (const { event, base } of chunk)
          await storeUnderFreeSlug(manager, this.dialect, 'events', event, base, () => insertInChunks(manager, EventEntity, [event]));
      }
    }
    await this.writeSearchInChunks(
      items.map((c) => c.event),
      manager,
    );
  }

  /** Bulk load (`seed`): rows with their ids already allocated, in the caller's transaction. */
  /**
   * New events with every column set, and their search documents: `documents[i]` is that of
   * `events[i]` when the caller made them already (SearchDocumentsThread), else made here.
   */
  async insertMany(events: EventEntity[], manager: Tx, documents?: string[]): Promise<void> {
    await insertInChunks(manager, EventEntity, events);
    await this.writeSearchInChunks(events, manager, documents);
  }

  private async writeSearchInChunks(events: EventEntity[], manager: Tx, documents?: string[]): Promise<void> {
    for (let i = 0; i < events.length; i += SEARCH_ROWS_PER_STATEMENT) {
      await this.writeSearch(events.slice(i, i + SEARCH_ROWS_PER_STATEMENT), manager, documents?.slice(i, i + SEARCH_ROWS_PER_STATEMENT));
    }
  }

  insertOrganizerLinks(links: EventOrganizerEntity[], manager: Tx): Promise<void> {
    return insertInChunks(manager, EventOrganizerEntity, links);
  }

  /**
   * Stores the changed event; with `slugBase`, under the first free slug for it. `textChanged:
   * false` when the title, description and excerpt are known to be as stored.
   */
  async save(event: EventEntity, manager: Tx, opts: { textChanged?: boolean; slugBase?: string } = {}): Promise<EventEntity> {
    // The columns are read when the UPDATE is sent: storeUnderFreeSlug sets the slug it chose first.
    const update = async () => {
      const { id, ...columns } = event;
      await this.events(manager).update(id, columns);
    };
    if (opts.slugBase !== undefined) await storeUnderFreeSlug(manager, this.dialect, 'events', event, opts.slugBase, update);
    else await update();
    if (opts.textChanged ?? true) await this.writeSearch([event], manager);
    return event;
  }

  private async writeSearch(events: EventEntity[], manager: Tx, documents?: string[]): Promise<void> {
    const rows = events.map((e, i) => ({ id: e.id, document: documents?.[i] ?? searchDocument(searchTexts(e)) }));
    const [sql, params] = this.dialect.searchWrite(rows);
    await manager.query(sql, params);
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
  async replaceOrganizers(manager: Tx, eventId: number, organizerIds: number[], isNew = false): Promise<void> {
    const links = manager.getRepository(EventOrganizerEntity);
    if (!isNew) await links.delete({ eventId });
    if (organizerIds.length > 0) await links.insert(organizerIds.map((organizerId, position) => ({ eventId, organizerId, position })));
  }

  /**
   * Deletes the event's row for good with its organizer links and its search document (terms
   * are the taxonomies' to remove, with their counts).
   */
  async remove(id: number, manager: Tx): Promise<void> {
    await manager.getRepository(EventOrganizerEntity).delete({ eventId: id });
    const [sql, params] = this.dialect.searchDelete(id);
    await manager.query(sql, params);
    await this.events(manager).delete({ id });
  }

  /** Ids of scheduled events whose publication date has passed (spec endpoints.md §3 rule 5), oldest date first. */
  async dueScheduledIds(nowUtc: string, manager: Tx): Promise<number[]> {
    const rows = await this.events(manager)
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
  async publishIfScheduled(id: number, manager: Tx): Promise<boolean> {
    const result = await this.events(manager).update({ id, status: 'future' }, { status: 'publish' });
    return result.affected === 1;
  }

  /** The earliest publication date among scheduled events, or null. */
  async nextScheduledUtc(): Promise<string | null> {
    const row = await this.events().createQueryBuilder('e').select('MIN(e.dateUtc)', 'next').where("e.status = 'future'").getRawOne<{ next: string | null }>();
    return row?.next ?? null;
  }
}
