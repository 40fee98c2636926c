import type { DataSource, EntityManager } from 'typeorm';

declare const _txBrand: unique symbol;
declare const _outerBrand: unique symbol;

/**
 * The handle of an open write transaction, as the unit of work hands it to a write (and
 * `bulkTransaction` to bulk loads). It is that transaction's manager, branded: a plain
 * `EntityManager` or a `DataSource` is not assignable to it, so a method that takes a `Tx`
 * cannot be given the outer connection. The brand exists in types only; nothing outside
 * src/database may assert a value to be a `Tx` (eslint.config.mjs: tx/no-tx-assertion).
 */
export type Tx = EntityManager & { readonly __txBrand: typeof _txBrand };

/** The outer connection, named at a call site outside writes (see Reader). */
export type Outer = { readonly __outerBrand: typeof _outerBrand };
export const OUTER = Object.freeze({}) as Outer;

/**
 * What a read that runs both inside and outside writes is given: the write's `Tx`, or `OUTER`
 * — never a default, so a read inside a write cannot fall back to the outer connection by
 * omission, and `OUTER` inside a write is flagged by tx/no-outer-connection-in-write.
 */
export type Reader = Tx | Outer;

/** The manager a read runs on: the write's transaction, or the data source's own. */
export function managerOf(reader: Reader, db: DataSource): EntityManager {
  return reader === OUTER ? db.manager : (reader as Tx);
}
