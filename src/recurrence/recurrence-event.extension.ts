import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { formatSql } from '../common/datetime/format';
import { parseDateInput } from '../common/datetime/parse-date';
import { isValidTimezone } from '../common/datetime/zones';
import { INVALID, toStrictBool } from '../common/params';
import { AppConfig } from '../config/app-config';
import { OUTER, type Tx } from '../database/tx';
import { applyTiming, currentLinks, EventEntity } from '../events';
import type {
  EventCheckContext,
  EventDeleteContext,
  EventExtension,
  EventExtras,
  EventFormSection,
  EventWriteContext,
  IcalPlan,
  IcalProperty,
  IcalShape,
  IcalTimes,
} from '../events';
import { globalIdFields } from '../items';
import { describeRecurrence } from './describe';
import { ruleFormSection } from './rule-form-section';
import { parseRecurrence, RecurrenceError, SeriesTiming } from './recurrence-rule';
import { readScope, SCOPE_MESSAGE, writtenTiming } from './series-plan';
import { planSeriesFeed } from './series-feed';
import { FeedOccurrence, PresentedOccurrence, SeriesStore } from './series.store';
import { SeriesWriter, timingOf, timingOfSeries } from './series-writer';
import { validateRecurrence } from './validate-recurrence';

type Json = Record<string, unknown>;

/** How many of the next occurrences an occurrence's page links (recurrence.md §6). */
const NEXT_ON_PAGE = 5;

/**
 * The recurrence extension's part of every event write and representation (recurrence.md
 * §2–§6), through the public EventExtension hooks: it owns the write parameters `recurrence`
 * and `scope`, keeps the series in the write's unit of work (SeriesWriter), adds `recurrence`
 * and `series` to representations and `superEvent` to JSON-LD, says the rule on the public
 * page, and gives iCalendar feeds each series once.
 */
@Injectable()
export class RecurrenceEventExtension implements EventExtension {
  readonly name = 'recurrence';
  readonly params = ['recurrence', 'scope'] as const;
  /** "Repeats" in the event form, with the this / following / all question (rule-form-section.ts). */
  readonly formSection: EventFormSection;

  constructor(
    private readonly store: SeriesStore,
    private readonly writer: SeriesWriter,
    private readonly config: AppConfig,
  ) {
    this.formSection = ruleFormSection(config);
  }

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
    const inSeries = ctx.current !== null && (await this.store.occurrenceOf(OUTER, ctx.current.id)) !== null;
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
  async present(events: readonly EventEntity[]): Promise<Map<number, EventExtras>> {
    const rows = await this.store.presented(events.map((e) => e.id));
    const lines = new Map<number, string[]>();
    return new Map(events.map((e) => [e.id, this.extrasOf(rows.get(e.id), lines)]));
  }

  /** `lines`: each series' lines, split once for the page and shared by its occurrences. */
  private extrasOf(row: PresentedOccurrence | undefined, lines: Map<number, string[]>): EventExtras {
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
    const extras: EventExtras = { fields: { recurrence: lines.get(row.seriesId), series } };
    if (row.eventId !== row.seriesId && row.firstSlug !== null && row.firstStatus !== 'trash') {
      extras.jsonLd = { superEvent: `${this.config.publicUrl}/event/${row.firstSlug}/` };
    }
    return extras;
  }

  /** The occurrence's page (§6): the rule in words and links to the next occurrences. */
  async pageFragment(event: Json): Promise<string | null> {
    const ref = event.series as { id: number; utc_original_start: string } | null | undefined;
    if (!ref) return null;
    const series = await this.store.findSeries(OUTER, ref.id);
    if (!series) return null;
    const timing = timingOfSeries(series);
    const words = describeRecurrence(parseRecurrence(linesOf(series.rule), timing), timing);
    const next = await this.store.nextPublished(series.id, ref.utc_original_start, NEXT_ON_PAGE);
    const links = next.map((n) => `<li><a href="${escapeHtml(`${this.config.publicUrl}/event/${n.slug}/`)}">${escapeHtml(n.startDate.slice(0, 16))}</a></li>`);
    return (
      `<section class="recurrence"><p class="recurrence-rule">${escapeHtml(words)}</p>` +
      (links.length > 0 ? `<h2>Next occurrences</h2><ul class="recurrence-next">${links.join('')}</ul>` : '') +
      '</section>'
    );
  }

  /**
   * Feeds give each series once (§6): one VEVENT that describes the series (its DTSTART, the
   * fields of an occurrence that follows the rule, the rule reconciled with the occurrences the
   * caller is shown: series-feed.ts), and a VEVENT of the series' UID with its RECURRENCE-ID for
   * each occurrence shown that does not follow the rule. Four queries for the whole feed, whatever
   * its series and occurrences. A single event's file gives that occurrence alone.
   */
  async ical(events: readonly EventEntity[], single: boolean, shape: IcalShape = 'service'): Promise<IcalPlan> {
    // TEC's feeds give every occurrence as a VEVENT of its own (compat.md): nothing to gather there.
    if (single || shape === 'tec') return {};
    const rows = await this.store.presented(events.map((e) => e.id));
    const seriesIds = [...new Set([...rows.values()].map((r) => r.seriesId))];
    const [seriesRows, occurrences] = await Promise.all([this.store.seriesByIds(seriesIds), this.store.feedOccurrences(seriesIds)]);
    const bySeries = new Map<number, FeedOccurrence[]>();
    for (const o of occurrences) {
      const members = bySeries.get(o.seriesId);
      if (members) members.push(o);
      else bySeries.set(o.seriesId, [o]);
    }
    const listed = new Set(events.map((e) => e.id));
    const omit = new Set<number>();
    const properties = new Map<number, IcalProperty[]>();
    const uids = new Map<number, string>();
    const times = new Map<number, IcalTimes>();
    const masters: number[] = [];
    for (const series of seriesRows) {
      const plan = planSeriesFeed({
        seriesId: series.id,
        timing: timingOfSeries(series),
        rule: series.rule,
        madeUntilUtc: series.madeUntilUtc,
        occurrences: bySeries.get(series.id) ?? [],
        listed,
      });
      if (!plan) continue;
      const uid = globalIdFields(this.config.baseUrl, series.id).global_id;
      masters.push(plan.master);
      uids.set(plan.master, uid);
      times.set(plan.master, plan.times);
      properties.set(plan.master, plan.lines);
      for (const id of plan.omit) omit.add(id);
      for (const [id, recurrenceId] of plan.overrides) {
        uids.set(id, uid);
        properties.set(id, [recurrenceId]);
      }
    }
    const add = await this.store.eventsById(
      OUTER,
      masters.filter((id) => !listed.has(id)),
    );
    return { omit, add, properties, uids, times };
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

function linesOf(rule: string): string[] {
  return rule === '' ? [] : rule.split('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
