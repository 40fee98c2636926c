import type { Setting } from '../config/settings';
import { PageError, Query } from './page-parts';

// The embeds' pure parts (pages.md, "On other sites"): which sites may frame them, the reader's
// options (`limit`, `theme`) and the `<iframe>` snippet the list page offers.

/** A host as CSP's host-source writes it: a name (IDN already in punycode), an IPv4 address or a bracketed IPv6 one, and an optional port. */
const HOST = /^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

/**
 * One origin of CALENDAR_EMBED_ORIGINS, as the browser compares it (`https://www.example.org`,
 * scheme and host lower-cased, default port dropped), or undefined when the text is not an
 * http(s) origin. A trailing `/` is allowed (a copied address often has it); a path, a query,
 * credentials or a wildcard are not: the text goes into a header, where only an origin is safe.
 */
export function readOrigin(text: string): string | undefined {
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || !HOST.test(url.host)) return undefined;
  return url.origin;
}

/** CALENDAR_EMBED_ORIGINS' value: the sources of the embeds' `frame-ancestors`, `*` or origins. */
export type EmbedOrigins = readonly string[];

/**
 * CALENDAR_EMBED_ORIGINS: the sites whose pages may frame the embeds, space-separated origins,
 * or `*` (the default) for any site. Every other page keeps `frame-ancestors 'self'`.
 */
export const EMBED_ORIGINS: Setting<EmbedOrigins> = {
  name: 'CALENDAR_EMBED_ORIGINS',
  default: '*',
  description: 'the sites whose pages may frame the embeds (/events/embed/): * for any, or space-separated origins (https://www.example.org)',
  read: (text) => {
    const words = text.split(/\s+/).filter((w) => w !== '');
    if (words.length === 1 && words[0] === '*') return { value: ['*'] };
    if (words.includes('*')) return { problem: 'CALENDAR_EMBED_ORIGINS must be * alone (any site) or a list of origins, not both' };
    const origins = words.map((w) => ({ w, origin: readOrigin(w) }));
    const bad = origins.find((o) => o.origin === undefined);
    if (bad !== undefined || words.length === 0) {
      return { problem: `CALENDAR_EMBED_ORIGINS must be * or space-separated origins such as https://www.example.org (not "${bad?.w ?? ''}")` };
    }
    return { value: [...new Set(origins.map((o) => o.origin!))] };
  },
};

export type EmbedTheme = 'light' | 'dark';

export const EMBED_LIMIT = { default: 10, min: 1, max: 50 } as const;
const THEMES: readonly EmbedTheme[] = ['light', 'dark'];
const DEFAULT_THEME: EmbedTheme = 'light';

// A bad `limit` or `theme` is a 400 page that names the parameter, as the API refuses a bad
// `per_page`: a partner's mistake shows at once rather than as a quietly different calendar.
// Absent or empty means the default.

/** `?limit=`: events a page of the embedded list shows, 1 to 50 (default 10). */
export function readEmbedLimit(query: Query): number {
  const limit = given(query.limit);
  if (limit === undefined) return EMBED_LIMIT.default;
  if (typeof limit === 'string' && /^\d{1,2}$/.test(limit) && Number(limit) >= EMBED_LIMIT.min && Number(limit) <= EMBED_LIMIT.max) return Number(limit);
  throw new PageError(400, `limit must be a whole number from ${EMBED_LIMIT.min} to ${EMBED_LIMIT.max}.`);
}

/** `?theme=`: the embedding site's colours, `light` (the default) or `dark`, whatever the reader's system prefers. */
export function readEmbedTheme(query: Query): EmbedTheme {
  const theme = given(query.theme);
  if (theme === undefined) return DEFAULT_THEME;
  if (THEMES.includes(theme as EmbedTheme)) return theme as EmbedTheme;
  throw new PageError(400, `theme must be ${THEMES.join(' or ')}.`);
}

/** The theme asked for when it is a valid one, else the default: what an embed's error page is shown in. */
export function embedTheme(query: Query): EmbedTheme {
  return THEMES.includes(query.theme as EmbedTheme) ? (query.theme as EmbedTheme) : DEFAULT_THEME;
}

/** What an embed's own links (pager, months) carry on besides the filters; defaults left out, so that the links stay short. */
export function keptOptions(options: { limit?: number; theme: EmbedTheme }): Query {
  return {
    limit: options.limit === EMBED_LIMIT.default ? undefined : options.limit,
    theme: options.theme === DEFAULT_THEME ? undefined : options.theme,
  };
}

/** A query value as given: undefined when absent or empty; an array (`limit[]=…`) stays one, and is refused. */
function given(value: unknown): unknown {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The HTML a site pastes to show the embed at `src`: an `<iframe>` with a title (a frame needs
 * one for screen readers), a width that follows the page, and no inline style (the embedding
 * site's own policy may forbid it; it styles the frame itself).
 */
export function embedSnippet(src: string, title: string): string {
  return `<iframe src="${attribute(src)}" title="${attribute(title)}" width="100%" height="600" loading="lazy"></iframe>`;
}

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
