import { QueryRunner } from 'typeorm';
import { commitChunk } from './commit-chunk';
import { frozenSearchDocument } from './frozen-search-document';

/**
 * FROZEN HISTORY: the statement that stored a thousand documents when the migration was written
 * (searchWrite of database/dialect.ts then), kept here so that a change of the live one does
 * not change what this migration does.
 */
function frozenSearchWrite(kind: 'sqlite' | 'mysql', rows: { id: number; document: string }[]): [string, unknown[]] {
  const values = rows.map(() => '(?, ?)').join(', ');
  const params = rows.flatMap((r) => [r.id, r.document]);
  return kind === 'mysql'
    ? [`INSERT INTO event_search (event_id, grams) VALUES ${values} ON DUPLICATE KEY UPDATE grams = VALUES(grams)`, params]
    : [`INSERT OR REPLACE INTO event_search (rowid, grams) VALUES ${values}`, params];
}

/**
 * Fills `event_search` from the events already stored (migration EventSearch): in id order,
 * a thousand events a statement and a commit, so a large table never sits in memory, or in
 * one transaction, at once.
 */
export async function backfillEventSearch(queryRunner: QueryRunner, kind: 'sqlite' | 'mysql'): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: { id: number | string; title: string; description: string; excerpt: string }[] = await queryRunner.query(
      'SELECT id, title, description, excerpt FROM events WHERE id > ? ORDER BY id LIMIT 1000',
      [after],
    );
    if (rows.length === 0) return;
    const [sql, params] = frozenSearchWrite(
      kind,
      rows.map((r) => ({ id: Number(r.id), document: frozenSearchDocument([r.title, r.description, r.excerpt]) })),
    );
    await queryRunner.query(sql, params);
    await commitChunk(queryRunner);
    after = Number(rows[rows.length - 1].id);
  }
}
