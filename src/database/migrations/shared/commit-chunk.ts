import type { QueryRunner } from 'typeorm';

/**
 * Commits what a backfill has written so far and goes on in a new transaction. One transaction
 * over a whole table is one huge write set: on a Galera cluster every node must certify and
 * apply it at once (and it may exceed wsrep_max_ws_rows); chunks keep each commit small. A
 * backfill interrupted between chunks is redone from the start by the rerun migration (on
 * MySQL its DDL has committed anyway).
 */
export async function commitChunk(queryRunner: QueryRunner): Promise<void> {
  if (!queryRunner.isTransactionActive) return;
  await queryRunner.commitTransaction();
  await queryRunner.startTransaction();
}
