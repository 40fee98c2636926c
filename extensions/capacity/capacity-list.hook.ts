import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { EVENT_LIST_HOOKS, Hook, INVALID, invalidParam } from '../../src/extend';
import type { EventEntity, EventListHook, EventQueryExtension } from '../../src/extend';
import { MIN_CAPACITY_MESSAGE, readCapacity } from './capacity-param';
import { EventCapacityEntity } from './capacity.entity';

/**
 * `min_capacity=N` on GET /events: only events that take at least N people (an event without a
 * capacity is left out). A subquery on the module's own table, so the event query gains no join.
 */
@Hook(EVENT_LIST_HOOKS)
@Injectable()
export class CapacityListHook implements EventListHook {
  readonly params = ['min_capacity'] as const;

  prepare(query: Record<string, unknown>): EventQueryExtension | null {
    if (query.min_capacity === undefined) return null;
    const min = readCapacity(query.min_capacity);
    if (min === INVALID) throw invalidParam('min_capacity', MIN_CAPACITY_MESSAGE);
    return (qb: SelectQueryBuilder<EventEntity>) => {
      const roomy = qb.subQuery().select('c.event_id').from(EventCapacityEntity, 'c').where('c.capacity >= :minCapacity').getQuery();
      qb.andWhere(`e.id IN ${roomy}`, { minCapacity: min });
    };
  }
}
