import { slugify, uniqueSlug } from '../text/slugify';

export const TRASHED_SUFFIX = '__trashed';

/**
 * Slug of an event, venue or organizer (spec endpoints.md §4.6): the given slug normalised, or
 * one generated from the title/name; `fallback` (the item id) when nothing is left; `-2`, `-3`…
 * when taken by another non-trashed item of the same kind.
 */
export function itemSlug(
  given: string | undefined,
  title: string,
  fallback: string,
  isTaken: (candidate: string) => Promise<boolean>,
): Promise<string> {
  const base = (given !== undefined ? slugify(given) : '') || slugify(title) || fallback;
  return uniqueSlug(base, isTaken);
}

export const trashedSlug = (slug: string): string => (slug.endsWith(TRASHED_SUFFIX) ? slug : `${slug}${TRASHED_SUFFIX}`);
