// The one way e2e tests make their data: through the real HTTP API, as a client would.
// Every create/update helper asserts the status the API answers on success and returns the body,
// so a seeding step that fails says so in one line instead of failing a later assertion.
// No helper here writes to the database (seed through the API, so seeds stay portable).
import type { Response } from 'supertest';
import { API, http } from './http';
import type { TestApp } from './test-app';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

/** A user the tests call the API as. */
export interface Caller {
  id: number;
  authorization: string;
}

/** An event as the API returns it (resources.md §1); only the members the tests read are typed. */
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

/** A venue or organizer as the API returns it (resources.md §2, §3). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read nested members such as `image.id` freely
export type LinkedItemBody = { id: number } & Record<string, any>;

/** A category or tag as the API returns it (resources.md §4). */
export interface TermBody {
  id: number;
  count: number;
  description: string;
  name: string;
  slug: string;
  taxonomy: string;
  parent?: number;
  meta: unknown[];
  url: string;
  urls: { self: string; collection: string; up?: string };
}

export type LinkedRoute = 'venues' | 'organizers';
export type TermRoute = 'categories' | 'tags';

// ------------------------------------------------------------------ users and unique names

let counter = 0;

/**
 * A lower-case token unique within the test file (letters and digits only, so it survives slug
 * generation unchanged and `search=<token>` scopes a list to one test's items).
 */
export function uid(prefix = 'ev'): string {
  counter += 1;
  const letters = Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
  return `${prefix}${counter.toString(36)}${letters}`;
}

/** One user of each role, with logins unique within the app (`admin{suffix}`, `editor{suffix}`, …). */
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

// ------------------------------------------------------------------ plumbing

function failSeed(what: string, res: Response): never {
  throw new Error(`seeding ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
}

async function send(
  t: TestApp,
  authorization: string | undefined,
  method: 'get' | 'post' | 'patch' | 'delete',
  path: string,
  expected: number,
  body?: Record<string, unknown>,
) {
  const req = http(t, authorization)[method](`${API}${path}`);
  const res = body === undefined ? await req : await req.send(body);
  if (res.status !== expected) failSeed(`${method.toUpperCase()} ${path}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`, res);
  return res.body;
}

/** GET any path (with the API prefix) and fail loudly unless it answers 200. */
export async function getOk(t: TestApp, path: string, authorization?: string): Promise<Record<string, unknown>> {
  const res = await http(t, authorization).get(path);
  if (res.status !== 200) failSeed(`GET ${path}`, res);
  return res.body;
}

// ------------------------------------------------------------------ events

/** A minimal valid event body with a unique title; `overrides` win. */
export function eventInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: `Event ${uid()}`, start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 12:00:00', ...overrides };
}

/** POST /events (a minimal valid event plus `fields`) and fail loudly unless it answers 201. */
export async function createEvent(t: TestApp, authorization: string, fields: Record<string, unknown> = {}): Promise<EventBody> {
  return send(t, authorization, 'post', '/events', 201, eventInput(fields));
}

/** GET /events/{id} and fail loudly unless it answers 200. */
export async function readEvent(t: TestApp, id: number, authorization?: string): Promise<EventBody> {
  return send(t, authorization, 'get', `/events/${id}`, 200);
}

/** PATCH /events/{id} (a partial update) and fail loudly unless it answers 200. */
export async function updateEvent(t: TestApp, authorization: string, id: number, fields: Record<string, unknown>): Promise<EventBody> {
  return send(t, authorization, 'patch', `/events/${id}`, 200, fields);
}

/** DELETE /events/{id} (to the trash) and fail loudly unless it answers 200. */
export async function trashEvent(t: TestApp, authorization: string, id: number): Promise<EventBody> {
  return send(t, authorization, 'delete', `/events/${id}`, 200);
}

/**
 * What an event links to, as GET /events/{id} shows it. Linked venues and organizers are embedded
 * whatever their status (a trashed one included), so an empty `venue` means the link is gone.
 */
export async function readEventLinks(t: TestApp, authorization: string, id: number): Promise<{ venueId: number | null; organizerIds: number[] }> {
  const event = await readEvent(t, id, authorization);
  return { venueId: Array.isArray(event.venue) ? null : event.venue.id, organizerIds: event.organizer.map((o) => o.id) };
}

// ------------------------------------------------------------------ venues and organizers

/** POST /venues or /organizers and fail loudly unless it answers 201. */
export async function createItem(t: TestApp, authorization: string, route: LinkedRoute, body: Record<string, unknown>): Promise<LinkedItemBody> {
  return send(t, authorization, 'post', `/${route}`, 201, body);
}

/** POST /venues and fail loudly unless it answers 201. */
export const createVenue = (t: TestApp, authorization: string, body: Record<string, unknown>) => createItem(t, authorization, 'venues', body);

/** POST /organizers and fail loudly unless it answers 201. */
export const createOrganizer = (t: TestApp, authorization: string, body: Record<string, unknown>) => createItem(t, authorization, 'organizers', body);

/** Events, venues and organizers: the routes that share trash, permanent delete and restore. */
export type ItemRoute = 'events' | LinkedRoute;

/** The write field that names an item of each route. */
export const NAME_FIELD = { events: 'title', venues: 'venue', organizers: 'organizer' } as const;

/** A new event, venue or organizer named `{prefix} {token}` (a unique token, returned with it), `fields` win. */
export async function createNamed(
  t: TestApp,
  caller: Caller,
  route: ItemRoute,
  prefix: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: number; slug: string; token: string }> {
  const token = uid(route.slice(0, 2));
  const body = { [NAME_FIELD[route]]: `${prefix} ${token}`, ...fields };
  const item = route === 'events' ? await createEvent(t, caller.authorization, body) : await createItem(t, caller.authorization, route, body);
  return { id: item.id, slug: item.slug as string, token };
}

// ------------------------------------------------------------------ categories and tags

/** POST /categories or /tags and fail loudly unless it answers 201. */
export async function createTerm(t: TestApp, authorization: string, route: TermRoute, body: Record<string, unknown>): Promise<TermBody> {
  return send(t, authorization, 'post', `/${route}`, 201, body);
}

/** POST /categories and fail loudly unless it answers 201. */
export const createCategory = (t: TestApp, authorization: string, body: Record<string, unknown>) => createTerm(t, authorization, 'categories', body);

/** POST /tags and fail loudly unless it answers 201. */
export const createTag = (t: TestApp, authorization: string, body: Record<string, unknown>) => createTerm(t, authorization, 'tags', body);

/** GET /categories/{id} or /tags/{id} (anonymous) and fail loudly unless it answers 200. */
export async function readTerm(t: TestApp, route: TermRoute, id: number): Promise<TermBody> {
  return send(t, undefined, 'get', `/${route}/${id}`, 200);
}

// ------------------------------------------------------------------ lists

/** The ids of a successful list of venues, organizers, categories or tags; fails the test unless it answered 200. */
export async function listIdsOf(t: TestApp, route: LinkedRoute | TermRoute, query: string, authorization?: string): Promise<number[]> {
  const res = await http(t, authorization).get(`${API}/${route}?${query}`);
  expect(res.status).toBe(200);
  return (res.body[route] as { id: number }[]).map((item) => item.id);
}
