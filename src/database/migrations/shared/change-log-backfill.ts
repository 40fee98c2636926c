import type { QueryRunner } from 'typeorm';
import { FROZEN_POST_TABLES, frozenBackfillChangeLog } from './frozen-change-log';

type Runner = Pick<QueryRunner, 'query'>;

/**
 * The migration's data step: the latest change of each item from the old insert-only log
 * (`changes`), then a row for every item that has none, and the counter after all of them.
 */
export async function moveToLatestChangeLog(db: Runner, changedUtc: string): Promise<void> {
  await db.query(
    `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc)
     SELECT type, item_id, MAX(seq), MIN(seq), 0, MAX(changed_utc) FROM changes GROUP BY type, item_id`,
  );
  for (const t of FROZEN_POST_TABLES) {
    await db.query(`UPDATE change_log SET was_public = 1 WHERE type = '${t.type}' AND item_id IN (SELECT id FROM ${t.table} WHERE status = 'publish')`);
  }
  await db.query("UPDATE change_log SET was_public = 1 WHERE type IN ('category', 'tag')");
  const [{ highest }] = (await db.query('SELECT MAX(seq) AS highest FROM change_log')) as { highest: number | string | null }[];
  await db.query("INSERT INTO change_counter (name, seq, purged_seq) VALUES ('log', ?, 0)", [Number(highest ?? 0)]);
  await frozenBackfillChangeLog(db, changedUtc);
}
