import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { invalidParams, PARAM_MESSAGES } from '../common/errors';
import { Hook } from '../common/feature/hooks';
import { INVALID, toInt, toStrictBool } from '../common/params';
import { type EventEntity, EVENT_LIST_HOOKS, type EventListHook, type EventQueryExtension } from '../events';
import { OccurrenceEntity } from './entities/occurrence.entity';

/** The validated list parameters of one request (recurrence.md §5). */
export interface SeriesListFilter {
  /** `series={id}`: only that series' occurrences. */
  series?: number;
  /** `hide_subsequent_recurrences=true`: of each series, only the first occurrence the query lists. */
  firstOnly: boolean;
}

/** Reads `series` and `hide_subsequent_recurrences`; throws 400 rest_invalid_param for bad values. */
export function readSeriesFilter(query: Record<string, unknown>): SeriesListFilter | null {
  const bad: Record<string, string> = {};
  const filter: SeriesListFilter = { firstOnly: false };
  if (query.series !== undefined) {
    const id = toInt(query.series);
    if (id === INVALID || id < 1) bad.series = 'Must be the id of a series (a whole number of at least 1).';
    else filter.series = id;
  }
  if (query.hide_subsequent_recurrences !== undefined) {
    const flag = toStrictBool(query.hide_subsequent_recurrences);
    if (flag === INVALID) bad.hide_subsequent_recurrences = PARAM_MESSAGES.boolean;
    else filter.firstOnly = flag;
  }
  if (Object.keys(bad).length > 0) throw invalidParams(bad);
  return filter.series !== undefined || filter.firstOnly ? filter : null;
}

/**
 * GET /events series parameters (recurrence.md §5), as a list hook. With
 * `hide_subsequent_recurrences`, an occurrence is listed when it is the first, in start order,
 * among its series' occurrences that the same query matches: the query's conditions so far
 * (the core's filters and the list hooks before this one) are taken whole into a subquery that
 * numbers each series' matches (ROW_NUMBER, on both engines).
 */
@Hook(EVENT_LIST_HOOKS)
@Injectable()
export class RecurrenceListHook implements EventListHook {
  readonly params = ['series', 'hide_subsequent_recurrences'] as const;

  prepare(query: Record<string, unknown>): EventQueryExtension | null {
    const filter = readSeriesFilter(query);
    if (!filter) return null;
    return (qb: SelectQueryBuilder<EventEntity>) => {
      if (filter.series !== undefined) {
        qb.innerJoin(OccurrenceEntity, 'rs', 'rs.event_id = e.id AND rs.series_id = :recurrenceSeries', { recurrenceSeries: filter.series });
      }
      if (filter.firstOnly) firstOfEachSeries(qb);
    };
  }
}

function firstOfEachSeries(qb: SelectQueryBuilder<EventEntity>): void {
  const matches = qb
    .clone()
    .orderBy()
    .select('e.id', 'first_id')
    .addSelect('ROW_NUMBER() OVER (PARTITION BY rf.series_id ORDER BY e.start_date, e.id)', 'first_rank')
    .innerJoin(OccurrenceEntity, 'rf', 'rf.event_id = e.id');
  const single = qb.subQuery().select('1').from(OccurrenceEntity, 'rx').where('rx.event_id = e.id').getQuery();
  qb.andWhere(`(NOT EXISTS ${single} OR e.id IN (SELECT rm.first_id FROM (${matches.getQuery()}) rm WHERE rm.first_rank = 1))`);
}
