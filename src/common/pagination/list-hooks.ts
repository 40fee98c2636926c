import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../auth';
import { Hooks } from '../feature/hooks';
import { rawParam } from './list-page';

/**
 * What a list hook adds to one request's list query: conditions (`andWhere`, joins), and
 * optionally a leading order (`orderBy`): the list's own order is added after it.
 */
export type ListCondition = <T extends ObjectLiteral>(qb: SelectQueryBuilder<T>) => void;

/**
 * The hook of a list (GET /events, /venues, /organizers, /categories, /tags; one kind each),
 * one shape for every list: for each request, it validates its own parameters (throwing a
 * WpError for a 400 of errors.md) and answers the condition to add to the query (`C`: a
 * ListCondition, or for events their query's own shape), or null when the request does not
 * use them.
 */
export interface ListHook<C> {
  /** The query parameters it owns; they are kept in `rest_url`, the paging links and the cache keys. */
  readonly params: readonly string[];
  prepare(query: Record<string, unknown>, actor: Actor | null): Promise<C | null> | C | null;
}

/** One request's part of a list's hooks. */
export interface PreparedListHooks<C> {
  conditions: C[];
  /** The hooks' parameters the request gave, as written: for rest_url, the links and the cache key of totals and pages. */
  params: Record<string, string>;
}

/** `qb` with the list hooks' conditions (and leading order) added. */
export function extended<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, conditions: readonly ListCondition[]): SelectQueryBuilder<T> {
  for (const condition of conditions) condition(qb);
  return qb;
}

/** The hooks of one list, and their part of a request. */
export class ListHooks<C> extends Hooks<ListHook<C>> {
  /** Is some hook in charge of this parameter? */
  owns(param: string): boolean {
    return this.all().some((h) => h.params.includes(param));
  }

  /** Every hook's condition for this request (each validating its parameters first), in their order. */
  async prepare(query: Record<string, unknown>, actor: Actor | null): Promise<PreparedListHooks<C>> {
    const prepared: PreparedListHooks<C> = { conditions: [], params: {} };
    for (const hook of this.all()) {
      const condition = await hook.prepare(query, actor);
      if (condition) prepared.conditions.push(condition);
      for (const param of hook.params) {
        const text = rawParam(query[param]);
        if (text !== undefined) prepared.params[param] = text;
      }
    }
    return prepared;
  }
}
