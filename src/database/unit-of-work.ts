import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ReadModel } from '../common/cache/read-model';
import { nowUtcSql } from '../common/datetime/clock';
import { REST_WRITE_CONFLICT, WpError } from '../common/errors';
import { ChangeKinds } from './change-kinds';
import { appendChanges, attachChanges, ChangeSet } from './change-log';
import { Dialect } from './dialect';
import type { Tx } from './tx';
import { type WriteParticipant, WriteParticipants } from './write-participants';

/**
 * How often a write is tried in all when it collides with concurrent writers. On one server a
 * collision is rare (locks make writers wait instead); on a Galera cluster writers through
 * different nodes of one hot row (a slug chain, a category's count) only learn of each other at
 * COMMIT, and one of them must start over. In CI, 32 writers of one row through two nodes with
 * other tests loading the cluster once needed more than twenty attempts (test/e2e/database/cluster-race,
 * before reusing a venue stopped writing it and its name lock); thirty leave a margin. With the
 * backoff below that is about fourteen seconds at the very most.
 */
export const WRITE_ATTEMPTS = 30;

/** Pauses before attempts 2, 3, …: up to 5 ms, 10, 20, … (full jitter), never above BACKOFF_CAP_MS. */
const BACKOFF_BASE_MS = 5;
const BACKOFF_CAP_MS = 500;

export const writeConflict = (): WpError => {
  const err = new WpError(REST_WRITE_CONFLICT, 'The write collided with concurrent writes; try again.', 503);
  err.headers = { 'retry-after': '1' };
  return err;
};

/**
 * Every write runs here: one transaction (READ COMMITTED on MySQL, see Dialect.writeIsolation),
 * the change rows of what it did (`changes.record(type, id)`; they move every instance's
 * caches and feed the change feed) written inside it, the write participants (those the caller
 * declared for this write, then those of every write, WriteParticipants, in the hooks' order:
 * before the change rows; with the change rows, such as the webhook outbox; after
 * the commit), and the bounded retry
 * when the database refuses the transaction for a concurrency reason (deadlock, lock wait, a
 * lost unique race the work did not resolve itself, a busy SQLite file). `work` is called again
 * from scratch on each attempt: it must rebuild what it writes from its input, never carry
 * state over from a failed attempt. After the last attempt the caller gets a clean 503.
 *
 * The work gets the transaction as a `Tx` (./tx.ts): what it writes and reads goes through
 * methods that require one, and a query on the outer connection inside it is flagged by
 * tx/no-outer-connection-in-write (on SQLite such a query would wait for this transaction).
 */
@Injectable()
export class UnitOfWork {
  private cluster: Promise<boolean> | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dialect: Dialect,
    private readonly readModel: ReadModel,
    private readonly kinds: ChangeKinds,
    private readonly participants: WriteParticipants,
  ) {}

  /** `declared`: participants of this write alone (WriteParticipant), before those of every write. */
  async run<T>(work: (tx: Tx, changes: ChangeSet) => Promise<T>, declared: readonly WriteParticipant[] = []): Promise<T> {
    let committed: ChangeSet | undefined;
    const participants = declared.length === 0 ? this.participants.all() : [...declared, ...this.participants.all()];
    const result = await this.retrying(async (manager) => {
      const tx = manager as Tx; // the one place, with runUnlogged and bulkTransaction, where a Tx is made
      const changes = new ChangeSet(this.kinds); // anew on every attempt, like everything the work builds
      attachChanges(manager, changes);
      const out = await work(tx, changes);
      for (const p of participants) await p.written?.(tx, out, changes);
      for (const p of participants) await p.beforeCommit?.(tx, changes);
      const outboxes = participants.flatMap((p) => (p.changeLog ? [p.changeLog(tx, changes)] : []));
      await appendChanges(tx, this.dialect.kind, changes, nowUtcSql(), outboxes);
      committed = changes;
      return out;
    });
    this.readModel.committed();
    for (const p of participants) p.afterCommit?.(committed!);
    return result;
  }

  /**
   * A write of rows that are no item of the change log and that no cache holds (the webhook
   * subscriptions, sync.md): the same transaction, isolation, cluster read wait and bounded retry
   * as run(), but no change rows, no delivery rows and no cache flush. `work` is called again
   * from scratch on each attempt, so it must do nothing outside the database.
   */
  async runUnlogged<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.retrying((manager) => work(manager as Tx));
  }

  /** One transaction, tried again from scratch when the database refuses it for a concurrency reason. */
  private async retrying<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transaction(work);
      } catch (err) {
        if (!this.dialect.isRetryable(err)) throw err;
        if (attempt >= WRITE_ATTEMPTS) throw Object.assign(writeConflict(), { cause: err });
        await pause(attempt);
      }
    }
  }

  private async transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    const isolation = this.dialect.writeIsolation;
    const cluster = await this.onCluster();
    const body = cluster
      ? async (tx: EntityManager) => {
          // Reads wait until this node has applied what the cluster committed before them, so
          // that an attempt retried after a conflict sees the winner's rows.
          await tx.query('SET SESSION wsrep_sync_wait = 1');
          return work(tx);
        }
      : work;
    return isolation ? this.db.transaction(isolation, body) : this.db.transaction(body);
  }

  /** Is the database a node of a Galera cluster (MariaDB with wsrep on)? Asked once. */
  private onCluster(): Promise<boolean> {
    this.cluster ??= this.dialect.isGaleraNode(this.db);
    return this.cluster;
  }
}

/**
 * A transaction for bulk loads (`seed`) that write through the repositories' bulk paths: no
 * retry (a batch fails as a whole, and the loader stops) and no change rows (the loader
 * appends one when it is done). Not for the writes of requests: those run in UnitOfWork.run.
 */
export function bulkTransaction<T>(db: DataSource, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction((manager) => work(manager as Tx));
}

/** Exponential backoff with full jitter, so colliding writers spread out instead of colliding again. */
function pause(attempt: number): Promise<void> {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}
