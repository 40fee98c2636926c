// Reading the change feed (sync.md) as a client does: page after page from a token while has_more.
import { API, http } from './http';
import type { TestApp } from './test-app';

export interface Change {
  type: string;
  id: number;
  action: 'upsert' | 'delete';
  modified_utc?: string;
  rest_url?: string;
  item?: Record<string, unknown>;
}

/** Each answer of GET /changes from `since` until has_more is false (per_page small, so paging is exercised). */
export async function* changePages(
  t: TestApp,
  since: string | undefined,
  authorization?: string,
  query: Record<string, string> = {},
): AsyncGenerator<{ changes: Change[]; next_sync_token: string }> {
  let token = since;
  for (let round = 0; round < 1000; round++) {
    const params = new URLSearchParams({ per_page: '7', ...query });
    if (token !== undefined) params.set('since', token);
    const res = await http(t, authorization).get(`${API}/changes?${params.toString()}`);
    if (res.status !== 200) throw new Error(`GET /changes answered ${res.status}: ${JSON.stringify(res.body)}`);
    yield res.body;
    token = res.body.next_sync_token as string;
    if (!res.body.has_more) return;
  }
  throw new Error('the feed never ended');
}
