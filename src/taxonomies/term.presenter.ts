import type { ApiLinks } from '../common/http/api-links';
import type { AppConfig } from '../config/app-config';
import type { TermEntity } from './entities/term.entity';

export interface TermJson {
  id: number;
  count: number;
  description: string;
  name: string;
  slug: string;
  taxonomy: string;
  parent?: number;
  meta: [];
  url: string;
  urls: { self: string; collection: string; up?: string };
}

/** Each taxonomy's collection: its list's key and its URL segment. */
export const TERM_COLLECTION = { category: 'categories', tag: 'tags' } as const;

/** A term as spec resources.md §4 gives it, keys in order. `known` must hold its ancestors. */
export function presentTerm(term: TermEntity, known: Map<number, TermEntity>, config: Pick<AppConfig, 'publicUrl'>, links: ApiLinks): TermJson {
  const collection = links.href(`/${TERM_COLLECTION[term.taxonomy]}`);
  const json: TermJson = {
    id: term.id,
    count: term.count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
  } as TermJson;
  if (term.taxonomy === 'category') json.parent = term.parentId;
  json.meta = [];
  json.url = term.taxonomy === 'category' ? `${config.publicUrl}/events/category/${slugPath(term, known).join('/')}/` : `${config.publicUrl}/tag/${term.slug}/`;
  json.urls = { self: links.href(`/${TERM_COLLECTION[term.taxonomy]}/${term.id}`), collection };
  if (term.parentId > 0) json.urls.up = links.href(`/${TERM_COLLECTION[term.taxonomy]}/${term.parentId}`);
  return json;
}

/** Slugs from the root category down to this one (a broken chain stops where it breaks). */
function slugPath(term: TermEntity, known: Map<number, TermEntity>): string[] {
  const path = [term.slug];
  const seen = new Set([term.id]);
  let parent = known.get(term.parentId);
  while (parent && !seen.has(parent.id)) {
    path.unshift(parent.slug);
    seen.add(parent.id);
    parent = known.get(parent.parentId);
  }
  return path;
}
