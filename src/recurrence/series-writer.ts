import { Injectable } from '@nestjs/common';
import { utcSqlMillis } from '../common/datetime/format';
import { invalidParam } from '../common/errors';
import type { ChangeSet } from '../database/change-log';
import type { Tx } from '../database/tx';
import { EventEntity, EventWrites, SERIES_ORIGIN } from '../events';
import type { EventDeleteContext, EventWriteContext } from '../events';
import { OccurrenceEntity } from './entities/occurrence.entity';
import { SeriesEntity } from './entities/series.entity';
import { expandRecurrence } from './expand';
import { formatRecurrence, RecurrenceRule, SeriesTiming } from './recurrence-rule';
import {
  carriedFields,
  cutRule,
  exclusionOf,
  LINK_FIELDS,
  movesSeries,
  occurrenceSlug,
  readScope,
  SCOPE_MESSAGE,
  withoutExclusionOf,
  writtenTiming,
} from './series-plan';
import { occurrenceRow, SeriesOccurrences, seriesColumns, timingOf, timingOfSeries, WriteParts } from './series-occurrences';
import { SeriesRemake } from './series-remake';
import { SeriesRepository } from './series.repository';
import type { RecurrenceLimits, ValidRecurrence } from './validate-recurrence';

type Json = Record<string, unknown>;

export { timingOf, timingOfSeries } from './series-occurrences';
export type { WriteParts } from './series-occurrences';

/**
 * The series side of event writes (recurrence.md §2–§4), called by the extension's hooks inside
 * the write's unit of work: it makes, changes and removes the other occurrences (SeriesOccurrences,
 * through EventWrites, so a refusal of any occurrence refuses the whole write), moves or re-rules
 * a series (SeriesRemake), and keeps the two tables in step.
 */
@Injectable()
export class SeriesWriter {
  constructor(
    private readonly repository: SeriesRepository,
    private readonly occurrences: SeriesOccurrences,
    private readonly remaking: SeriesRemake,
    private readonly writes: EventWrites,
  ) {}

  /** CALENDAR_RECURRENCE_MAX and now + CALENDAR_RECURRENCE_HORIZON_DAYS. */
  limits(): RecurrenceLimits {
    return this.occurrences.limits();
  }

  /** The `recurrence` field checked for this timing; a RecurrenceError answers 400 naming the field. */
  validate(lines: unknown, timing: SeriesTiming, limits = this.limits()): ValidRecurrence {
    return this.occurrences.validate(lines, timing, limits);
  }

  /** Makes a series' occurrences up to the horizon (SeriesOccurrences.extend). */
  extend(tx: Tx, changes: ChangeSet, seriesId: number): Promise<number> {
    return this.occurrences.extend(tx, changes, seriesId);
  }

  // ---------------------------------------------------------------- writes of an event

  /** After an event's create or update: what `recurrence` and `scope` ask of its series (§2, §4). */
  async saved(tx: Tx, w: WriteParts, event: EventEntity, ctx: Pick<EventWriteContext, 'before'>): Promise<void> {
    const lines = w.input.recurrence;
    const occurrence = ctx.before ? await this.repository.occurrenceOf(tx, event.id) : null;
    if (!occurrence) {
      if (Array.isArray(lines) && lines.length > 0) await this.start(tx, w, event, lines);
      return;
    }
    const series = await this.repository.lockSeries(tx, occurrence.seriesId);
    if (!series) return;
    const scope = readScope(w.input) ?? 'this';
    if (scope === 'this') return this.editOne(tx, w, series, occurrence, event, ctx.before!);
    if (scope === 'following' && !(await this.isFirst(tx, series, occurrence))) {
      const later = await this.cut(tx, series, occurrence);
      await this.occurrences.changedRule(tx, w, series.id);
      await this.editSeries(tx, w, later, occurrence, event, ctx.before!);
      return this.occurrences.changedRule(tx, w, later.id);
    }
    return this.editSeries(tx, w, series, occurrence, event, ctx.before!);
  }

  /** Before an event's delete: what `scope` asks of its series (§4). */
  async deleting(tx: Tx, w: WriteParts, event: EventEntity, ctx: Pick<EventDeleteContext, 'force'>): Promise<void> {
    // Deletes have no parameter check of their own: a bad scope is refused here, before anything changes.
    if (readScope(w.input) === 'invalid') throw invalidParam('scope', SCOPE_MESSAGE);
    const occurrence = await this.repository.occurrenceOf(tx, event.id);
    if (!occurrence) return;
    const series = await this.repository.lockSeries(tx, occurrence.seriesId);
    if (!series) return;
    const scope = readScope(w.input) ?? 'this';
    if (scope === 'this') {
      // The occurrence leaves the rule (its original start an EXDATE) and keeps its row, so that a restore finds it.
      const rule = this.occurrences.ruleOf(series);
      rule.exdates.push(exclusionOf(occurrence.originalStart, series.allDay));
      series.rule = formatRecurrence(rule).join('\n');
      await this.repository.saveSeries(tx, series);
      if (ctx.force) await this.repository.removeOccurrences(tx, [event.id]);
      return this.occurrences.changedRule(tx, w, series.id);
    }
    const whole = scope === 'all' || (await this.isFirst(tx, series, occurrence));
    if (!whole) await this.endBefore(tx, series, occurrence);
    else series.open = false;
    await this.repository.saveSeries(tx, series);
    if (!whole) await this.occurrences.changedRule(tx, w, series.id);
    const reached = (await this.repository.occurrencesOf(tx, series.id)).filter((o) => whole || o.utcOriginalStart >= occurrence.utcOriginalStart);
    const ids = reached.map((o) => o.eventId);
    const others = ids.filter((id) => id !== event.id);
    await this.occurrences.removeEvents(tx, w, others, ctx.force);
    if (ctx.force && whole) await this.repository.removeSeries(tx, series.id);
    else if (ctx.force) await this.repository.removeOccurrences(tx, ids);
  }

  /** A delete the module made itself (origin `series`: an occurrence removed for good with its series): its row goes with it. */
  async ownDelete(tx: Tx, event: EventEntity, force: boolean): Promise<void> {
    if (force) await this.repository.removeOccurrences(tx, [event.id]);
  }

  // ---------------------------------------------------------------- a new series

  /** The event becomes the first occurrence of a new series (§2, §3): the others are made up to the horizon. */
  private async start(tx: Tx, w: WriteParts, event: EventEntity, lines: unknown[]): Promise<void> {
    const timing = writtenTiming(w.input, timingOf(event));
    const limits = this.occurrences.limits();
    const valid = this.occurrences.validate(lines, timing, limits);
    const [first, ...rest] = valid.expansion.occurrences;
    if (first.start !== event.startDate) throw invalidParam('recurrence', "The rule's first occurrence must be the event itself (an EXDATE removes it).");
    const series = Object.assign(new SeriesEntity(), {
      id: event.id,
      rule: valid.lines.join('\n'),
      ...seriesColumns(timing),
      madeUntilUtc: valid.horizon,
      open: this.occurrences.goesOn(timing, valid.rule, valid.horizon),
    });
    await this.repository.saveSeries(tx, series);
    const template = await this.occurrences.template(tx, event);
    const made = await this.occurrences.make(tx, w, template, event.slug, timing, rest);
    await this.repository.insertOccurrences(tx, [occurrenceRow(series.id, event.id, first), ...rest.map((o, i) => occurrenceRow(series.id, made[i], o))]);
    // The first occurrence's slug is dated like the others' (§3: "the series' slug with the
    // date"); the write answers with it, so the row the route presents takes it too.
    // Its end is the series' length after its start, as every occurrence's (expand.ts): the
    // clock's end differs from the one written when the start was in a gap or the end in a fall-back.
    const ends = first.end !== event.endDate ? { end_date: first.end } : {};
    const dated = await this.writes.update(
      tx,
      w.changes,
      w.actor,
      event.id,
      {
        slug: occurrenceSlug(event.slug, first.key.slice(0, 10)),
        ...ends,
      },
      SERIES_ORIGIN,
    );
    Object.assign(event, { slug: dated.slug, endDate: dated.endDate, endDateUtc: dated.endDateUtc });
  }

  // ---------------------------------------------------------------- edits

  /** `scope=this` (§4): the occurrence is detached, or, when the write restores it from the trash, its EXDATE goes. */
  private async editOne(tx: Tx, w: WriteParts, series: SeriesEntity, occurrence: OccurrenceEntity, event: EventEntity, before: EventEntity): Promise<void> {
    if (before.status === 'trash' && event.status !== 'trash') {
      series.rule = formatRecurrence(withoutExclusionOf(this.occurrences.ruleOf(series), occurrence.originalStart, occurrence.utcOriginalStart)).join('\n');
      await this.repository.saveSeries(tx, series);
      return this.occurrences.changedRule(tx, w, series.id);
    }
    if (occurrence.detached) return;
    occurrence.detached = true;
    await this.repository.saveOccurrence(tx, occurrence);
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
    if (movesSeries(w.input)) return this.remaking.remake(tx, w, series, event, before, fields);
    if (Object.keys(fields).length === 0) return;
    const others = (await this.repository.occurrencesOf(tx, series.id)).filter(
      (o) => !o.detached && o.eventId !== addressed.eventId && !restored.has(o.eventId),
    );
    const current = await this.occurrences.eventsOf(tx, others);
    for (const o of others) {
      if (current.get(o.eventId)?.status !== 'trash') await this.writes.update(tx, w.changes, w.actor, o.eventId, { ...fields }, SERIES_ORIGIN);
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
    const rule = withoutExclusionOf(this.occurrences.ruleOf(series), addressed.originalStart, addressed.utcOriginalStart);
    const rows = (await this.repository.occurrencesOf(tx, series.id)).filter((r) => r.eventId !== event.id);
    const last = rows.reduce((max, r) => (r.utcOriginalStart > max ? r.utcOriginalStart : max), series.madeUntilUtc);
    const inRule = new Set(expandRecurrence(timing, rule, { to: `${last.slice(0, 10)} 23:59:59` }).occurrences.map((o) => o.utcOriginalStart));
    const current = await this.occurrences.eventsOf(tx, rows);
    const restored = new Set<number>();
    for (const r of rows) {
      if (current.get(r.eventId)?.status !== 'trash' || !inRule.has(r.utcOriginalStart)) continue;
      await this.writes.update(tx, w.changes, w.actor, r.eventId, { ...(r.detached ? {} : fields), status: event.status }, SERIES_ORIGIN);
      restored.add(r.eventId);
    }
    series.rule = formatRecurrence(rule).join('\n');
    series.open = this.occurrences.goesOn(timing, rule, series.madeUntilUtc);
    await this.repository.saveSeries(tx, series);
    await this.occurrences.changedRule(tx, w, series.id);
    return restored;
  }

  /** The links the request gave, as the addressed event now has them (ids). */
  private async linksFor(tx: Tx, w: WriteParts, event: EventEntity): Promise<Json> {
    if (!LINK_FIELDS.some((k) => w.input[k] !== undefined)) return {};
    const links = await this.repository.linksOf(tx, event.id);
    return { ...links, venue: event.venueId ?? 0, image: event.imageId ?? 0 };
  }

  /** `"recurrence": []` with scope=all (§2): the addressed event stays alone, the other occurrences go to the trash. */
  private async end(tx: Tx, w: WriteParts, series: SeriesEntity, event: EventEntity): Promise<void> {
    const others = (await this.repository.occurrencesOf(tx, series.id)).map((o) => o.eventId).filter((id) => id !== event.id);
    await this.occurrences.removeEvents(tx, w, others, false);
    await this.repository.removeSeries(tx, series.id);
  }

  // ---------------------------------------------------------------- cuts

  /** Is this the series' first occurrence (so that `following` means `all`)? */
  private async isFirst(tx: Tx, series: SeriesEntity, occurrence: OccurrenceEntity): Promise<boolean> {
    if (occurrence.eventId === series.id) return true;
    const rows = await this.repository.occurrencesOf(tx, series.id);
    return rows[0]?.eventId === occurrence.eventId;
  }

  /** The series ends before this occurrence (its rule gets an UNTIL); answers the rule of what followed. */
  private async endBefore(tx: Tx, series: SeriesEntity, at: OccurrenceEntity): Promise<RecurrenceRule> {
    const timing = timingOfSeries(series);
    const rule = this.occurrences.ruleOf(series);
    const rruleOnly: RecurrenceRule = { rrule: rule.rrule, rdates: [], exdates: [] };
    const countBefore = rule.rrule ? expandRecurrence(timing, rruleOnly, { to: at.utcOriginalStart }).occurrences.length : 0;
    const { before, after } = cutRule(rule, timing, at, countBefore);
    series.rule = formatRecurrence(before).join('\n');
    series.open = false;
    await this.repository.saveSeries(tx, series);
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
      open: this.occurrences.goesOn(timingOfSeries(series), after, series.madeUntilUtc),
    });
    await this.repository.saveSeries(tx, later);
    await this.repository.moveOccurrences(tx, series.id, at.utcOriginalStart, later.id);
    return later;
  }
}
