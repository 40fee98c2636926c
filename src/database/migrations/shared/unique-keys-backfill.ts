import { QueryRunner } from 'typeorm';
import { commitChunk } from './commit-chunk';
import { frozenShadowNameKey, frozenTermNameKey } from './frozen-term-name-key';

/** The longest slug a column holds (varchar(200) on events, venues, organizers). */
const SLUG_LENGTH = 200;

/**
 * Before the unique index on live slugs (migration UniqueSlugsTermNames): live items that share
 * a slug (left by concurrent writers before the index existed) keep it on the oldest item; each
 * later one gets `-{id}` appended, which no other item can hold.
 */
export async function separateLiveSlugs(queryRunner: QueryRunner, table: 'events' | 'venues' | 'organizers'): Promise<void> {
  const shared: { slug: string }[] = await queryRunner.query(`SELECT slug FROM ${table} WHERE status <> 'trash' GROUP BY slug HAVING COUNT(*) > 1`);
  for (const { slug } of shared) {
    const rows: { id: number | string }[] = await queryRunner.query(`SELECT id FROM ${table} WHERE slug = ? AND status <> 'trash' ORDER BY id`, [slug]);
    for (const { id } of rows.slice(1)) {
      const suffix = `-${id}`;
      await queryRunner.query(`UPDATE ${table} SET slug = ? WHERE id = ?`, [`${slug.slice(0, SLUG_LENGTH - suffix.length)}${suffix}`, id]);
    }
  }
}

/**
 * Fills `terms.name_key` (see TermEntity.nameKey) in id order: the oldest term of a name at a
 * level keeps the key lookups find; a later namesake (possible before the index) gets a shadow key.
 */
export async function backfillTermNameKeys(queryRunner: QueryRunner): Promise<void> {
  const seen = new Set<string>();
  let after = 0;
  for (;;) {
    const rows: { id: number | string; taxonomy: string; parent_id: number | string; name: string }[] = await queryRunner.query(
      'SELECT id, taxonomy, parent_id, name FROM terms WHERE id > ? ORDER BY id LIMIT 1000',
      [after],
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      const id = Number(row.id);
      const key = frozenTermNameKey(row.name);
      const level = `${row.taxonomy}/${Number(row.parent_id)}/${key}`;
      const unique = !seen.has(level);
      seen.add(level);
      await queryRunner.query('UPDATE terms SET name_key = ? WHERE id = ?', [unique ? key : frozenShadowNameKey(row.name, id), id]);
    }
    await commitChunk(queryRunner);
    after = Number(rows[rows.length - 1].id);
  }
}
