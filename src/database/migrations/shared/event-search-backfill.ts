import { QueryRunner } from 'typeorm';
import { commitChunk } from './commit-chunk';
import { searchDocument } from '../../../events/search-grams';
import { Dialect, DialectKind } from '../../dialect';

/**
 * Fills `event_search` from the events already stored (migration EventSearch): in id order,
 * a thousand events a statement and a commit, so a large table never sits in memory, or in
 * one transaction, at once.
 */
export async function backfillEventSearch(queryRunner: QueryRunner, kind: DialectKind): Promise<void> {
  const dialect = new Dialect(kind);
  let after = 0;
  for (;;) {
    const rows: { id: number | string; title: string; description: string; excerpt: string }[] = await queryRunner.query(
      'SELECT id, title, description, excerpt FROM events WHERE id > ? ORDER BY id LIMIT 1000',
      [after],
    );
    if (rows.length === 0) return;
    const [sql, params] = dialect.searchWrite(rows.map((r) => ({ id: Number(r.id), document: searchDocument([r.title, r.description, r.excerpt]) })));
    await queryRunner.query(sql, params);
    await commitChunk(queryRunner);
    after = Number(rows[rows.length - 1].id);
  }
}
