import { Injectable } from '@nestjs/common';
import { Hook } from '../common/feature/hooks';
import { AppConfig } from '../config/app-config';
import { OUTER } from '../database/tx';
import { ICAL_HOOKS } from '../events';
import type { EventEntity, IcalHook, IcalPlan, IcalProperty, IcalShape, IcalTimes } from '../events';
import { globalIdFields } from '../items';
import { planSeriesFeed } from './series-feed';
import { FeedOccurrence, SeriesRepository } from './series.repository';
import { timingOfSeries } from './series-writer';

/** The recurrence extension's part of the events' iCalendar answers (recurrence.md §6). */
@Hook(ICAL_HOOKS)
@Injectable()
export class RecurrenceIcalHook implements IcalHook {
  constructor(
    private readonly repository: SeriesRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Feeds give each series once (§6): one VEVENT that describes the series (its DTSTART, the
   * fields of an occurrence that follows the rule, the rule reconciled with the occurrences the
   * caller is shown: series-feed.ts), and a VEVENT of the series' UID with its RECURRENCE-ID for
   * each occurrence shown that does not follow the rule. Four queries for the whole feed, whatever
   * its series and occurrences. A single event's file gives that occurrence alone.
   */
  async icalPlan(events: readonly EventEntity[], single: boolean, shape: IcalShape = 'service'): Promise<IcalPlan> {
    // TEC's feeds give every occurrence as a VEVENT of its own (compat.md): nothing to gather there.
    if (single || shape === 'tec') return {};
    const rows = await this.repository.presented(events.map((e) => e.id));
    const seriesIds = [...new Set([...rows.values()].map((r) => r.seriesId))];
    const [seriesRows, occurrences] = await Promise.all([this.repository.seriesByIds(seriesIds), this.repository.feedOccurrences(seriesIds)]);
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
    const add = await this.repository.eventsById(
      OUTER,
      masters.filter((id) => !listed.has(id)),
    );
    return { omit, add, properties, uids, times };
  }
}
