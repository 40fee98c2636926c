import { slugify, SLUG_MAX_LENGTH } from '../common/text/slugify';

export const TRASHED_SUFFIX = '__trashed';

/**
 * The slug an event, venue or organizer asks for (spec endpoints.md §4.6): the given slug
 * normalised, or one generated from the title/name; `fallback` (the item id) when nothing is
 * left. Whether it is free, and the `-2`, `-3`… when it is not, is settled by the write
 * (storeUnderFreeSlug, item-slugs.repository.ts).
 */
export function baseSlug(given: string | undefined, title: string, fallback: string): string {
  return ((given !== undefined ? slugify(given) : '') || slugify(title) || fallback).slice(0, SLUG_MAX_LENGTH);
}

/** The slug of a trashed item: the live slug freed by a suffix, cut so that it still fits the column. */
export const trashedSlug = (slug: string): string =>
  slug.endsWith(TRASHED_SUFFIX) ? slug : `${slug.slice(0, SLUG_MAX_LENGTH - TRASHED_SUFFIX.length)}${TRASHED_SUFFIX}`;
