import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * TypeORM's SQLite drivers give every caller the same connection and the same query runner. A
 * transaction begun while another is open becomes a SAVEPOINT inside it: two requests' writes
 * then end up in one transaction, the first to finish releases the other's savepoint, and a
 * failure in either rolls back both (a client could get 201 for a row that is gone). A reader
 * between two statements of a write would also see rows not yet committed.
 *
 * This makes the shared connection behave: transactions run one after another, each on a
 * query runner of its own (the same connection underneath), and a query through the shared
 * runner (everything outside a transaction) waits while a transaction is open. A transaction
 * begun on a transaction's own manager (`tx.transaction(…)`) nests as a savepoint, as before.
 *
 * The one rule this adds: inside a transaction, use its manager. A query or a transaction
 * started through the data source itself from inside a transaction would wait for that
 * transaction to end, forever. The code already keeps that rule for MySQL, where such a query
 * could wait forever for a free pooled connection (test/e2e/database/concurrency.e2e-spec.ts).
 *
 * (No AsyncLocalStorage to tell the transaction's own queries apart: on Node 20 it turns on
 * promise hooks for the whole process, which cost a quarter of a cached single read.)
 * MySQL/MariaDB need none of this (a pool, one connection per transaction).
 */
/** What the queue of one SQLite data source holds now (for /metrics: the "pool" of SQLite). */
export interface SqliteQueue {
  /** A transaction is open on the connection. */
  open: boolean;
  /** Transactions waiting for it to end. */
  waiting: number;
}

const queues = new WeakMap<DataSource, () => SqliteQueue>();

/** The transaction queue of a data source serializeSqliteTransactions() set up; undefined for others. */
export function sqliteQueue(ds: DataSource): SqliteQueue | undefined {
  return queues.get(ds)?.();
}

export function serializeSqliteTransactions(ds: DataSource): DataSource {
  const type = ds.options.type;
  if (type !== 'better-sqlite3' && type !== 'sqlite') return ds;
  /** Resolves when the transaction queued last has ended (the end of the queue). */
  let tail: Promise<void> = Promise.resolve();
  /** Resolves when the open transaction ends; null when none is open. */
  let open: Promise<void> | null = null;
  let waiting = 0;
  queues.set(ds, () => ({ open: open !== null, waiting }));

  // The shared runner, which every query outside a transaction goes through: it waits while a
  // transaction is open.
  const shared: QueryRunner = ds.createQueryRunner();
  const sharedQuery = shared.query.bind(shared) as (...args: unknown[]) => Promise<unknown>;
  shared.query = (async (...args: unknown[]) => {
    while (open) await open;
    return sharedQuery(...args);
  }) as QueryRunner['query'];

  // One runner for transactions (they run one at a time), so its prepared statements are kept.
  const Runner = shared.constructor as new (driver: unknown) => QueryRunner;
  const txRunner = new Runner(ds.driver);
  Object.assign(txRunner, { manager: ds.createEntityManager(txRunner) });
  const transaction = txRunner.manager.transaction.bind(txRunner.manager) as (...args: unknown[]) => Promise<unknown>;

  const queued = async (...args: unknown[]): Promise<unknown> => {
    const before = tail;
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    tail = ended;
    waiting += 1;
    try {
      await before;
    } finally {
      waiting -= 1;
    }
    open = ended;
    try {
      return await transaction(...args);
    } finally {
      open = null;
      end();
    }
  };
  (ds.manager as EntityManager).transaction = queued as EntityManager['transaction'];
  return ds;
}
