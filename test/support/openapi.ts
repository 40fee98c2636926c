import { API, http } from './http';
import type { TestApp } from './test-app';

/** The OpenAPI document as GET {api_root}/doc serves it to an anonymous client (it must answer 200). */
export async function servedDocument<D = Record<string, unknown>>(t: TestApp): Promise<D> {
  const res = await http(t).get(`${API}/doc`);
  expect(res.status).toBe(200);
  return res.body as D;
}
