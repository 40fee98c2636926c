/**
 * FROZEN HISTORY. The change-log steps of the migrations ChangeLogLatest and ChangeLogState, as
 * database/change-log.ts did them when those migrations were written. They
 * must never change with the live code: a database migrated today must end as one migrated
 * then. The live change log may grow kinds, columns and tables; these steps know only the
 * tables of their time. frozen-helpers.spec.ts pins the statements they run.
 */

type Runner = { query(sql: string, params?: unknown[]): Promise<unknown> };

/** The item tables the change log named then, each with its `type`. */
const POST_TABLES = [
  { type: 'event', table: 'events' },
  { type: 'venue', table: 'venues' },
  { type: 'organizer', table: 'organizers' },
] as const;

/** The term kinds, stored in `terms` by `taxonomy`. */
const TERM_KINDS = ['category', 'tag'] as const;

/**
 * ChangeLogState's data step: each row gets its item's state now (author, status, dates), which
 * is its state at its latest change; terms have only their status, `publish`. Rows of items
 * gone keep nulls.
 */
export async function frozenFillChangeLogStates(db: Runner): Promise<void> {
  for (const { type, table } of POST_TABLES) {
    const sets = ['author_id', 'status', 'date_utc', 'modified_utc'].map(
      (column) => `${column} = (SELECT t.${column} FROM ${table} t WHERE t.id = change_log.item_id)`,
    );
    await db.query(`UPDATE change_log SET ${sets.join(', ')} WHERE type = '${type}'`);
  }
  for (const taxonomy of TERM_KINDS) {
    await db.query(
      `UPDATE change_log SET status = (SELECT 'publish' FROM terms t WHERE t.taxonomy = '${taxonomy}' AND t.id = change_log.item_id) WHERE type = '${taxonomy}'`,
    );
  }
}

/**
 * The end of ChangeLogLatest's data step: every item without a change row gets one (without
 * the state columns, which came later), numbered after the counter in a block per kind (posts
 * share one id space; terms come after the highest post id); the counter is moved past them.
 * Returns the counter's new value.
 */
export async function frozenBackfillChangeLog(db: Runner, changedUtc: string): Promise<number> {
  await db.query("UPDATE change_counter SET seq = seq + 0 WHERE name = 'log'");
  const [{ top }] = (await db.query("SELECT seq AS top FROM change_counter WHERE name = 'log'")) as { top: number | string }[];
  const base = Number(top);
  const [{ posts }] = (await db.query('SELECT MAX(id) AS posts FROM posts')) as { posts: number | string | null }[];
  const postSpan = Number(posts ?? 0);
  for (const { type, table } of POST_TABLES) {
    await db.query(
      `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc)
       SELECT '${type}', t.id, ${base} + t.id, ${base} + t.id, CASE WHEN t.status = 'publish' THEN 1 ELSE 0 END, ? FROM ${table} t
       WHERE NOT EXISTS (SELECT 1 FROM change_log c WHERE c.type = '${type}' AND c.item_id = t.id)`,
      [changedUtc],
    );
  }
  const termType = "CASE WHEN t.taxonomy = 'category' THEN 'category' ELSE 'tag' END";
  await db.query(
    `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc)
     SELECT ${termType}, t.id, ${base + postSpan} + t.id, ${base + postSpan} + t.id, 1, ? FROM terms t
     WHERE NOT EXISTS (SELECT 1 FROM change_log c WHERE c.type = ${termType} AND c.item_id = t.id)`,
    [changedUtc],
  );
  const [{ highest }] = (await db.query('SELECT MAX(seq) AS highest FROM change_log')) as { highest: number | string | null }[];
  const next = Math.max(base, Number(highest ?? 0));
  await db.query("UPDATE change_counter SET seq = ? WHERE name = 'log'", [next]);
  return next;
}

/** The post tables of ChangeLogLatest's step, for the `was_public` of the rows it moved. */
export const FROZEN_POST_TABLES: readonly { type: string; table: string }[] = POST_TABLES;
