import { DateTime } from 'luxon';
import { sanitizeHtml } from '../common/text/sanitize';
import type { JsonText } from '../common/pagination';
import { plain, type EventJson } from './event-view';

// What the public pages' services share: the shapes they pass around, their sizes, and the pure
// steps from a reader's query to the API's list parameters and from the API's JSON to a page.

export type Json = Record<string, unknown>;
export type Query = Record<string, unknown>;

/** A page to render: its template and what the template reads. */
export interface PageView {
  view: string;
  data: Json;
}

/**
 * A page that lists events, as its route names it. Each also answers `?ical=1` with the feed of
 * the events it lists (compat.md, "TEC's public URLs"): PagesService.view renders it, .calendar
 * writes its feed, both from the same list parameters.
 */
export type ListingPage =
  | { kind: 'list'; query: Query }
  | { kind: 'month'; month: string | undefined; query: Query }
  | { kind: 'day'; day: string; query: Query }
  | { kind: 'term'; taxonomy: 'category' | 'tag'; segments: string[]; query: Query }
  | { kind: 'venue' | 'organizer'; slug: string; query: Query };

/** A page that cannot be shown: 404 for what does not exist or an anonymous reader may not see, 400 for filters that make no sense. */
export class PageError extends Error {
  constructor(
    readonly status: 404 | 400,
    message: string,
  ) {
    super(message);
  }
}

/** The list filters a page passes on to the event list, in the API's grammar (pages.md). */
const FILTERS = ['search', 'categories', 'tags', 'venue', 'organizer'] as const;
export const LIST_PER_PAGE = 10;
export const DAY_PER_PAGE = 20;
/** Events a grid cell shows before "N more". */
export const CELL_EVENTS = 3;
/** A month with at most this many events is read in one list walk; a busier one is read day by day. */
export const MONTH_WALK_LIMIT = 200;
/** The list's largest page (per_page is clamped to it). */
export const MAX_PER_PAGE = 50;
/** Items of the RSS feed: WordPress's default `posts_per_rss`. */
export const FEED_ITEMS = 10;

export interface Found {
  events: EventJson[];
  total: number;
  totalPages: number;
}

export const notFound = () => new PageError(404, 'This page does not exist, or it is not public.');

export function parseJson(body: Json | JsonText | { bytes: Buffer }): Json {
  return 'bytes' in body && Buffer.isBuffer(body.bytes) ? (JSON.parse(body.bytes.toString()) as Json) : (body as Json);
}

export const isItem = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The list parameters of pages.md that a page passes on, as the reader wrote them. */
export function pickFilters(query: Query): Query {
  const out: Query = {};
  for (const key of FILTERS) {
    const value = query[key];
    if (typeof value === 'string' && value.trim() !== '') out[key] = value.trim();
  }
  return out;
}

export function pageNumber(query: Query): number {
  const n = typeof query.page === 'string' && /^\d{1,6}$/.test(query.page) ? Number(query.page) : 1;
  return n >= 1 ? n : 1;
}

/** Window parameters for "covers one of the days from `first` to `last`" (site zone; strict so that the bounds are exact). */
export function coveringDays(first: string, last: string): Query {
  return { strict_dates: 'true', starts_before: `${last} 23:59:59`, ends_after: `${first} 00:00:01` };
}

/** All-day events first, then by start (pages.md: month and day views). */
export function allDayFirst(a: EventJson, b: EventJson): number {
  if (a.all_day !== b.all_day) return a.all_day ? -1 : 1;
  return a.utc_start_date < b.utc_start_date ? -1 : a.utc_start_date > b.utc_start_date ? 1 : a.id - b.id;
}

/**
 * Class names other than those a microformats parser reads: mf2's prefixed names (`h-event`,
 * `p-category`, …) and the classic roots parsers still read as mf2 (`vevent`, `vcard`, …).
 */
const NOT_MICROFORMATS = /^(?!(?:h|p|u|dt|e)-|(?:adr|geo|hentry|hfeed|hnews|hproduct|hrecipe|hresume|hreview|hreview-aggregate|item|vcard|vevent|xfolkentry)$)/;

/**
 * Stored HTML cleaned once more on its way into a page (it was cleaned on write; a page does not
 * rely on that), without microformats' class names: a description is not to add an h-event to the
 * page or a property to the event's own (pages.md, "Microformats").
 */
export function cleanHtml(html: unknown): string {
  return typeof html === 'string' ? sanitizeHtml(html, NOT_MICROFORMATS) : '';
}

/** An http(s) link, or undefined (a `javascript:` website never becomes a link). */
export function safeLink(value: unknown): string | undefined {
  return typeof value === 'string' && /^https?:\/\/[^\s<>"]+$/i.test(value) ? value : undefined;
}

/** An instant the API writes in UTC (`utc_start_date`, `modified_utc`). */
export function utcDate(sql: string): Date {
  return DateTime.fromSQL(sql, { zone: 'utc' }).toJSDate();
}

export function summary(e: EventJson): string {
  const text = plain(e.excerpt ?? '') || plain(e.description ?? '');
  return text.length > 200 ? `${text.slice(0, 197)}…` : text;
}
