import { Injectable } from '@nestjs/common';
import { utcSqlMillis, wallToUtc } from '../common/datetime/format';
import { invalidParam } from '../common/errors';
import type { Tx } from '../database/tx';
import { EventEntity, EventWrites, SERIES_ORIGIN } from '../events';
import { OccurrenceEntity } from './entities/occurrence.entity';
import { SeriesEntity } from './entities/series.entity';
import { expandRecurrence, Occurrence } from './expand';
import { formatRecurrence } from './recurrence-rule';
import { movedRule, movedTiming, occurrenceFields, occurrenceKey, sameSeriesMoved, SeriesMoveError, seriesSlugOf, shiftDay, shiftWall } from './series-plan';
import { occurrenceRow, SeriesOccurrences, seriesColumns, timingOf, timingOfSeries, WriteParts } from './series-occurrences';
import { SeriesRepository } from './series.repository';

type Json = Record<string, unknown>;

/** A series edit that moves it or gives it a new rule (recurrence.md §3–§4), for SeriesWriter. */
@Injectable()
export class SeriesRemake {
  constructor(
    private readonly repository: SeriesRepository,
    private readonly occurrences: SeriesOccurrences,
    private readonly writes: EventWrites,
  ) {}

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
  async remake(tx: Tx, w: WriteParts, series: SeriesEntity, event: EventEntity, before: EventEntity, fields: Json): Promise<void> {
    const old = timingOfSeries(series);
    const { timing, days } = movedTiming(old, before, timingOf(event));
    const shift = utcSqlMillis(timing.startDate) - utcSqlMillis(old.startDate);
    const newRule = Array.isArray(w.input.recurrence);
    const oldRule = this.occurrences.ruleOf(series);
    const limits = this.occurrences.limits();
    let lines: unknown = w.input.recurrence;
    if (!newRule) {
      try {
        lines = formatRecurrence(movedRule(oldRule, old, timing));
      } catch (e) {
        if (e instanceof SeriesMoveError) throw invalidParam('start_date', e.message);
        throw e;
      }
    }
    const valid = this.occurrences.validate(lines, timing, limits);
    if (!newRule && !sameSeriesMoved(expandRecurrence(old, oldRule, { to: limits.horizon }).occurrences, valid.expansion.occurrences, shift, limits.horizon)) {
      throw invalidParam(
        'start_date',
        "The series' rule cannot move by this much: moved, it would not give every occurrence moved by as much. Change the rule (recurrence) instead.",
      );
    }

    const rows = await this.repository.occurrencesOf(tx, series.id);
    const current = await this.occurrences.eventsOf(tx, rows);
    const inTrash = (r: OccurrenceEntity) => current.get(r.eventId)?.status === 'trash';
    // Moved: an occurrence is found by its original start moved with the series; a new rule: by date (§3).
    const rowKey = (r: OccurrenceEntity) => (newRule ? occurrenceKey(shiftDay(r.day, days), r.nth) : shiftWall(r.originalStart, shift));
    const newKey = (o: Occurrence) => (newRule ? o.key : o.originalStart);
    const byKey = new Map(rows.map((r) => [rowKey(r), r]));
    const template = { ...(await this.occurrences.template(tx, event)), ...fields };
    const seriesSlug = seriesSlugOf((await this.repository.eventsById(tx, [series.id]))[0]?.slug ?? event.slug);
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
        if (Object.keys(change).length > 0) await this.writes.update(tx, w.changes, w.actor, row.eventId, { ...change }, SERIES_ORIGIN);
      }
      kept.push(Object.assign(occurrenceRow(series.id, row.eventId, o), { detached: row.detached }));
    }
    const made = await this.occurrences.make(tx, w, template, seriesSlug, timing, fresh);
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
        await this.writes.update(tx, w.changes, w.actor, r.eventId, { ...occurrenceFields(times, timing) }, SERIES_ORIGIN);
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
    await this.occurrences.removeEvents(tx, w, trashed, w.input.force === true);
    Object.assign(series, {
      rule: valid.lines.join('\n'),
      ...seriesColumns(timing),
      madeUntilUtc: limits.horizon,
      open: this.occurrences.goesOn(timing, valid.rule, limits.horizon),
    });
    await this.repository.saveSeries(tx, series);
    await this.repository.replaceOccurrences(tx, series.id, kept);
    await this.occurrences.changedRule(tx, w, series.id);
  }
}
