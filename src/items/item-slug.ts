import type { Dialect } from '../database/dialect';
import type { Tx } from '../database/tx';
import { slugify, SLUG_MAX_LENGTH, suffixRange, writeUnderFreeSlug } from '../common/text/slugify';

export const TRASHED_SUFFIX = '__trashed';

/**
 * The slug an event, venue or organizer asks for (spec endpoints.md §4.6): the given slug
 * normalised, or one generated from the title/name; `fallback` (the item id) when nothing is
 * left. Whether it is free, and the `-2`, `-3`… when it is not, is settled by the write
 * (writeUnderFreeSlug).
 */
export function baseSlug(given: string | undefined, title: string, fallback: string): string {
  return ((given !== undefined ? slugify(given) : '') || slugify(title) || fallback).slice(0, SLUG_MAX_LENGTH);
}

/**
 * Runs `write` (which stores `item` in `table`: events, venues, organizers) under the first free
 * slug for `base` (§4.6: unique among the kind's items not in the trash), setting `item.slug`;
 * the unique index on live slugs settles races between writers (writeUnderFreeSlug).
 */
export async function storeUnderFreeSlug(
  manager: Tx,
  dialect: Dialect,
  table: string,
  item: { id: number; slug: string },
  base: string,
  write: () => Promise<void>,
): Promise<void> {
  const taken = await liveSlugsLike(manager, table, base, item.id);
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
 * Live slugs of `table` (events, venues, organizers) among `base` and `base-…`, the item
 * `exceptId` aside, read through the unique `live_slug` index (NULL for trashed items).
 */
async function liveSlugsLike(manager: Tx, table: string, base: string, exceptId: number): Promise<Set<string>> {
  const { lo, hi } = suffixRange(base);
  const rows: { slug: string }[] = await manager.query(
    `SELECT live_slug AS slug FROM ${table} WHERE (live_slug = ? OR (live_slug >= ? AND live_slug < ?)) AND id <> ?`,
    [base, lo, hi, exceptId],
  );
  return new Set(rows.map((r) => r.slug));
}

/** The slug of a trashed item: the live slug freed by a suffix, cut so that it still fits the column. */
export const trashedSlug = (slug: string): string =>
  slug.endsWith(TRASHED_SUFFIX) ? slug : `${slug.slice(0, SLUG_MAX_LENGTH - TRASHED_SUFFIX.length)}${TRASHED_SUFFIX}`;
