import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../auth';
import { rawParam } from './list-page';

/**
 * What a list extension adds to one request's list query: conditions (`andWhere`, joins), and
 * optionally a leading order (`orderBy`): the list's own order is added after it.
 */
export type ListCondition = <T extends ObjectLiteral>(qb: SelectQueryBuilder<T>) => void;

/**
 * Extension point for modules that add parameters to a list (venues, organizers, categories,
 * tags; GET /events has its own, EventListExtensions, with the events' query shape): for each
 * request, validate the extension's own parameters (throw a WpError for a 400 of errors.md) and
 * return the condition to add, or null when the request does not use them.
 */
export interface ListExtension {
  /** The query parameters this extension owns; they are kept in `rest_url` and the paging links. */
  readonly params: readonly string[];
  prepare(query: Record<string, unknown>, actor: Actor | null): Promise<ListCondition | null> | ListCondition | null;
}

/** One request's part of the registered list extensions. */
export interface PreparedListExtensions {
  conditions: ListCondition[];
  /** The extensions' parameters the request gave, as written: for rest_url, the links and the cache key of totals and pages. */
  params: Record<string, string>;
}

/** `qb` with the list extensions' conditions (and leading order) added. */
export function extended<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, conditions: readonly ListCondition[]): SelectQueryBuilder<T> {
  for (const condition of conditions) condition(qb);
  return qb;
}

/** The list extensions of one list; its feature exports it, modules register in onModuleInit. */
export class ListExtensions {
  private readonly list: ListExtension[] = [];

  register(extension: ListExtension): void {
    this.list.push(extension);
  }

  all(): readonly ListExtension[] {
    return this.list;
  }

  /** Every extension's condition for this request (each validating its parameters first). */
  async prepare(query: Record<string, unknown>, actor: Actor | null): Promise<PreparedListExtensions> {
    const prepared: PreparedListExtensions = { conditions: [], params: {} };
    for (const extension of this.list) {
      const condition = await extension.prepare(query, actor);
      if (condition) prepared.conditions.push(condition);
      for (const param of extension.params) {
        const text = rawParam(query[param]);
        if (text !== undefined) prepared.params[param] = text;
      }
    }
    return prepared;
  }
}
