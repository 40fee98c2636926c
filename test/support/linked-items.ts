// Helpers for the venue and organizer e2e tests (spec endpoints.md §5).
import { API, http } from './http';
import { idsOf } from './terms';
import type { TestApp } from './test-app';

export type LinkedRoute = 'venues' | 'organizers';
export interface TestUser {
  id: number;
  authorization: string;
}

/** Creates one user per entry (key = login, value = role). */
export async function createUsers<K extends string>(t: TestApp, roles: Record<K, string>): Promise<Record<K, TestUser>> {
  const users = {} as Record<K, TestUser>;
  for (const [login, role] of Object.entries(roles) as [K, string][]) users[login] = await t.userHeader(login, role);
  return users;
}

/** POSTs an item and fails loudly unless that answers 201. */
export async function createItem(t: TestApp, authorization: string, route: LinkedRoute, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await http(t, authorization).post(`${API}/${route}`).send(body);
  if (res.status !== 201) throw new Error(`POST /${route} ${JSON.stringify(body)} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Ids of the first 50 items of a list (anonymous without `authorization`); expects 200. */
export async function listItemIds(t: TestApp, authorization: string | undefined, route: LinkedRoute, query: string): Promise<number[]> {
  const res = await http(t, authorization).get(`${API}/${route}?per_page=50&${query}`);
  expect(res.status).toBe(200);
  return idsOf(res.body[route]);
}

export const sortedIds = (ids: number[]) => [...ids].sort((a, b) => a - b);
