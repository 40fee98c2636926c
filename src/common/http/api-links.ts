import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { API_NAMESPACE as CALENDAR_NAMESPACE } from '../../config/app-config';

/** The namespace The Events Calendar's clients know (compat.md); ours is API_NAMESPACE. */
export const TEC_NAMESPACE = 'tribe/events/v1';

/**
 * How a request named the API, and so how every link in its answer is written (compat.md: "a
 * client that came through the alias never leaves it"):
 * - `canonical`: `{base_url}/calendar/events/v1/…`
 * - `wp-json`: `{base_url}/wp-json/tribe/events/v1/…`
 * - `rest-route`: `{base_url}/?rest_route=/tribe/events/v1/…` (or `/calendar/events/v1/…`), WordPress's plain-permalink form.
 */
export class ApiLinks {
  private constructor(
    private readonly baseUrl: string,
    /** The namespace the client named: `calendar/events/v1` or `tribe/events/v1`. */
    readonly namespace: string,
    /** `/wp-json` for the WordPress path, empty for ours; null for the `?rest_route=` form. */
    private readonly mount: string | null,
    /** Distinguishes cached presentations that hold links: empty for the canonical form. */
    readonly key: string,
  ) {}

  static canonical(baseUrl: string): ApiLinks {
    return new ApiLinks(baseUrl, CALENDAR_NAMESPACE, '', '');
  }

  static wpJson(baseUrl: string): ApiLinks {
    return new ApiLinks(baseUrl, TEC_NAMESPACE, '/wp-json', 'wp:');
  }

  static restRoute(baseUrl: string, namespace: string): ApiLinks {
    return new ApiLinks(baseUrl, namespace, null, namespace === TEC_NAMESPACE ? 'rr:' : 'rc:');
  }

  /**
   * The absolute URL of `path` under the namespace (`''` is the namespace root, `/events/5` an
   * item), with `query` (already encoded, without `?`) when given. The one place links are written.
   */
  href(path = '', query = ''): string {
    const url = this.mount === null ? `${this.baseUrl}/?rest_route=/${this.namespace}${path}` : `${this.baseUrl}${this.mount}/${this.namespace}${path}`;
    if (query === '') return url;
    return `${url}${this.mount === null ? '&' : '?'}${query}`;
  }

  /** The WordPress-style REST index these links belong to: `{base_url}/`, `{base_url}/wp-json/` or `{base_url}/?rest_route=/`. */
  indexHref(): string {
    if (this.mount === null) return `${this.baseUrl}/?rest_route=/`;
    return `${this.baseUrl}${this.mount}/`;
  }

  /**
   * The OpenAPI document's `servers[0].url`: a path every operation's path is appended to. The
   * `?rest_route=` form has none, so its document names the path form of the same namespace.
   */
  serverUrl(): string {
    const mount = this.mount ?? (this.namespace === TEC_NAMESPACE ? '/wp-json' : '');
    return `${this.baseUrl}${mount}/${this.namespace}/`;
  }
}

/** How a request named the API, as the URL rewrite found it (see `rewriteApiUrl`). */
export type ApiForm = { kind: 'canonical' } | { kind: 'wp-json' } | { kind: 'rest-route'; namespace: string };

declare module 'node:http' {
  interface IncomingMessage {
    /** Set by rewriteApiUrl when the request came through a WordPress path. */
    apiForm?: ApiForm;
  }
}

const WP_PREFIX = `/wp-json/${TEC_NAMESPACE}`;
const REST_ROUTE_NAMESPACES = [TEC_NAMESPACE, CALENDAR_NAMESPACE];
/** Where a `rest_route` that names no route of ours goes: a path no route has. */
const NO_ROUTE = '/wp-json/rest_route';

/**
 * The routing path of a request that came by a WordPress path (compat.md), or the URL as it is.
 * `/wp-json/tribe/events/v1/…` routes as `/calendar/events/v1/…`; `/wp-json/` as the REST index
 * `/wp-json`; `/?rest_route=/ns/…` (also `/index.php?rest_route=`) as the path it names, with the
 * other query parameters kept as they were written. The form found is left on the request for
 * the links of its answer.
 */
export function rewriteApiUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const cut = url.indexOf('?');
  const path = cut === -1 ? url : url.slice(0, cut);
  const query = cut === -1 ? '' : url.slice(cut + 1);

  if (path === '/wp-json' || path === '/wp-json/') {
    req.apiForm = { kind: 'wp-json' };
    return url;
  }
  if (path === WP_PREFIX || path.startsWith(`${WP_PREFIX}/`)) {
    req.apiForm = { kind: 'wp-json' };
    return `/${CALENDAR_NAMESPACE}${path.slice(WP_PREFIX.length)}${cut === -1 ? '' : url.slice(cut)}`;
  }
  if ((path === '/' || path === '/index.php') && query !== '') {
    const pairs = query.split('&');
    const at = pairs.findIndex((p) => p === 'rest_route' || p.startsWith('rest_route='));
    if (at === -1) return url;
    const route = decodeRoute(pairs[at].slice('rest_route='.length));
    const rest = pairs.filter((_, i) => i !== at).join('&');
    const tail = rest === '' ? '' : `?${rest}`;
    if (route === '' || route === '/') {
      req.apiForm = { kind: 'rest-route', namespace: TEC_NAMESPACE };
      return `/wp-json${tail}`;
    }
    const namespace = route === null ? undefined : REST_ROUTE_NAMESPACES.find((ns) => route === `/${ns}` || route.startsWith(`/${ns}/`));
    // Another namespace (or no route at all), as WordPress: 404 rest_no_route.
    if (route === null || namespace === undefined) return NO_ROUTE;
    req.apiForm = { kind: 'rest-route', namespace };
    return `/${CALENDAR_NAMESPACE}${route.slice(namespace.length + 1)}${tail}`;
  }
  return url;
}

/** A `rest_route` value as a path, or null when it is not one (bad escapes, no leading slash). */
function decodeRoute(raw: string): string | null {
  let route: string;
  try {
    route = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
  if (route === '') return '';
  if (!route.startsWith('/') || /[?#\s]/.test(route)) return null;
  return route;
}

/** The links of a request's answer, from its form. */
export function linksOfForm(baseUrl: string, form: ApiForm | undefined): ApiLinks {
  if (form === undefined || form.kind === 'canonical') return ApiLinks.canonical(baseUrl);
  if (form.kind === 'wp-json') return ApiLinks.wpJson(baseUrl);
  return ApiLinks.restRoute(baseUrl, form.namespace);
}

const current = new AsyncLocalStorage<ApiLinks>();

const canonical = new Map<string, ApiLinks>();

/**
 * The links of the request being answered: the services that present records read them here,
 * since a request's handler runs inside `withLinks` (app.setup.ts, a preHandler hook) when it
 * came by a WordPress path. Otherwise (our path, the CLI, start-up) the canonical form.
 */
export function currentLinks(baseUrl: string): ApiLinks {
  const links = current.getStore();
  if (links !== undefined) return links;
  let ours = canonical.get(baseUrl);
  if (ours === undefined) canonical.set(baseUrl, (ours = ApiLinks.canonical(baseUrl)));
  return ours;
}

/**
 * Runs `fn` (and everything it starts) outside any request, with the canonical links: work a
 * request only set off (the webhook worker's round). Unlike withLinks it turns nothing on: while
 * no request came by a WordPress path, Node tracks no promises for the links at all.
 */
export function outsideRequestLinks<T>(fn: () => T): T {
  return current.exit(fn);
}

/** Runs `fn` (and everything it starts) with `links` as the request's links. */
export function withLinks<T>(links: ApiLinks, fn: () => T): T {
  return current.run(links, fn);
}
