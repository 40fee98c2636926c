import request from 'supertest';
import type { TestApp } from './test-app';

/**
 * The path every test calls the API by: ours, or with TEST_API_BASE=/wp-json/tribe/events/v1
 * the WordPress alias of compat.md (.ci/run runs the e2e suite once more that way: every route,
 * parameter, error and link must then hold at the alias too).
 */
export const API = process.env.TEST_API_BASE || '/calendar/events/v1';
/** The namespace the answers name: `tribe/events/v1` at the alias. */
export const NAMESPACE = API.replace(/^\/(wp-json\/)?/, '');
/** The REST index of that path: `/` for ours, `/wp-json/` at the alias. */
export const REST_INDEX = API.startsWith('/wp-json/') ? '/wp-json/' : '/';

/** Content-Type of every JSON answer, errors included. */
export const JSON_TYPE = 'application/json; charset=UTF-8';

/** `{base_url}{API}` of the test app: the root of every link the API writes. */
export const rootOf = (t: TestApp) => `${t.baseUrl}${API}`;

/** An `Authorization` header value for these credentials (right or wrong). */
export const basicAuth = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** supertest bound to the app's server; `as` adds an Authorization header. */
export function http(t: TestApp, authorization?: string) {
  const server = t.app.getHttpServer();
  const withAuth = (r: request.Test) => (authorization ? r.set('Authorization', authorization) : r);
  return {
    get: (path: string) => withAuth(request(server).get(path)),
    post: (path: string) => withAuth(request(server).post(path)),
    put: (path: string) => withAuth(request(server).put(path)),
    patch: (path: string) => withAuth(request(server).patch(path)),
    delete: (path: string) => withAuth(request(server).delete(path)),
  };
}

/** Query parameters of a URL as a plain object (compare links by their parameters, spec §8.2). */
export function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams.entries());
}
