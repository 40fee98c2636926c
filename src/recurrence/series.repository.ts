import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, MoreThanOrEqual } from 'typeorm';
import { insertInChunks } from '../database/bulk-insert';
import { Dialect } from '../database/dialect';
import { managerOf, OUTER, type Reader, type Tx } from '../database/tx';
import { EventEntity } from '../events';
import { EventOrganizerEntity } from '../organizers';
import { EventTermEntity, TermEntity } from '../taxonomies';
import { OccurrenceEntity } from './entities/occurrence.entity';
import { SeriesEntity } from './entities/series.entity';

/** An occurrence with what its representation needs of its series (one query per page). */
export interface PresentedOccurrence {
  eventId: number;
  seriesId: number;
  originalStart: string;
  utcOriginalStart: string;
  detached: boolean;
  rule: string;
  /** The slug of the series' first occurrence; null when that event is gone. */
  firstSlug: string | null;
  firstStatus: string | null;
}

/** An occurrence with what a feed needs of its event (null when the event is gone). */
export interface FeedOccurrence {
  eventId: number;
  seriesId: number;
  originalStart: string;
  utcOriginalStart: string;
  detached: boolean;
  status: string | null;
  hidden: boolean;
  timezone: string | null;
  allDay: boolean;
  utcStart: string | null;
  utcEnd: string | null;
  /** The event's last change (UTC); null when it is gone. */
  modifiedUtc: string | null;
}

/** An event's links, as ids: what a new occurrence copies from the series. */
export interface EventLinks {
  organizer: number[];
  categories: number[];
  tags: number[];
}

/** Every query of the recurrence module: its two tables, and the reads of events it needs inside a write. */
@Injectable()
export class SeriesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dialect: Dialect,
  ) {}

  private series(reader: Reader) {
    return managerOf(reader, this.db).getRepository(SeriesEntity);
  }

  private occurrences(reader: Reader) {
    return managerOf(reader, this.db).getRepository(OccurrenceEntity);
  }

  seriesByIds(ids: readonly number[]): Promise<SeriesEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.series(OUTER).findBy({ id: In([...ids]) });
  }

  findSeries(reader: Reader, id: number): Promise<SeriesEntity | null> {
    return this.series(reader).findOne({ where: { id } });
  }

  /** The series as committed now, kept from other writers (the extender, a concurrent edit) until `tx` ends. */
  lockSeries(tx: Tx, id: number): Promise<SeriesEntity | null> {
    return this.dialect.lockForUpdate(this.series(tx).createQueryBuilder('s').where('s.id = :id', { id })).getOne();
  }

  async saveSeries(tx: Tx, series: SeriesEntity): Promise<void> {
    await this.series(tx).save(series);
  }

  async removeSeries(tx: Tx, id: number): Promise<void> {
    await this.series(tx).delete({ id });
    await this.occurrences(tx).delete({ seriesId: id });
  }

  occurrenceOf(reader: Reader, eventId: number): Promise<OccurrenceEntity | null> {
    return this.occurrences(reader).findOne({ where: { eventId } });
  }

  /** The occurrence whose original start is this instant (UTC), of the series `eventId` belongs to (or heads). */
  async occurrenceAt(eventId: number, utcOriginalStart: string): Promise<number | null> {
    const seriesId = (await this.occurrenceOf(OUTER, eventId))?.seriesId ?? eventId;
    return (await this.occurrences(OUTER).findOne({ where: { seriesId, utcOriginalStart } }))?.eventId ?? null;
  }

  /** A series' occurrences in order of their original start. */
  occurrencesOf(reader: Reader, seriesId: number): Promise<OccurrenceEntity[]> {
    return this.occurrences(reader).find({ where: { seriesId }, order: { utcOriginalStart: 'ASC', day: 'ASC', nth: 'ASC' } });
  }

  /**
   * In sized multi-row statements with nothing read back: the repository's insert reloads the
   * rows' defaults with one `(key = ?) OR (key = ?) …` term per row, which SQLite refuses past
   * a thousand (its expression depth limit) and which grows with the series.
   */
  async insertOccurrences(tx: Tx, rows: OccurrenceEntity[]): Promise<void> {
    await insertInChunks(managerOf(tx, this.db), OccurrenceEntity, rows);
  }

  async saveOccurrence(tx: Tx, row: OccurrenceEntity): Promise<void> {
    await this.occurrences(tx).save(row);
  }

  async removeOccurrences(tx: Tx, eventIds: number[]): Promise<void> {
    if (eventIds.length > 0) await this.occurrences(tx).delete({ eventId: In(eventIds) });
  }

  /** A series' occurrences all at once: one DELETE and one INSERT, whatever keys moved (no transient clash on the unique key). */
  async replaceOccurrences(tx: Tx, seriesId: number, rows: OccurrenceEntity[]): Promise<void> {
    await this.occurrences(tx).delete({ seriesId });
    await this.insertOccurrences(tx, rows);
  }

  /** The occurrences from `utcFrom` on move to another series (a `scope=following` cut). */
  async moveOccurrences(tx: Tx, fromSeries: number, utcFrom: string, toSeries: number): Promise<void> {
    await this.occurrences(tx).update({ seriesId: fromSeries, utcOriginalStart: MoreThanOrEqual(utcFrom) }, { seriesId: toSeries });
  }

  /** Events by id inside a write (their status, fields and times as committed in it). */
  eventsById(reader: Reader, ids: number[]): Promise<EventEntity[]> {
    return ids.length === 0
      ? Promise.resolve([])
      : managerOf(reader, this.db)
          .getRepository(EventEntity)
          .findBy({ id: In(ids) });
  }

  /** An event's organizers (in their order), categories and tags, as ids. */
  async linksOf(reader: Reader, eventId: number): Promise<EventLinks> {
    const manager = managerOf(reader, this.db);
    const organizers = await manager.getRepository(EventOrganizerEntity).find({ where: { eventId }, order: { position: 'ASC', organizerId: 'ASC' } });
    const terms = await manager
      .getRepository(EventTermEntity)
      .createQueryBuilder('et')
      .innerJoin(TermEntity, 't', 't.id = et.term_id')
      .select('et.term_id', 'id')
      .addSelect('t.taxonomy', 'taxonomy')
      .where('et.event_id = :eventId', { eventId })
      .orderBy('et.term_id', 'ASC')
      .getRawMany<{ id: number | string; taxonomy: string }>();
    const of = (taxonomy: string) => terms.filter((t) => t.taxonomy === taxonomy).map((t) => Number(t.id));
    return { organizer: organizers.map((o) => o.organizerId), categories: of('category'), tags: of('tag') };
  }

  /** What the representations of these events need of their series, in one query. */
  async presented(eventIds: readonly number[]): Promise<Map<number, PresentedOccurrence>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.occurrences(OUTER)
      .createQueryBuilder('o')
      .innerJoin(SeriesEntity, 's', 's.id = o.series_id')
      .leftJoin(EventEntity, 'f', 'f.id = o.series_id')
      .select(['o.event_id AS event_id', 'o.series_id AS series_id', 'o.original_start AS original_start', 'o.utc_original_start AS utc_original_start'])
      .addSelect(['o.detached AS detached', 'f.slug AS first_slug', 'f.status AS first_status'])
      .where('o.event_id IN (:...eventIds)', { eventIds })
      .getRawMany<Record<string, string | number | null>>();
    // A rule is read once per series, not once per occurrence: a page of one series' occurrences
    // would otherwise carry its EXDATE list as many times over.
    const seriesIds = [...new Set(rows.map((r) => Number(r.series_id)))];
    const rules = new Map(
      seriesIds.length === 0
        ? []
        : (await this.series(OUTER).find({ select: { id: true, rule: true }, where: { id: In(seriesIds) } })).map((x) => [x.id, x.rule]),
    );
    return new Map(
      rows.map((r) => [
        Number(r.event_id),
        {
          eventId: Number(r.event_id),
          seriesId: Number(r.series_id),
          originalStart: String(r.original_start),
          utcOriginalStart: String(r.utc_original_start),
          detached: Boolean(Number(r.detached)),
          rule: rules.get(Number(r.series_id)) ?? '',
          firstSlug: r.first_slug === null ? null : String(r.first_slug),
          firstStatus: r.first_status === null ? null : String(r.first_status),
        },
      ]),
    );
  }

  /** Every occurrence of these series with its event's status and times, in one query: what a feed reconciles the rule with. */
  async feedOccurrences(seriesIds: readonly number[]): Promise<FeedOccurrence[]> {
    if (seriesIds.length === 0) return [];
    const rows = await this.occurrences(OUTER)
      .createQueryBuilder('o')
      .leftJoin(EventEntity, 'e', 'e.id = o.event_id')
      .select(['o.event_id AS event_id', 'o.series_id AS series_id', 'o.original_start AS original_start', 'o.utc_original_start AS utc_original_start'])
      .addSelect([
        'o.detached AS detached',
        'e.status AS status',
        'e.hide_from_listings AS hidden',
        'e.timezone AS timezone',
        'e.all_day AS all_day',
        'e.start_date_utc AS utc_start',
        'e.end_date_utc AS utc_end',
        'e.modified_utc AS modified_utc',
      ])
      .where('o.series_id IN (:...seriesIds)', { seriesIds })
      .getRawMany<Record<string, string | number | null>>();
    return rows.map((r) => ({
      eventId: Number(r.event_id),
      seriesId: Number(r.series_id),
      originalStart: String(r.original_start),
      utcOriginalStart: String(r.utc_original_start),
      detached: Boolean(Number(r.detached)),
      status: r.status === null ? null : String(r.status),
      hidden: Boolean(Number(r.hidden)),
      timezone: r.timezone === null ? null : String(r.timezone),
      allDay: Boolean(Number(r.all_day)),
      utcStart: r.utc_start === null ? null : String(r.utc_start),
      utcEnd: r.utc_end === null ? null : String(r.utc_end),
      modifiedUtc: r.modified_utc === null ? null : String(r.modified_utc),
    }));
  }

  /** The published occurrences of a series after an original start, in start order: an occurrence page's links (§6). */
  async nextPublished(seriesId: number, afterUtc: string, limit: number): Promise<{ id: number; slug: string; startDate: string }[]> {
    const rows = await this.occurrences(OUTER)
      .createQueryBuilder('o')
      .innerJoin(EventEntity, 'e', 'e.id = o.event_id')
      .select(['e.id AS id', 'e.slug AS slug', 'e.start_date AS start_date'])
      .where('o.series_id = :seriesId AND o.utc_original_start > :afterUtc AND e.status = :status', { seriesId, afterUtc, status: 'publish' })
      .orderBy('e.start_date_utc', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number | string; slug: string; start_date: string }>();
    return rows.map((r) => ({ id: Number(r.id), slug: r.slug, startDate: r.start_date }));
  }

  /** Ids of open series made up to before `horizonUtc`: the extender's work. */
  async dueSeriesIds(horizonUtc: string, limit: number): Promise<number[]> {
    const rows = await this.series(OUTER)
      .createQueryBuilder('s')
      .select('s.id', 'id')
      .where('s.open = :open AND s.made_until_utc < :horizonUtc', { open: true, horizonUtc })
      .orderBy('s.made_until_utc', 'ASC')
      .addOrderBy('s.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }
}
