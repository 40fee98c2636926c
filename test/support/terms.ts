import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { DataVersion } from '../../src/common/cache/data-version.service';
import { PostsService } from '../../src/posts';
import { TaxonomiesService } from '../../src/taxonomies';
import { API, http } from './http';
import type { TestApp } from './test-app';

/** A term as the API returns it (resources.md §4). */
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

export type TermRoute = 'categories' | 'tags';

let counter = 0;

/**
 * A short lower-case token that is unique within the test file. It survives slug generation
 * unchanged, so a `search=<token>` scopes a list to the terms one test created.
 */
export function token(): string {
  counter += 1;
  const letters = Array.from({ length: 5 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
  return `q${counter.toString(36)}${letters}`;
}

/** `{base_url}/calendar/events/v1` of the test app. */
export const apiRoot = (t: TestApp) => `${t.baseUrl}${API}`;

/** Creates a term through the API and fails loudly when that does not answer 201. */
export async function createTerm(t: TestApp, authorization: string, route: TermRoute, body: Record<string, unknown>): Promise<TermBody> {
  const res = await http(t, authorization).post(`${API}/${route}`).send(body);
  if (res.status !== 201) {
    throw new Error(`seeding POST /${route} ${JSON.stringify(body)} answered ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as TermBody;
}

/** Reads a term through the API and fails loudly when that does not answer 200. */
export async function readTerm(t: TestApp, route: TermRoute, id: number): Promise<TermBody> {
  const res = await http(t).get(`${API}/${route}/${id}`);
  if (res.status !== 200) throw new Error(`GET /${route}/${id} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as TermBody;
}

/**
 * Seeds an event the way event writes will: a new id from the post sequence, then its
 * categories and tags assigned in one transaction. `published` false means a draft.
 */
export async function seedEvent(t: TestApp, terms: { category?: number[]; tag?: number[] }, published = true): Promise<number> {
  const eventId = await t.app.get(PostsService).allocate('event');
  const tax = t.app.get(TaxonomiesService);
  await t.app.get(DataSource).transaction(async (m) => {
    if (terms.category) await tax.assignToEvent(m, eventId, 'category', terms.category, published);
    if (terms.tag) await tax.assignToEvent(m, eventId, 'tag', terms.tag, published);
  });
  await t.app.get(DataVersion).changed(); // as every event write does after its commit
  return eventId;
}

/** Replaces an event's terms of one kind (as an event update would). */
export async function reassign(t: TestApp, eventId: number, taxonomy: 'category' | 'tag', termIds: number[], published: boolean): Promise<void> {
  const tax = t.app.get(TaxonomiesService);
  await t.app.get(DataSource).transaction((m) => tax.assignToEvent(m, eventId, taxonomy, termIds, published));
  await t.app.get(DataVersion).changed();
}

/** The event was published / unpublished (as a status change would report it). */
export async function setPublished(t: TestApp, eventId: number, published: boolean): Promise<void> {
  const tax = t.app.get(TaxonomiesService);
  await t.app.get(DataSource).transaction((m) => tax.eventPublicationChanged(m, eventId, published));
  await t.app.get(DataVersion).changed();
}

/** A venue id: an existing post that is not an event. */
export async function seedVenueId(t: TestApp): Promise<number> {
  return t.app.get(PostsService).allocate('venue');
}

/** Status, `code` and `data.status` of an error response, compared in one go for a readable diff. */
export function expectError(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code, dataStatus: res.body?.data?.status }).toEqual({ status, code, dataStatus: status });
}

/** `expectError(…, 400, 'rest_invalid_param')` plus the exact set of parameters reported. */
export function expectInvalidParams(res: Response, ...params: string[]): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data.params ?? {}).sort()).toEqual([...params].sort());
}

export const idsOf = (terms: { id: number }[]) => terms.map((term) => term.id);

export const basicAuth = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
