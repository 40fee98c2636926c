// Helpers for the event e2e tests (spec endpoints.md §4, resources.md §1, §8): the shape of an
// event, date-time formats, the event list. Creating events (and anything else) is test/support/api.ts.
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { expectStatus, idsOf } from './expect';
import { API, http } from './http';
import { EXTENSIONS_ON, type TestApp } from './test-app';

/** Keys of an event of the core, in order (resources.md §1). */
export const CORE_EVENT_KEYS = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'custom_fields',
];
/**
 * The keys of an event this suite knows, in order: the core's, then, with the extensions on
 * (TEST_EXTENSIONS=on), the recurrence extension's (recurrence.md §3).
 */
export const EVENT_KEYS = [...CORE_EVENT_KEYS, ...(EXTENSIONS_ON ? ['recurrence', 'series'] : [])];
/** What those keys hold on an event outside a series (with the extensions on; nothing otherwise). */
export const EXTENSION_EVENT_DEFAULTS: Readonly<Record<string, unknown>> = EXTENSIONS_ON ? { recurrence: [], series: null } : {};

/**
 * What the core promises of an event's keys, whatever other extensions are installed: the core's
 * keys first, all of them and in their order; then what extensions add (the known ones among
 * them, in their order); on a single read `json_ld` last, and never in a list or a write's answer.
 */
export function expectEventKeys(event: object, opts: { single?: boolean } = {}): void {
  const keys = Object.keys(event);
  expect(keys.slice(0, CORE_EVENT_KEYS.length)).toEqual(CORE_EVENT_KEYS);
  const added = keys.slice(CORE_EVENT_KEYS.length, opts.single ? -1 : undefined);
  const known = EVENT_KEYS.slice(CORE_EVENT_KEYS.length);
  expect(added.filter((key) => known.includes(key))).toEqual(known);
  if (opts.single) expect(keys.at(-1)).toBe('json_ld');
  expect(added).not.toContain('json_ld');
}

/** The event with the keys this suite knows (EVENT_KEYS) and nothing an unknown extension added, for comparing it whole. */
export function knownKeysOf(event: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(event).filter(([key]) => EVENT_KEYS.includes(key)));
}

/** Output format of every date-time (README §6.1). */
export const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';
export const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The DateDetails object of a `YYYY-MM-DD HH:MM:SS` string (resources.md §1). */
export function details(value: string): Record<string, string> {
  const [date, time] = value.split(' ');
  const [year, month, day] = date.split('-');
  const [hour, minutes, seconds] = time.split(':');
  return { year, month, day, hour, minutes, seconds };
}

export const sql = (d: DateTime): string => d.toFormat(SQL_FORMAT);

/** Parses an output date-time in a zone. */
export const parseIn = (value: string, zone: string): DateTime => DateTime.fromFormat(value, SQL_FORMAT, { zone });

/** Resolves once the wall clock has entered the next second (so a later "now" differs). */
export async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
}

/** Events list with a query string, as an optional caller. */
export function listEvents(t: TestApp, query: string, authorization?: string) {
  return http(t, authorization).get(`${API}/events${query ? `?${query}` : ''}`);
}

/** The ids of a successful event list; fails the test unless it answered 200. */
export async function listIds(t: TestApp, query: string, authorization?: string): Promise<number[]> {
  const res = await listEvents(t, query, authorization);
  expectStatus(res, 200);
  return idsOf(res.body.events);
}

/** A local image host: `/photo.jpg` (and `/other.png`) are images, `/page.html` is a web page, the rest 404. */
export interface ImageHost {
  base: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startImageHost(): Promise<ImageHost> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const path = (req.url ?? '').split('?')[0];
    const type = path.endsWith('.jpg') ? 'image/jpeg' : path.endsWith('.png') ? 'image/png' : path === '/page.html' ? 'text/html; charset=utf-8' : null;
    if (!type) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': type });
    res.end(req.method === 'HEAD' ? undefined : type.startsWith('image/') ? Buffer.from([0xff, 0xd8, 0xff, 0xd9]) : '<html><body>page</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
