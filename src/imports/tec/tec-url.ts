import { createHash } from 'node:crypto';

// Where a TEC site's API is, and how its URLs are made (pure).

export const TEC_NAMESPACE = 'tribe/events/v1';

/**
 * The API roots to try for what the operator typed, in order: the URL itself when it already
 * names the namespace (or is `?rest_route=` form), the namespace under a WordPress REST root
 * (`…/wp-json/`); else the WordPress path under it (what a site's address usually leads to),
 * the URL as a namespace root, and the `?rest_route=` form of sites without pretty permalinks.
 */
export function candidateRoots(siteUrl: string): string[] {
  const url = new URL(siteUrl);
  if (url.searchParams.has('rest_route')) return [url.toString()];
  const base = url.toString().replace(/\/+$/, '');
  if (url.pathname.replace(/\/+$/, '').endsWith(`/${TEC_NAMESPACE}`)) return [base];
  // WordPress's REST root (`…/wp-json/`), as a site's API index links it: the namespace under it.
  if (url.pathname.replace(/\/+$/, '').endsWith('/wp-json')) return [`${base}/${TEC_NAMESPACE}`];
  const rest = new URL(base);
  rest.pathname = `${rest.pathname.replace(/\/+$/, '')}/`;
  rest.search = '';
  rest.searchParams.set('rest_route', `/${TEC_NAMESPACE}`);
  return [`${base}/wp-json/${TEC_NAMESPACE}`, base, rest.toString()];
}

/** `root` + `/path` with query parameters; a `?rest_route=` root gets the path inside that parameter. */
export function endpoint(root: string, path: string, params: Record<string, string | number> = {}): string {
  const url = new URL(root);
  const route = url.searchParams.get('rest_route');
  if (route !== null) url.searchParams.set('rest_route', `${route.replace(/\/+$/, '')}/${path}`);
  else url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  return url.toString();
}

/**
 * The WordPress core root next to a TEC root (`…/wp-json/tribe/events/v1` → `…/wp-json/wp/v2`),
 * where `users/{id}` tells an author's login; null for a root that is not under /wp-json.
 */
export function wpCoreRoot(root: string): string | null {
  const url = new URL(root);
  const route = url.searchParams.get('rest_route');
  if (route !== null) {
    url.searchParams.set('rest_route', '/wp/v2');
    return url.toString();
  }
  const at = url.pathname.indexOf(`/wp-json/${TEC_NAMESPACE}`);
  if (at < 0) return null;
  url.pathname = `${url.pathname.slice(0, at)}/wp-json/wp/v2`;
  return url.toString();
}

/**
 * The mapping table's `source` of every TEC record (sources.md §4): a record is known by its
 * origin's own `global_id` (`{site host}?id={id}`), whatever URL reached the site, so the same
 * site through a proxy, with or without a slash or over http is one origin.
 */
export const TEC_SOURCE = 'tec';

/** The origin's host as its `global_id`s name it (`site.example?id=12` → `site.example`), or null. */
export function originOfGlobalId(globalId: unknown): string | null {
  if (typeof globalId !== 'string') return null;
  const at = globalId.lastIndexOf('?id=');
  return at > 0 ? globalId.slice(0, at).toLowerCase() : null;
}

/** A source key that fits the mapping column (191 characters): long ones by digest. */
export function fittingKey(key: string): string {
  return key.length <= 191 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}
