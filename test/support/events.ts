// Helpers for the event e2e tests (spec endpoints.md §4, resources.md §1, §8).
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import type { Response } from 'supertest';
import { API, http } from './http';
import type { TestApp } from './test-app';

/** Keys of an event, in order (resources.md §1); single reads add `json_ld` last. */
export const EVENT_KEYS = [
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
export const SINGLE_EVENT_KEYS = [...EVENT_KEYS, 'json_ld'];

export const JSON_TYPE = 'application/json; charset=UTF-8';

/** Output format of every date-time (README §6.1). */
export const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';
export const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** An event as the API returns it; only the members the tests read are typed. */
export interface EventBody {
  id: number;
  author: string;
  status: string;
  slug: string;
  title: string;
  url: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  timezone_abbr: string;
  all_day: boolean;
  image: false | { url: string; id: number; extension: string };
  categories: { id: number; name: string; slug: string }[];
  tags: { id: number; name: string; slug: string }[];
  venue: [] | ({ id: number } & Record<string, unknown>);
  organizer: ({ id: number } & Record<string, unknown>)[];
  json_ld?: Record<string, unknown>;
  [key: string]: unknown;
}

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';
export interface Caller {
  id: number;
  authorization: string;
}

let counter = 0;

/**
 * A lower-case token unique within the test file (letters and digits only, so it survives slug
 * generation unchanged and `search=<token>` scopes an event list to one test's events).
 */
export function uid(prefix = 'ev'): string {
  counter += 1;
  const letters = Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
  return `${prefix}${counter.toString(36)}${letters}`;
}

/** One user of each role, with logins unique within the app. */
export async function makeUsers(t: TestApp, suffix = ''): Promise<Record<'admin' | 'editor' | 'author' | 'author2' | 'contributor' | 'subscriber', Caller>> {
  return {
    admin: await t.userHeader(`admin${suffix}`, 'administrator'),
    editor: await t.userHeader(`editor${suffix}`, 'editor'),
    author: await t.userHeader(`author${suffix}`, 'author'),
    author2: await t.userHeader(`author2${suffix}`, 'author'),
    contributor: await t.userHeader(`contrib${suffix}`, 'contributor'),
    subscriber: await t.userHeader(`subscriber${suffix}`, 'subscriber'),
  };
}

/** `{base_url}/calendar/events/v1`. */
export const rootOf = (t: TestApp) => `${t.baseUrl}${API}`;

/** A minimal valid event body with a unique title; `overrides` win. */
export function eventInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: `Event ${uid()}`, start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 12:00:00', ...overrides };
}

function failSeed(what: string, res: Response): never {
  throw new Error(`seeding ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
}

/** POST /events and fail loudly unless it answers 201. */
export async function createEvent(t: TestApp, authorization: string, overrides: Record<string, unknown> = {}): Promise<EventBody> {
  const body = eventInput(overrides);
  const res = await http(t, authorization).post(`${API}/events`).send(body);
  if (res.status !== 201) failSeed(`POST /events ${JSON.stringify(body)}`, res);
  return res.body as EventBody;
}

/** GET /events/{id} and fail loudly unless it answers 200. */
export async function readEvent(t: TestApp, id: number, authorization?: string): Promise<EventBody> {
  const res = await http(t, authorization).get(`${API}/events/${id}`);
  if (res.status !== 200) failSeed(`GET /events/${id}`, res);
  return res.body as EventBody;
}

/** POST /venues and fail loudly unless it answers 201. */
export async function createVenue(t: TestApp, authorization: string, body: Record<string, unknown>): Promise<{ id: number } & Record<string, unknown>> {
  const res = await http(t, authorization).post(`${API}/venues`).send(body);
  if (res.status !== 201) failSeed(`POST /venues ${JSON.stringify(body)}`, res);
  return res.body;
}

/** POST /organizers and fail loudly unless it answers 201. */
export async function createOrganizer(t: TestApp, authorization: string, body: Record<string, unknown>): Promise<{ id: number } & Record<string, unknown>> {
  const res = await http(t, authorization).post(`${API}/organizers`).send(body);
  if (res.status !== 201) failSeed(`POST /organizers ${JSON.stringify(body)}`, res);
  return res.body;
}

/** POST /categories or /tags and fail loudly unless it answers 201. */
export async function createTermFor(t: TestApp, authorization: string, route: 'categories' | 'tags', body: Record<string, unknown>): Promise<{ id: number; name: string; slug: string } & Record<string, unknown>> {
  const res = await http(t, authorization).post(`${API}/${route}`).send(body);
  if (res.status !== 201) failSeed(`POST /${route} ${JSON.stringify(body)}`, res);
  return res.body;
}

/** GET any path and fail loudly unless it answers 200. */
export async function getOk(t: TestApp, path: string, authorization?: string): Promise<Record<string, unknown>> {
  const res = await http(t, authorization).get(path);
  if (res.status !== 200) failSeed(`GET ${path}`, res);
  return res.body;
}

/** DELETE /events/{id} and fail loudly unless it answers 200. */
export async function trashEvent(t: TestApp, authorization: string, id: number): Promise<EventBody> {
  const res = await http(t, authorization).delete(`${API}/events/${id}`);
  if (res.status !== 200) failSeed(`DELETE /events/${id}`, res);
  return res.body as EventBody;
}

/** Status, `code` and `data.status` of an error response, compared in one go for a readable diff. */
export function expectError(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code, dataStatus: res.body?.data?.status }).toEqual({ status, code, dataStatus: status });
}

/** 400 rest_invalid_param reporting exactly these parameters. */
export function expectInvalidParams(res: Response, ...params: string[]): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data?.params ?? {}).sort()).toEqual([...params].sort());
}

/** 400 rest_missing_callback_param listing exactly these names. */
export function expectMissingParams(res: Response, ...params: string[]): void {
  expectError(res, 400, 'rest_missing_callback_param');
  expect(Array.isArray(res.body.data?.params)).toBe(true);
  expect([...res.body.data.params].sort()).toEqual([...params].sort());
}

/** Expected success status plus a readable failure (the error body) when it differs. */
export function expectStatus(res: Response, status: number): void {
  expect({ status: res.status, code: res.status === status ? undefined : res.body?.code }).toEqual({ status, code: undefined });
}

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

export const idsOf = (items: { id: number }[]): number[] => items.map((item) => item.id);

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
