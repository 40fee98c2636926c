import request from 'supertest';
import type { TestApp } from './test-app';

export const API = '/calendar/events/v1';

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
