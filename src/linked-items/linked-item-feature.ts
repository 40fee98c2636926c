import type { Type } from '@nestjs/common';
import type { Feature } from '../common/feature/feature';

/* eslint-disable @typescript-eslint/no-unsafe-function-type -- entity classes are classes of any shape */

/**
 * The description of a linked item's feature (venues, organizers: the twins differ only by
 * name): its change kind, whose items events embed (`eventsSql` finds the events linked to
 * some of them), its caches with their shares, and its list collection.
 */
export function linkedItemFeature(item: { collection: string; type: string; module: Type<unknown>; entities: Function[]; eventsSql: string }): Feature {
  const { collection } = item;
  return {
    name: collection,
    modules: [item.module],
    entities: item.entities,
    changeKinds: [{ type: item.type, state: { table: collection }, hasStatus: true, linkedEvents: { type: 'event', sql: item.eventsSql }, collection }],
    caches: { [`${collection}.listed`]: 0.06, [`${collection}.totals`]: 0.01, [`${collection}.page-ids`]: 0.02, [`${collection}.embedded`]: 0.02 },
    listCollections: [collection],
  };
}
