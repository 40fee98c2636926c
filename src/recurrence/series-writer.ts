import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { utcSqlMillis, wallToUtc } from '../common/datetime/format';
import { invalidParam } from '../common/errors';
import { AppConfig } from '../config/app-config';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { EventEntity, EventWrites } from '../events';
import type { EventDeleteContext, EventWriteContext } from '../events';
import { OccurrenceEntity } from './entities/occurrence.entity';
import { SeriesEntity } from './entities/series.entity';
import { expandRecurrence, Occurrence } from './expand';
import { formatRecurrence, parseRecurrence, RecurrenceError, RecurrenceRule, SeriesTiming } from './recurrence-rule';
import {
  carriedFields,
  cutRule,
  exclusionOf,
  LINK_FIELDS,
  movedRule,
  movedTiming,
  movesSeries,
  sameSeriesMoved,
  occurrenceFields,
  occurrenceKey,
  occurrenceSlug,
  OWN_WRITE,
  seriesSlugOf,
  readScope,
  SCOPE_MESSAGE,
  SeriesMoveError,
  shiftDay,
  shiftWall,
  splitKey,
  withoutExclusionOf,
  writtenTiming,
} from './series-plan';
import { SeriesStore } from './series.store';
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
 * The series side of event writes (recurrence.md §2–§4), called by the extension's hooks inside
 * the write's unit of work: it makes, changes and removes the other occurrences through
 * EventWrites (the same checks, rights, slugs, links and change rows as any event write, so a
 * refusal of any occurrence refuses the whole write), and keeps the two tables in step.
 */
@Injectable()
export class SeriesWriter {
  constructor(
    private readonly store: SeriesStore,
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

  // ---------------------------------------------------------------- writes of an event

  /** After an event's create or update: what `recurrence` and `scope` ask of its series (§2, §4). */
  async saved(tx: Tx, w: WriteParts, event: EventEntity, ctx: Pick<EventWriteContext, 'before'>): Promise<void> {
    const lines = w.input.recurrence;
    const occurrence = ctx.before ? await this.store.occurrenceOf(tx, event.id) : null;
    if (!occurrence) {
      if (Array.isArray(lines) && lines.length > 0) await this.start(tx, w, event, lines);
      return;
    }
    const series = await this.store.lockSeries(tx, occurrence.seriesId);
    if (!series) return;
    const scope = readScope(w.input) ?? 'this';
    if (scope === 'this') return this.editOne(tx, w, series, occurrence, event, ctx.before!);
    if (scope === 'following' && !(await this.isFirst(tx, series, occurrence))) {
      const later = await this.cut(tx, series, occurrence);
      await this.changedRule(tx, w, series.id);
      await this.editSeries(tx, w, later, occurrence, event, ctx.before!);
      return this.changedRule(tx, w, later.id);
    }
    return this.editSeries(tx, w, series, occurrence, event, ctx.before!);
  }

  /** Before an event's delete: what `scope` asks of its series (§4). */
  async deleting(tx: Tx, w: WriteParts, event: EventEntity, ctx: Pick<EventDeleteContext, 'force'>): Promise<void> {
    // Deletes have no parameter check of their own: a bad scope is refused here, before anything changes.
    if (readScope(w.input) === 'invalid') throw invalidParam('scope', SCOPE_MESSAGE);
    const occurrence = await this.store.occurrenceOf(tx, event.id);
    if (!occurrence) return;
    const series = await this.store.lockSeries(tx, occurrence.seriesId);
    if (!series) return;
    const scope = readScope(w.input) ?? 'this';
    if (scope === 'this') {
      // The occurrence leaves the rule (its original start an EXDATE) and keeps its row, so that a restore finds it.
      const rule = this.ruleOf(series);
      rule.exdates.push(exclusionOf(occurrence.originalStart, series.allDay));
      series.rule = formatRecurrence(rule).join('\n');
      await this.store.saveSeries(tx, series);
      if (ctx.force) await this.store.removeOccurrences(tx, [event.id]);
      return this.changedRule(tx, w, series.id);
    }
    const whole = scope === 'all' || (await this.isFirst(tx, series, occurrence));
    if (!whole) await this.endBefore(tx, series, occurrence);
    else series.open = false;
    await this.store.saveSeries(tx, series);
    if (!whole) await this.changedRule(tx, w, series.id);
    const reached = (await this.store.occurrencesOf(tx, series.id)).filter((o) => whole || o.utcOriginalStart >= occurrence.utcOriginalStart);
    const ids = reached.map((o) => o.eventId);
    const others = ids.filter((id) => id !== event.id);
    await this.removeEvents(tx, w, others, ctx.force);
    if (ctx.force && whole) await this.store.removeSeries(tx, series.id);
    else if (ctx.force) await this.store.removeOccurrences(tx, ids);
  }

  /** A write the module made itself (an occurrence removed for good with its series): its row goes with it. */
  async ownDelete(tx: Tx, event: EventEntity, force: boolean): Promise<void> {
    if (force) await this.store.removeOccurrences(tx, [event.id]);
  }

  // ---------------------------------------------------------------- a new series

  /** The event becomes the first occurrence of a new series (§2, §3): the others are made up to the horizon. */
  private async start(tx: Tx, w: WriteParts, event: EventEntity, lines: unknown[]): Promise<void> {
    const timing = writtenTiming(w.input, timingOf(event));
    const limits = this.limits();
    const valid = this.validate(lines, timing, limits);
    const [first, ...rest] = valid.expansion.occurrences;
    if (first.start !== event.startDate) throw invalidParam('recurrence', "The rule's first occurrence must be the event itself (an EXDATE removes it).");
    const series = Object.assign(new SeriesEntity(), {
      id: event.id,
      rule: valid.lines.join('\n'),
      ...seriesColumns(timing),
      madeUntilUtc: valid.horizon,
      open: this.goesOn(timing, valid.rule, valid.horizon),
    });
    await this.store.saveSeries(tx, series);
    const template = await this.template(tx, event);
    const made = await this.make(tx, w, template, event.slug, timing, rest);
    await this.store.insertOccurrences(tx, [occurrenceRow(series.id, event.id, first), ...rest.map((o, i) => occurrenceRow(series.id, made[i], o))]);
    // The first occurrence's slug is dated like the others' (§3: "the series' slug with the
    // date"); the write answers with it, so the row the route presents takes it too.
    // Its end is the series' length after its start, as every occurrence's (expand.ts): the
    // clock's end differs from the one written when the start was in a gap or the end in a fall-back.
    const ends = first.end !== event.endDate ? { end_date: first.end } : {};
    const dated = await this.writes.update(tx, w.changes, w.actor, event.id, {
      slug: occurrenceSlug(event.slug, first.key.slice(0, 10)),
      ...ends,
      scope: OWN_WRITE,
    });
    Object.assign(event, { slug: dated.slug, endDate: dated.endDate, endDateUtc: dated.endDateUtc });
  }

  /** Creates these occurrences from the series' fields in one batch (EventWrites.createMany); answers their ids in order. */
  private async make(tx: Tx, w: WriteParts, template: Json, seriesSlug: string, timing: SeriesTiming, list: Occurrence[]): Promise<number[]> {
    const inputs = list.map((o) => ({ ...template, ...occurrenceFields(o, timing), slug: occurrenceSlug(seriesSlug, o.key.slice(0, 10)), scope: OWN_WRITE }));
    return (await this.writes.createMany(tx, w.changes, w.actor, inputs)).map((e) => e.id);
  }

  /** What a new occurrence copies from an event of the series: its fields, author, status and links. */
  private async template(tx: Tx, event: EventEntity): Promise<Json> {
    const links = await this.store.linksOf(tx, event.id);
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

  // ---------------------------------------------------------------- edits

  /** `scope=this` (§4): the occurrence is detached, or, when the write restores it from the trash, its EXDATE goes. */
  private async editOne(tx: Tx, w: WriteParts, series: SeriesEntity, occurrence: OccurrenceEntity, event: EventEntity, before: EventEntity): Promise<void> {
    if (before.status === 'trash' && event.status !== 'trash') {
      series.rule = formatRecurrence(withoutExclusionOf(this.ruleOf(series), occurrence.originalStart, occurrence.utcOriginalStart)).join('\n');
      await this.store.saveSeries(tx, series);
      return this.changedRule(tx, w, series.id);
    }
    if (occurrence.detached) return;
    occurrence.detached = true;
    await this.store.saveOccurrence(tx, occurrence);
  }

  /**
   * `scope=all` on `series` (§4): `[]` ends it; a new time, length, zone or rule re-makes its
   * occurrences (ids kept by date); other fields go to every occurrence not detached.
   */
  private async editSeries(tx: Tx, w: WriteParts, series: SeriesEntity, addressed: OccurrenceEntity, event: EventEntity, before: EventEntity): Promise<void> {
    const lines = w.input.recurrence;
    if (Array.isArray(lines) && lines.length === 0) return this.end(tx, w, series, event);
    const links = await this.linksFor(tx, w, event);
    const fields = carriedFields(w.input, links);
    const restored = before.status === 'trash' && event.status !== 'trash' ? await this.restore(tx, w, series, addressed, event, fields) : new Set<number>();
    if (movesSeries(w.input)) return this.remake(tx, w, series, event, before, fields);
    if (Object.keys(fields).length === 0) return;
    const others = (await this.store.occurrencesOf(tx, series.id)).filter((o) => !o.detached && o.eventId !== addressed.eventId && !restored.has(o.eventId));
    const current = await this.eventsOf(tx, others);
    for (const o of others) {
      if (current.get(o.eventId)?.status !== 'trash') await this.writes.update(tx, w.changes, w.actor, o.eventId, { ...fields, scope: OWN_WRITE });
    }
  }

  /**
   * A restore with `scope=all` (§4; with `following`, of the part it reaches): the addressed occurrence leaves the EXDATEs (as with
   * `scope=this`), and every other occurrence in the trash whose original start still comes out
   * of the rule (what a series delete trashed) comes back with the addressed one's status and the
   * carried fields (only the status for a detached one). Those whose start the rule excludes
   * (deleted on their own before, or cut off by a `following` delete) stay in the trash. Answers
   * the ids restored.
   */
  private async restore(tx: Tx, w: WriteParts, series: SeriesEntity, addressed: OccurrenceEntity, event: EventEntity, fields: Json): Promise<Set<number>> {
    const timing = timingOfSeries(series);
    const rule = withoutExclusionOf(this.ruleOf(series), addressed.originalStart, addressed.utcOriginalStart);
    const rows = (await this.store.occurrencesOf(tx, series.id)).filter((r) => r.eventId !== event.id);
    const last = rows.reduce((max, r) => (r.utcOriginalStart > max ? r.utcOriginalStart : max), series.madeUntilUtc);
    const inRule = new Set(expandRecurrence(timing, rule, { to: `${last.slice(0, 10)} 23:59:59` }).occurrences.map((o) => o.utcOriginalStart));
    const current = await this.eventsOf(tx, rows);
    const restored = new Set<number>();
    for (const r of rows) {
      if (current.get(r.eventId)?.status !== 'trash' || !inRule.has(r.utcOriginalStart)) continue;
      await this.writes.update(tx, w.changes, w.actor, r.eventId, { ...(r.detached ? {} : fields), status: event.status, scope: OWN_WRITE });
      restored.add(r.eventId);
    }
    series.rule = formatRecurrence(rule).join('\n');
    series.open = this.goesOn(timing, rule, series.madeUntilUtc);
    await this.store.saveSeries(tx, series);
    await this.changedRule(tx, w, series.id);
    return restored;
  }

  /** The events of these occurrences, by id, as committed in the write. */
  private async eventsOf(tx: Tx, rows: OccurrenceEntity[]): Promise<Map<number, EventEntity>> {
    const ids = rows.map((r) => r.eventId);
    return new Map((await this.store.eventsById(tx, ids)).map((e) => [e.id, e]));
  }

  /** The links the request gave, as the addressed event now has them (ids). */
  private async linksFor(tx: Tx, w: WriteParts, event: EventEntity): Promise<Json> {
    if (!LINK_FIELDS.some((k) => w.input[k] !== undefined)) return {};
    const links = await this.store.linksOf(tx, event.id);
    return { ...links, venue: event.venueId ?? 0, image: event.imageId ?? 0 };
  }

  /** `"recurrence": []` with scope=all (§2): the addressed event stays alone, the other occurrences go to the trash. */
  private async end(tx: Tx, w: WriteParts, series: SeriesEntity, event: EventEntity): Promise<void> {
    const others = (await this.store.occurrencesOf(tx, series.id)).map((o) => o.eventId).filter((id) => id !== event.id);
    await this.removeEvents(tx, w, others, false);
    await this.store.removeSeries(tx, series.id);
  }

  /**
   * The series moved or got a new rule: its occurrences are made again up to the horizon.
   *
   * Moved (a new time, length, zone or first date, no new rule): every occurrence moves by the
   * time on the clock the addressed one moved (movedRule), so each keeps its id, found by its
   * original start moved by as much; a rule that cannot follow the move is refused (400 naming
   * `start_date`), as is one whose moved expansion is not the old one moved (nothing written).
   *
   * A new rule: an occurrence whose date (moved by as many days as the series) still comes out of
   * the rule keeps its id (§3); the others go to the trash, new dates get new occurrences.
   *
   * Either way the kept ones get the new times and the carried fields (unless detached); those
   * already in the trash (an EXDATE of theirs) stay, with their rows, moved with the series; and
   * the addressed event must stay in the series at its new start, or the write is refused.
   */
  private async remake(tx: Tx, w: WriteParts, series: SeriesEntity, event: EventEntity, before: EventEntity, fields: Json): Promise<void> {
    const old = timingOfSeries(series);
    const { timing, days } = movedTiming(old, before, timingOf(event));
    const shift = utcSqlMillis(timing.startDate) - utcSqlMillis(old.startDate);
    const newRule = Array.isArray(w.input.recurrence);
    const oldRule = this.ruleOf(series);
    const limits = this.limits();
    let lines: unknown = w.input.recurrence;
    if (!newRule) {
      try {
        lines = formatRecurrence(movedRule(oldRule, old, timing));
      } catch (e) {
        if (e instanceof SeriesMoveError) throw invalidParam('start_date', e.message);
        throw e;
      }
    }
    const valid = this.validate(lines, timing, limits);
    if (!newRule && !sameSeriesMoved(expandRecurrence(old, oldRule, { to: limits.horizon }).occurrences, valid.expansion.occurrences, shift, limits.horizon)) {
      throw invalidParam(
        'start_date',
        "The series' rule cannot move by this much: moved, it would not give every occurrence moved by as much. Change the rule (recurrence) instead.",
      );
    }

    const rows = await this.store.occurrencesOf(tx, series.id);
    const current = await this.eventsOf(tx, rows);
    const inTrash = (r: OccurrenceEntity) => current.get(r.eventId)?.status === 'trash';
    // Moved: an occurrence is found by its original start moved with the series; a new rule: by date (§3).
    const rowKey = (r: OccurrenceEntity) => (newRule ? occurrenceKey(shiftDay(r.day, days), r.nth) : shiftWall(r.originalStart, shift));
    const newKey = (o: Occurrence) => (newRule ? o.key : o.originalStart);
    const byKey = new Map(rows.map((r) => [rowKey(r), r]));
    const template = { ...(await this.template(tx, event)), ...fields };
    const seriesSlug = seriesSlugOf((await this.store.eventsById(tx, [series.id]))[0]?.slug ?? event.slug);
    const pairs: [OccurrenceEntity, Occurrence][] = [];
    const fresh: Occurrence[] = [];
    for (const o of valid.expansion.occurrences) {
      const row = byKey.get(newKey(o));
      byKey.delete(newKey(o));
      if (row) pairs.push([row, o]);
      else fresh.push(o);
    }
    // Refused before anything is written: the addressed event must stay in the series, at its new start.
    const [addressedRow, addressed] = pairs.find(([r]) => r.eventId === event.id) ?? [];
    if (!addressedRow || !addressed || (!addressedRow.detached && (addressed.start !== event.startDate || addressed.end !== event.endDate))) {
      throw invalidParam(
        newRule ? 'recurrence' : 'start_date',
        'The series would not keep this occurrence at its new start: its rule must give the start this event moves to.',
      );
    }
    const kept: OccurrenceEntity[] = [];
    for (const [row, o] of pairs) {
      const e = current.get(row.eventId);
      if (e && e.id !== event.id && !row.detached) {
        const moved = e.startDate !== o.start || e.endDate !== o.end || e.timezone !== timing.timezone || e.allDay !== timing.allDay;
        // One in the trash moves with the series (a restore brings it back in its place); its fields wait.
        const change = { ...(inTrash(row) ? {} : fields), ...(moved ? occurrenceFields(o, timing) : {}) };
        if (Object.keys(change).length > 0) await this.writes.update(tx, w.changes, w.actor, row.eventId, { ...change, scope: OWN_WRITE });
      }
      kept.push(Object.assign(occurrenceRow(series.id, row.eventId, o), { detached: row.detached }));
    }
    const made = await this.make(tx, w, template, seriesSlug, timing, fresh);
    kept.push(...fresh.map((o, i) => occurrenceRow(series.id, made[i], o)));
    const gone = [...byKey.values()];
    // Already in the trash (an EXDATE of theirs): they stay in the series, moved with it (as is
    // their EXDATE, movedRule), so that a restore brings them back where the series now is.
    const length = utcSqlMillis(timing.endDate) - utcSqlMillis(timing.startDate);
    for (const r of gone.filter(inTrash)) {
      const originalStart = shiftWall(r.originalStart, shift);
      const e = current.get(r.eventId);
      if (e && !r.detached && (shift !== 0 || e.timezone !== timing.timezone || e.allDay !== timing.allDay)) {
        const times = { start: originalStart, end: shiftWall(originalStart, length) };
        await this.writes.update(tx, w.changes, w.actor, r.eventId, { ...occurrenceFields(times, timing), scope: OWN_WRITE });
      }
      kept.push(
        Object.assign(r, {
          day: shiftDay(r.day, days),
          originalStart,
          utcOriginalStart: wallToUtc(originalStart, timing.timezone),
        }),
      );
    }
    const trashed = gone.filter((r) => !inTrash(r)).map((r) => r.eventId);
    await this.removeEvents(tx, w, trashed, w.input.force === true);
    Object.assign(series, {
      rule: valid.lines.join('\n'),
      ...seriesColumns(timing),
      madeUntilUtc: limits.horizon,
      open: this.goesOn(timing, valid.rule, limits.horizon),
    });
    await this.store.saveSeries(tx, series);
    await this.store.replaceOccurrences(tx, series.id, kept);
    await this.changedRule(tx, w, series.id);
  }

  // ---------------------------------------------------------------- cuts

  /** Is this the series' first occurrence (so that `following` means `all`)? */
  private async isFirst(tx: Tx, series: SeriesEntity, occurrence: OccurrenceEntity): Promise<boolean> {
    if (occurrence.eventId === series.id) return true;
    const rows = await this.store.occurrencesOf(tx, series.id);
    return rows[0]?.eventId === occurrence.eventId;
  }

  /** The series ends before this occurrence (its rule gets an UNTIL); answers the rule of what followed. */
  private async endBefore(tx: Tx, series: SeriesEntity, at: OccurrenceEntity): Promise<RecurrenceRule> {
    const timing = timingOfSeries(series);
    const rule = this.ruleOf(series);
    const rruleOnly: RecurrenceRule = { rrule: rule.rrule, rdates: [], exdates: [] };
    const countBefore = rule.rrule ? expandRecurrence(timing, rruleOnly, { to: at.utcOriginalStart }).occurrences.length : 0;
    const { before, after } = cutRule(rule, timing, at, countBefore);
    series.rule = formatRecurrence(before).join('\n');
    series.open = false;
    await this.store.saveSeries(tx, series);
    return after;
  }

  /**
   * `scope=following` (§4): the series is cut before this occurrence, which becomes the first of a
   * new series (its id the new series' id) with the rest of the rule and the later occurrences.
   */
  private async cut(tx: Tx, series: SeriesEntity, at: OccurrenceEntity): Promise<SeriesEntity> {
    const after = await this.endBefore(tx, series, at);
    const length = utcSqlMillis(series.endDate) - utcSqlMillis(series.startDate);
    const later = Object.assign(new SeriesEntity(), {
      id: at.eventId,
      rule: formatRecurrence(after).join('\n'),
      startDate: at.originalStart,
      endDate: new Date(utcSqlMillis(at.originalStart) + length).toISOString().slice(0, 19).replace('T', ' '),
      timezone: series.timezone,
      allDay: series.allDay,
      madeUntilUtc: series.madeUntilUtc,
      open: this.goesOn(timingOfSeries(series), after, series.madeUntilUtc),
    });
    await this.store.saveSeries(tx, later);
    await this.store.moveOccurrences(tx, series.id, at.utcOriginalStart, later.id);
    return later;
  }

  // ---------------------------------------------------------------- horizon

  /**
   * Makes a series' occurrences up to the horizon (§3), in the unit of work of `w` (the
   * extender's, one per series). Several instances may run this at once: the series row is
   * locked, and an occurrence made twice breaks the unique key, so the loser's unit of work is
   * tried again and finds the work done. Answers how many occurrences it made.
   */
  async extend(tx: Tx, changes: ChangeSet, seriesId: number): Promise<number> {
    const w: WriteParts = { changes, actor: null, input: {} };
    const series = await this.store.lockSeries(tx, seriesId);
    const limits = this.limits();
    if (!series || !series.open || series.madeUntilUtc >= limits.horizon) return 0;
    const timing = timingOfSeries(series);
    const rule = this.ruleOf(series);
    // At most CALENDAR_RECURRENCE_MAX per unit of work: a series with more to make (24 a day for
    // a long horizon) is made up to its last one here, and the extender comes back for the rest.
    const { occurrences: wanted, truncated } = expandRecurrence(timing, rule, { from: series.madeUntilUtc, to: limits.horizon }, limits.max);
    const rows = await this.store.occurrencesOf(tx, series.id);
    const known = new Set(rows.map((r) => occurrenceKey(r.day, r.nth)));
    const made: OccurrenceEntity[] = [];
    const source = await this.templateEvent(tx, rows);
    if (source) {
      const template = await this.template(tx, source);
      const seriesSlug = seriesSlugOf((await this.store.eventsById(tx, [series.id]))[0]?.slug ?? source.slug);
      // The series' own rights: its author's fields, made by the service (no request's caller).
      const actor: Actor = { id: source.authorId, login: 'recurrence', role: 'administrator' };
      const missing = wanted.filter((o) => !known.has(o.key));
      const ids = await this.make(tx, { ...w, actor }, template, seriesSlug, timing, missing);
      made.push(...missing.map((o, i) => occurrenceRow(series.id, ids[i], o)));
    }
    await this.store.insertOccurrences(tx, made);
    const madeUntil = truncated && source !== null ? wanted[wanted.length - 1].utcStart : limits.horizon;
    series.madeUntilUtc = madeUntil;
    series.open = source !== null && (truncated || this.goesOn(timing, rule, limits.horizon));
    await this.store.saveSeries(tx, series);
    return made.length;
  }

  /** The series' latest occurrence that still carries its fields (not detached, not in the trash). */
  private async templateEvent(tx: Tx, rows: OccurrenceEntity[]): Promise<EventEntity | null> {
    const candidates = rows.filter((r) => !r.detached).map((r) => r.eventId);
    const events = new Map((await this.store.eventsById(tx, candidates)).map((e) => [e.id, e]));
    for (const id of candidates.reverse()) {
      const e = events.get(id);
      if (e && e.status !== 'trash') return e;
    }
    return null;
  }

  /** Does the rule give a start at or after `horizonUtc` (so the extender must come back)? */
  private goesOn(timing: SeriesTiming, rule: RecurrenceRule, horizonUtc: string): boolean {
    return expandRecurrence(timing, rule, { from: horizonUtc, to: END_OF_TIME }, 1).occurrences.length > 0;
  }

  // ---------------------------------------------------------------- helpers

  /**
   * The series' rule (or an occurrence's original start) changed: every occurrence's `recurrence`
   * and `series` keys did, so each is an event change of this write (recurrence.md §4: every
   * occurrence changed appears in the change feed and webhooks).
   */
  private async changedRule(tx: Tx, w: WriteParts, seriesId: number): Promise<void> {
    for (const row of await this.store.occurrencesOf(tx, seriesId)) w.changes.record('event', row.eventId);
  }

  private ruleOf(series: SeriesEntity): RecurrenceRule {
    return parseRecurrence(series.rule === '' ? [] : series.rule.split('\n'), timingOfSeries(series));
  }

  /** Trash (or delete for good) these events through the core's deletes, under the caller's rights. */
  private async removeEvents(tx: Tx, w: WriteParts, ids: number[], force: boolean): Promise<void> {
    const events = await this.store.eventsById(tx, ids);
    for (const e of events) {
      if (!force && e.status === 'trash') continue;
      await this.writes.remove(tx, w.changes, w.actor, e.id, force, { scope: OWN_WRITE });
    }
  }
}

export function timingOf(e: Pick<EventEntity, 'startDate' | 'endDate' | 'timezone' | 'allDay'>): SeriesTiming {
  return { startDate: e.startDate, endDate: e.endDate, timezone: e.timezone, allDay: e.allDay };
}

export function timingOfSeries(s: SeriesEntity): SeriesTiming {
  return { startDate: s.startDate, endDate: s.endDate, timezone: s.timezone, allDay: s.allDay };
}

function seriesColumns(t: SeriesTiming): Pick<SeriesEntity, 'startDate' | 'endDate' | 'timezone' | 'allDay'> {
  return { startDate: t.startDate, endDate: t.endDate, timezone: t.timezone, allDay: t.allDay };
}

function occurrenceRow(seriesId: number, eventId: number, o: Occurrence): OccurrenceEntity {
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
