// Response headers stay under 8 KB whatever the request: a list asked with
// thousands of `include` ids keeps its Link header (beyond.md #10) only while it fits, since the
// body carries the same URLs, so Node's own HTTP client (16 KB of headers at most) reads the
// answer; a page redirect that would echo an over-long URL in Location answers 414 instead.
import { get, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEvent, makeUsers } from '../../support/api';
import { API } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const MAX_HEADER_BYTES = 8 * 1024;

/** A GET with Node's own client and its default limits: status, raw headers and the body. */
function nodeGet(url: string): Promise<{ res: IncomingMessage; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ res, body }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Each header as its line on the wire (`Name: value\r\n`) is under 8 KB. */
function expectHeadersFit(res: IncomingMessage): void {
  const lines: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`);
  const over = lines.filter((line) => Buffer.byteLength(line) >= MAX_HEADER_BYTES).map((line) => line.slice(0, 40));
  expect(over).toEqual([]);
}

describe('response headers under 8 KB', () => {
  let t: TestApp;
  let base: string;
  let ids: number[];

  beforeAll(async () => {
    t = await createTestApp();
    const { admin } = await makeUsers(t);
    ids = [];
    for (const day of [1, 2, 3])
      ids.push(
        (await createEvent(t, admin.authorization, { title: `Many ids ${day}`, start_date: `2049-03-0${day} 10:00`, end_date: `2049-03-0${day} 11:00` })).id,
      );
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => t?.close());

  it('a list asked with 2,500 include ids is read by Node’s client; its neighbours are in the body, Link left out', async () => {
    const include = [...ids];
    for (let id = 1; include.length < 2500; id++) if (!ids.includes(id)) include.push(id);
    const { res, body } = await nodeGet(`${base}${API}/events?per_page=1&page=2&include=${include.join(',')}`);
    expect(res.statusCode).toBe(200);
    expectHeadersFit(res);
    expect(res.headers.link).toBeUndefined();
    const page = JSON.parse(body) as { events: { id: number }[]; next_rest_url?: string; previous_rest_url?: string };
    expect(page.events.map((e) => e.id)).toEqual([ids[1]]);
    expect(page.next_rest_url).toContain('page=3');
    expect(page.previous_rest_url).toContain(`include=${ids[0]}`);
    expect(res.headers['x-tec-total']).toBe('3');
  });

  it('a short list keeps its Link header', async () => {
    const { res, body } = await nodeGet(`${base}${API}/events?per_page=1&page=2&include=${ids.join(',')}`);
    expect(res.statusCode).toBe(200);
    const page = JSON.parse(body) as { next_rest_url: string; previous_rest_url: string };
    expect(res.headers.link).toBe(`<${page.next_rest_url}>; rel="next", <${page.previous_rest_url}>; rel="prev"`);
  });

  it('a page redirect that would echo a 9 KB URL in Location answers 414 in the errors.md shape', async () => {
    const { res, body } = await nodeGet(`${base}/events/month?q=${'x'.repeat(9000)}`);
    expectHeadersFit(res);
    expect({ status: res.statusCode, body: JSON.parse(body) as unknown }).toEqual({
      status: 414,
      body: { code: 'rest_invalid_request', message: expect.any(String), data: { status: 414 } },
    });
    // The slashed address itself is served; a URL that fits is still redirected.
    const slashed = await nodeGet(`${base}/events/month/?q=${'x'.repeat(9000)}`);
    expect(slashed.res.statusCode).toBe(200);
    expectHeadersFit(slashed.res);
    expect((await nodeGet(`${base}/events/month?q=${'x'.repeat(100)}`)).res.statusCode).toBe(301);
  });
});
