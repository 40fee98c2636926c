// The slug reads of the item tables (events, venues, organizers): which live slugs a new or
// renamed item would collide with. Functions over the caller's transaction, called by the
// repositories of those tables, which pass their own table name.
import type { Dialect } from '../database/dialect';
import type { Tx } from '../database/tx';
import { slugCandidate, suffixRange, writeUnderFreeSlug } from '../common/text/slugify';

/**
 * Runs `write` (which stores `item` in `table`: events, venues, organizers) under the first free
 * slug for `base` (§4.6: unique among the kind's items not in the trash), setting `item.slug`;
 * the unique index on live slugs settles races between writers (writeUnderFreeSlug).
 */
export async function storeUnderFreeSlug(
  tx: Tx,
  dialect: Dialect,
  table: string,
  item: { id: number; slug: string },
  base: string,
  write: () => Promise<void>,
): Promise<void> {
  const taken = await liveSlugsLike(tx, table, base, item.id);
  const isSlugConflict = (err: unknown) => dialect.violatesUnique(err, table, `uq_${table}_live_slug`, ['live_slug']);
  await writeUnderFreeSlug(
    base,
    taken,
    async (slug) => {
      item.slug = slug;
      await write();
    },
    isSlugConflict,
  );
}

/**
 * Sets the slug of each new item of `table` (not stored yet) in one read: the first candidate
 * for its base that no live item takes, nor an earlier item of the list that will be live
 * (`live`), as as many storeUnderFreeSlug calls in a row would choose. The unique index still
 * judges when the rows are written: a caller whose write breaks it stores them one by one.
 */
export async function chooseFreeSlugs(tx: Tx, table: string, items: { item: { slug: string }; base: string; live: boolean }[]): Promise<void> {
  const bases = [...new Set(items.map((i) => i.base))];
  const taken = new Set<string>();
  for (let at = 0; at < bases.length; at += SLUG_BASES_PER_READ) {
    const chunk = bases.slice(at, at + SLUG_BASES_PER_READ);
    const ranges = chunk.map(suffixRange);
    const rows: { slug: string }[] = await tx.query(
      `SELECT live_slug AS slug FROM ${table} WHERE live_slug IN (${chunk.map(() => '?').join(', ')})` +
        ranges.map(() => ' OR (live_slug >= ? AND live_slug < ?)').join(''),
      [...chunk, ...ranges.flatMap((r) => [r.lo, r.hi])],
    );
    for (const row of rows) taken.add(row.slug);
  }
  for (const { item, base, live } of items) {
    let n = 1;
    while (taken.has(slugCandidate(base, n))) n++;
    item.slug = slugCandidate(base, n);
    if (live) taken.add(item.slug);
  }
}

/** Bases per read of chooseFreeSlugs: three bound values each, well within SQLite's limit. */
const SLUG_BASES_PER_READ = 500;

/**
 * Live slugs of `table` (events, venues, organizers) among `base` and `base-…`, the item
 * `exceptId` aside, read through the unique `live_slug` index (NULL for trashed items).
 */
async function liveSlugsLike(tx: Tx, table: string, base: string, exceptId: number): Promise<Set<string>> {
  const { lo, hi } = suffixRange(base);
  const rows: { slug: string }[] = await tx.query(
    `SELECT live_slug AS slug FROM ${table} WHERE (live_slug = ? OR (live_slug >= ? AND live_slug < ?)) AND id <> ?`,
    [base, lo, hi, exceptId],
  );
  return new Set(rows.map((r) => r.slug));
}
