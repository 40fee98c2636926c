import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * TypeORM's SQLite drivers give every caller the same connection and the same query runner. A
 * transaction begun while another is open becomes a SAVEPOINT inside it: two requests' writes
 * then end up in one transaction, the first to finish releases the other's savepoint, and a
 * failure in either rolls back both (a client could get 201 for a row that is gone). A reader
 * between two statements of a write would also see rows not yet committed.
 *
 * This makes the shared connection behave: transactions run one after another, and a query
 * from outside the open transaction waits until that transaction has ended. A transaction
 * started from inside another one (same async context) still nests as a savepoint, as before.
 * MySQL/MariaDB need none of this (a pool, one connection per transaction).
 */
export function serializeSqliteTransactions(ds: DataSource): DataSource {
  const type = ds.options.type;
  if (type !== 'better-sqlite3' && type !== 'sqlite') return ds;
  const inside = new AsyncLocalStorage<true>();
  /** Resolves when the transaction queued last has ended (the end of the queue). */
  let tail: Promise<void> = Promise.resolve();
  /** Resolves when the open transaction ends; null when none is open. */
  let open: Promise<void> | null = null;

  const manager: EntityManager = ds.manager;
  const transaction = manager.transaction.bind(manager) as (work: (tx: EntityManager) => Promise<unknown>) => Promise<unknown>;
  const queued = async (...args: unknown[]): Promise<unknown> => {
    if (inside.getStore()) return (transaction as (...a: unknown[]) => Promise<unknown>)(...args);
    const before = tail;
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    tail = ended;
    await before;
    open = ended;
    try {
      return await inside.run(true, () => (transaction as (...a: unknown[]) => Promise<unknown>)(...args));
    } finally {
      open = null;
      end();
    }
  };
  manager.transaction = queued as EntityManager['transaction'];

  // The one shared runner: its queries from outside the open transaction wait for it to end.
  const runner: QueryRunner = ds.createQueryRunner();
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  runner.query = (async (...args: unknown[]) => {
    while (open && !inside.getStore()) await open;
    return query(...args);
  }) as QueryRunner['query'];
  return ds;
}
