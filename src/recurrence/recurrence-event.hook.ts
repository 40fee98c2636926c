import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { formatSql } from '../common/datetime/format';
import { parseDateInput } from '../common/datetime/parse-date';
import { isValidTimezone } from '../common/datetime/zones';
import { INVALID, toStrictBool } from '../common/params';
import { AppConfig } from '../config/app-config';
import { Hook } from '../common/feature/hooks';
import { OUTER, type Tx } from '../database/tx';
import { applyTiming, currentLinks, EVENT_HOOKS, EventEntity } from '../events';
import type { EventCheckContext, EventDeleteContext, EventHook, EventWriteContext } from '../events';
import type { RecordExtras } from '../items';
import { RecurrenceError, SeriesTiming } from './recurrence-rule';
import { readScope, SCOPE_MESSAGE, writtenTiming } from './series-plan';
import { PresentedOccurrence, SeriesRepository } from './series.repository';
import { SeriesWriter, timingOf } from './series-writer';
import { validateRecurrence } from './validate-recurrence';

type Json = Record<string, unknown>;

/**
 * The recurrence extension's part of every event write and representation (recurrence.md
 * §2–§5), as an event hook: it owns the write parameters `recurrence` and `scope`, keeps the
 * series in the write's unit of work (SeriesWriter), adds `recurrence` and `series` to
 * representations and `superEvent` to JSON-LD. Its page, iCalendar, form, list, OpenAPI and
 * import parts are hooks of their own (recurrence.module.ts).
 */
@Hook(EVENT_HOOKS)
@Injectable()
export class RecurrenceEventHook implements EventHook {
  readonly params = ['recurrence', 'scope'] as const;

  constructor(
    private readonly repository: SeriesRepository,
    private readonly writer: SeriesWriter,
    private readonly config: AppConfig,
  ) {}

  /** `scope` and `recurrence` before anything is written (§2, §4): 400 rest_invalid_param naming them. */
  async check(input: Json, ctx: EventCheckContext): Promise<Record<string, string>> {
    // The module's own writes of a series' occurrences carry no `recurrence` or `scope` to check.
    if (ctx.origin.kind === 'series') return {};
    const bad: Record<string, string> = {};
    const scope = readScope(input);
    if (scope === 'invalid') bad.scope = SCOPE_MESSAGE;
    if (input.recurrence === undefined || input.recurrence === null) return bad;
    // A timing the core refuses is said by the core (start_date, timezone, …); the rule is then not checked.
    const timing = this.timingFor(input, ctx.current);
    if (!timing) return bad;
    const inSeries = ctx.current !== null && (await this.repository.occurrenceOf(OUTER, ctx.current.id)) !== null;
    try {
      validateRecurrence(input.recurrence, timing, this.writer.limits(), inSeries && scope !== 'invalid' ? (scope ?? 'this') : undefined);
    } catch (e) {
      if (!(e instanceof RecurrenceError)) throw e;
      bad.recurrence = e.message;
    }
    return bad;
  }

  async saved(tx: Tx, event: EventEntity, ctx: EventWriteContext): Promise<void> {
    if (ctx.origin.kind === 'series') return;
    await this.writer.saved(tx, { changes: ctx.changes, actor: ctx.actor, input: ctx.input }, event, ctx);
  }

  async deleting(tx: Tx, event: EventEntity, ctx: EventDeleteContext): Promise<void> {
    if (ctx.origin.kind === 'series') return this.writer.ownDelete(tx, event, ctx.force);
    await this.writer.deleting(tx, { changes: ctx.changes, actor: ctx.actor, input: ctx.input }, event, ctx);
  }

  /** `recurrence` and `series` on every event (§3), `superEvent` on every occurrence but the first: one query for the page. */
  async present(events: readonly EventEntity[]): Promise<Map<number, RecordExtras>> {
    const rows = await this.repository.presented(events.map((e) => e.id));
    const lines = new Map<number, string[]>();
    return new Map(events.map((e) => [e.id, this.extrasOf(rows.get(e.id), lines)]));
  }

  /** `lines`: each series' lines, split once for the page and shared by its occurrences. */
  private extrasOf(row: PresentedOccurrence | undefined, lines: Map<number, string[]>): RecordExtras {
    if (!row) return { fields: { recurrence: [], series: null } };
    if (!lines.has(row.seriesId)) lines.set(row.seriesId, linesOf(row.rule));
    const series = {
      id: row.seriesId,
      // In the form of the request, like every link of the answer (compat.md): presented events are kept per form.
      rest_url: currentLinks(this.config.baseUrl).href(`/events/${row.seriesId}/occurrences`),
      original_start: row.originalStart,
      utc_original_start: row.utcOriginalStart,
      detached: row.detached,
    };
    const extras: RecordExtras = { fields: { recurrence: lines.get(row.seriesId), series } };
    if (row.eventId !== row.seriesId && row.firstSlug !== null && row.firstStatus !== 'trash') {
      extras.jsonLd = { superEvent: `${this.config.publicUrl}/event/${row.firstSlug}/` };
    }
    return extras;
  }

  /** The series timing this write would give the event: its fields as sent over what it had. Null when the core will refuse them. */
  private timingFor(input: Json, current: EventEntity | null): SeriesTiming | null {
    const given = typeof input.timezone === 'string' ? input.timezone.trim() : '';
    const zone = given !== '' ? given : (current?.timezone ?? this.config.timezone);
    if (!isValidTimezone(zone)) return null;
    const now = DateTime.utc();
    const wall = (value: unknown) => {
      if (value === undefined) return undefined;
      const dt = parseDateInput(value, zone, now);
      return dt ? formatSql(dt.setZone(zone)) : null;
    };
    const start = wall(input.start_date);
    const end = wall(input.end_date);
    const allDay = input.all_day === undefined ? undefined : toStrictBool(input.all_day);
    if (start === null || end === null || allDay === INVALID) return null;
    if (!current && (start === undefined || end === undefined)) return null;
    return writtenTiming(input, timingOf(applyTiming(current, { start, end, timezone: zone, allDay })));
  }
}

/** A series' stored rule as its lines (none for an empty rule). */
export function linesOf(rule: string): string[] {
  return rule === '' ? [] : rule.split('\n');
}
