import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { invalidParam } from '../common/errors';
import { Hook } from '../common/feature/hooks';
import { INVALID, toInt } from '../common/params';
import { type EventEntity, EVENT_LIST_HOOKS, type EventListHook, type EventQueryExtension } from '../events';

/**
 * `GET /events?source={id}` (sources.md §4): only the events that source wrote (any caller; the
 * list's visibility rules apply as always). An id that is no source gives an empty list.
 */
@Hook(EVENT_LIST_HOOKS)
@Injectable()
export class SourceEventListHook implements EventListHook {
  readonly params = ['source'] as const;

  prepare(query: Record<string, unknown>): EventQueryExtension | null {
    if (query.source === undefined) return null;
    const id = toInt(query.source);
    if (id === INVALID || id < 1) throw invalidParam('source', 'Must be the id of a source (a whole number greater than 0).');
    return (qb: SelectQueryBuilder<EventEntity>) => {
      qb.andWhere("e.id IN (SELECT si.local_id FROM source_items si WHERE si.source_id = :sourceItemsOf AND si.kind = 'event')", { sourceItemsOf: id });
    };
  }
}
