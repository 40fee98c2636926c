import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Dialect } from '../database/dialect';
import { findEntitiesByIds } from '../database/entity-rows';
import { placeholders } from '../database/sql';
import { EventOrganizerEntity } from '../organizers';
import { EventTermEntity } from '../taxonomies';
import { EventEntity } from './entities/event.entity';
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

/** An event's id and its wall start and end (`YYYY-MM-DD HH:MM:SS`, in its own zone). */
export interface EventSpan {
  id: number;
  start: string;
  end: string;
}

/**
 * The queries of event lists (spec endpoints.md §4.1): how many events match, the ids of a
 * page, of the events nearest a date and of a calendar grid, each in list order, the plans of
 * a search and of a term filter, and the page's rows by id. Writes nothing.
 */
@Injectable()
export class EventListRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dialect: Dialect,
  ) {}

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
    const qb = this.db.getRepository(EventEntity).createQueryBuilder('e');
    if (idsOnly) qb.select('e.id', 'id');
    applyEventFilters(qb, filters, this.dialect);
    for (const extend of extensions) extend(qb);
    return { qb, on: ON_EVENTS };
  }
}
