import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { utcSqlMillis } from '../common/datetime/format';
import { invalidParam } from '../common/errors';
import { AppConfig } from '../config/app-config';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { EventEntity, EventWrites, SERIES_ORIGIN } from '../events';
import { OccurrenceEntity } from './entities/occurrence.entity';
import { SeriesEntity } from './entities/series.entity';
import { expandRecurrence, Occurrence } from './expand';
import { parseRecurrence, RecurrenceError, RecurrenceRule, SeriesTiming } from './recurrence-rule';
import { occurrenceFields, occurrenceKey, occurrenceSlug, seriesSlugOf, splitKey } from './series-plan';
import { SeriesRepository } from './series.repository';
import { RecurrenceLimits, validateRecurrence, ValidRecurrence } from './validate-recurrence';

type Json = Record<string, unknown>;

/** Far enough: asking a rule for one start after its horizon up to here tells whether it goes on. */
const END_OF_TIME = '9999-12-31 23:59:59';

/** The part of a write that the series writes need: who writes, with what input, recording its changes where. */
export interface WriteParts {
  changes: ChangeSet;
  actor: Actor | null;
  input: Json;
}

/**
 * A series' occurrences as events (recurrence.md §3): the limits and the check of a rule, the
 * occurrences made, changed and removed through EventWrites with the origin `series` (the same
 * checks, rights, slugs, links and change rows as any event write), and a series made up to the
 * horizon (extend). Shared by SeriesWriter, SeriesRemake and HorizonExtender.
 */
@Injectable()
export class SeriesOccurrences {
  constructor(
    private readonly repository: SeriesRepository,
    private readonly writes: EventWrites,
    private readonly config: AppConfig,
  ) {}

  /** CALENDAR_RECURRENCE_MAX and now + CALENDAR_RECURRENCE_HORIZON_DAYS. */
  limits(): RecurrenceLimits {
    const horizonMs = utcSqlMillis(nowUtcSql()) + this.config.recurrenceHorizonDays * 86_400_000;
    return { max: this.config.recurrenceMax, horizon: new Date(horizonMs).toISOString().slice(0, 19).replace('T', ' ') };
  }

  /** The `recurrence` field checked for this timing; a RecurrenceError answers 400 naming the field. */
  validate(lines: unknown, timing: SeriesTiming, limits = this.limits()): ValidRecurrence {
    try {
      return validateRecurrence(lines, timing, limits);
    } catch (e) {
      if (e instanceof RecurrenceError) throw invalidParam('recurrence', e.message);
      throw e;
    }
  }

  /** Creates these occurrences from the series' fields in one batch (EventWrites.createMany); answers their ids in order. */
  async make(tx: Tx, w: WriteParts, template: Json, seriesSlug: string, timing: SeriesTiming, list: Occurrence[]): Promise<number[]> {
    const inputs = list.map((o) => ({ ...template, ...occurrenceFields(o, timing), slug: occurrenceSlug(seriesSlug, o.key.slice(0, 10)) }));
    return (await this.writes.createMany(tx, w.changes, w.actor, inputs, SERIES_ORIGIN)).map((e) => e.id);
  }

  /** What a new occurrence copies from an event of the series: its fields, author, status and links. */
  async template(tx: Tx, event: EventEntity): Promise<Json> {
    const links = await this.repository.linksOf(tx, event.id);
    return {
      title: event.title,
      // The write takes no empty text: an event without one gets '' anyway.
      ...(event.description !== '' ? { description: event.description } : {}),
      ...(event.excerpt !== '' ? { excerpt: event.excerpt } : {}),
      website: event.website,
      cost: JSON.parse(event.cost) as unknown,
      show_map: event.showMap,
      show_map_link: event.showMapLink,
      hide_from_listings: event.hideFromListings,
      sticky: event.sticky,
      featured: event.featured,
      status: event.status,
      date_utc: event.dateUtc,
      author: event.authorId,
      venue: event.venueId ?? 0,
      image: event.imageId ?? 0,
      ...links,
    };
  }

  /** The events of these occurrences, by id, as committed in the write. */
  async eventsOf(tx: Tx, rows: OccurrenceEntity[]): Promise<Map<number, EventEntity>> {
    const ids = rows.map((r) => r.eventId);
    return new Map((await this.repository.eventsById(tx, ids)).map((e) => [e.id, e]));
  }

  /**
   * Makes a series' occurrences up to the horizon (§3), in the unit of work of `w` (the
   * extender's, one per series). Several instances may run this at once: the series row is
   * locked, and an occurrence made twice breaks the unique key, so the loser's unit of work is
   * tried again and finds the work done. Answers how many occurrences it made.
   */
  async extend(tx: Tx, changes: ChangeSet, seriesId: number): Promise<number> {
    const w: WriteParts = { changes, actor: null, input: {} };
    const series = await this.repository.lockSeries(tx, seriesId);
    const limits = this.limits();
    if (!series || !series.open || series.madeUntilUtc >= limits.horizon) return 0;
    const timing = timingOfSeries(series);
    const rule = this.ruleOf(series);
    // At most CALENDAR_RECURRENCE_MAX per unit of work: a series with more to make (24 a day for
    // a long horizon) is made up to its last one here, and the extender comes back for the rest.
    const { occurrences: wanted, truncated } = expandRecurrence(timing, rule, { from: series.madeUntilUtc, to: limits.horizon }, limits.max);
    const rows = await this.repository.occurrencesOf(tx, series.id);
    const known = new Set(rows.map((r) => occurrenceKey(r.day, r.nth)));
    const made: OccurrenceEntity[] = [];
    const source = await this.templateEvent(tx, rows);
    if (source) {
      const template = await this.template(tx, source);
      const seriesSlug = seriesSlugOf((await this.repository.eventsById(tx, [series.id]))[0]?.slug ?? source.slug);
      // The series' own rights: its author's fields, made by the service (no request's caller).
      const actor: Actor = { id: source.authorId, login: 'recurrence', role: 'administrator' };
      const missing = wanted.filter((o) => !known.has(o.key));
      const ids = await this.make(tx, { ...w, actor }, template, seriesSlug, timing, missing);
      made.push(...missing.map((o, i) => occurrenceRow(series.id, ids[i], o)));
    }
    await this.repository.insertOccurrences(tx, made);
    const madeUntil = truncated && source !== null ? wanted[wanted.length - 1].utcStart : limits.horizon;
    series.madeUntilUtc = madeUntil;
    series.open = source !== null && (truncated || this.goesOn(timing, rule, limits.horizon));
    await this.repository.saveSeries(tx, series);
    return made.length;
  }

  /** The series' latest occurrence that still carries its fields (not detached, not in the trash). */
  async templateEvent(tx: Tx, rows: OccurrenceEntity[]): Promise<EventEntity | null> {
    const candidates = rows.filter((r) => !r.detached).map((r) => r.eventId);
    const events = new Map((await this.repository.eventsById(tx, candidates)).map((e) => [e.id, e]));
    for (const id of candidates.reverse()) {
      const e = events.get(id);
      if (e && e.status !== 'trash') return e;
    }
    return null;
  }

  /** Does the rule give a start at or after `horizonUtc` (so the extender must come back)? */
  goesOn(timing: SeriesTiming, rule: RecurrenceRule, horizonUtc: string): boolean {
    return expandRecurrence(timing, rule, { from: horizonUtc, to: END_OF_TIME }, 1).occurrences.length > 0;
  }

  /**
   * The series' rule (or an occurrence's original start) changed: every occurrence's `recurrence`
   * and `series` keys did, so each is an event change of this write (recurrence.md §4: every
   * occurrence changed appears in the change feed and webhooks).
   */
  async changedRule(tx: Tx, w: WriteParts, seriesId: number): Promise<void> {
    for (const row of await this.repository.occurrencesOf(tx, seriesId)) w.changes.record('event', row.eventId);
  }

  ruleOf(series: SeriesEntity): RecurrenceRule {
    return parseRecurrence(series.rule === '' ? [] : series.rule.split('\n'), timingOfSeries(series));
  }

  /** Trash (or delete for good) these events through the core's deletes, under the caller's rights. */
  async removeEvents(tx: Tx, w: WriteParts, ids: number[], force: boolean): Promise<void> {
    const events = await this.repository.eventsById(tx, ids);
    for (const e of events) {
      if (!force && e.status === 'trash') continue;
      await this.writes.remove(tx, w.changes, w.actor, e.id, force, {}, SERIES_ORIGIN);
    }
  }
}

export function timingOf(e: Pick<EventEntity, 'startDate' | 'endDate' | 'timezone' | 'allDay'>): SeriesTiming {
  return { startDate: e.startDate, endDate: e.endDate, timezone: e.timezone, allDay: e.allDay };
}

export function timingOfSeries(s: SeriesEntity): SeriesTiming {
  return { startDate: s.startDate, endDate: s.endDate, timezone: s.timezone, allDay: s.allDay };
}

export function seriesColumns(t: SeriesTiming): Pick<SeriesEntity, 'startDate' | 'endDate' | 'timezone' | 'allDay'> {
  return { startDate: t.startDate, endDate: t.endDate, timezone: t.timezone, allDay: t.allDay };
}

export function occurrenceRow(seriesId: number, eventId: number, o: Occurrence): OccurrenceEntity {
  const { day, nth } = splitKey(o.key);
  return Object.assign(new OccurrenceEntity(), {
    eventId,
    seriesId,
    originalStart: o.originalStart,
    utcOriginalStart: o.utcOriginalStart,
    day,
    nth,
    detached: false,
  });
}
