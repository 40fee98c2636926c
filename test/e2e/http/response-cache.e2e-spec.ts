// Whole answers of anonymous reads are kept in the read model and sent before Nest routes the
// request (src/common/http/response-cache.ts). What a client sees must not change: the same
// bytes and headers as the full path, nothing a write changed, nothing another caller may see,
// and every per-request rule (authentication, rate limits, request ids) still applied.
import { DataVersion } from '../../../src/common/cache/data-version.service';
import { ReadModel } from '../../../src/common/cache/read-model';
import { nextSecond } from '../../support/events';
import { API, http, JSON_TYPE } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const WINDOW = 'start_date=2046-01-01&end_date=2046-12-31';

describe('anonymous answers kept whole', () => {
  let t: TestApp;
  let admin: string;
  const responses = () =>
    t.app
      .get(ReadModel)
      .stats()
      .find((s) => s.name === 'responses')!;

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.userHeader('rc-admin', 'administrator')).authorization;
    for (const title of ['Kept one', 'Kept two']) {
      const made = await http(t, admin)
        .post(`${API}/events`)
        .send({ title, start_date: '2046-03-01 10:00', end_date: '2046-03-01 11:00', categories: ['Kept'] });
      expect(made.status).toBe(201);
    }
  });
  afterAll(async () => t.close());

  it('a second anonymous read is answered from the cache with the same body and headers, and its own request id', async () => {
    const url = `${API}/events?${WINDOW}&per_page=1`;
    await nextSecond(); // answers are kept per second: both requests fall in this one
    const hitsBefore = responses().hits;
    const first = await http(t).get(url).set('x-request-id', 'first-one');
    const second = await http(t).get(url).set('x-request-id', 'second-one');
    expect(responses().hits).toBe(hitsBefore + 1); // the second one did not reach the service
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    for (const header of ['content-type', 'x-tec-total', 'x-tec-totalpages', 'content-length']) expect(second.headers[header]).toBe(first.headers[header]);
    expect(second.headers['content-type']).toBe(JSON_TYPE);
    expect(second.headers['x-tec-total']).toBe('2');
    expect([first.headers['x-request-id'], second.headers['x-request-id']]).toEqual(['first-one', 'second-one']);
  });

  it('the change feed: pages at the end of the log and from no token are kept; a page on the way from a token only once asked again', async () => {
    const first = await http(t).get(`${API}/changes?per_page=1`);
    expect(first.body.has_more).toBe(true);
    const tip = async () => {
      let token = first.body.next_sync_token as string;
      for (;;) {
        const page = await http(t).get(`${API}/changes?per_page=100&since=${token}`);
        if (!page.body.has_more) return token;
        token = page.body.next_sync_token;
      }
    };
    const atEnd = await tip();
    /** The cache hits of each of three asks of `url` in one second. */
    const thrice = async (url: string) => {
      await nextSecond(); // answers are kept per second: the requests fall in this one
      const hits: number[] = [];
      let body: unknown;
      for (let i = 0; i < 3; i++) {
        const before = responses().hits;
        const res = await http(t).get(url);
        expect(res.status).toBe(200);
        if (i > 0) expect(res.body).toEqual(body);
        body = res.body;
        hits.push(responses().hits - before);
      }
      return hits;
    };
    expect(await thrice(`${API}/changes?per_page=1`)).toEqual([0, 1, 1]);
    expect(await thrice(`${API}/changes?per_page=100&since=${atEnd}`)).toEqual([0, 1, 1]);
    // The first ask is not kept; the second is, and answers the third.
    expect(await thrice(`${API}/changes?per_page=1&since=${first.body.next_sync_token}`)).toEqual([0, 0, 1]);
  });

  it('a write empties it: the next read shows the write', async () => {
    const url = `${API}/events?${WINDOW}`;
    expect((await http(t).get(url)).body.total).toBe(2);
    expect((await http(t).get(url)).body.total).toBe(2);
    const made = await http(t, admin).post(`${API}/events`).send({ title: 'Kept three', start_date: '2046-04-01 10:00', end_date: '2046-04-01 11:00' });
    expect(made.status).toBe(201);
    expect((await http(t).get(url)).body.total).toBe(3);
    await http(t, admin).post(`${API}/events/${made.body.id}`).send({ title: 'Kept three, renamed' });
    expect((await http(t).get(`${API}/events/${made.body.id}`)).body.title).toBe('Kept three, renamed');
    expect((await http(t).get(`${API}/events/${made.body.id}`)).body.title).toBe('Kept three, renamed');
  });

  it('callers with credentials neither read nor fill it: a draft is theirs to see, never an anonymous answer', async () => {
    const draft = await http(t, admin)
      .post(`${API}/events`)
      .send({ title: 'Kept draft', status: 'draft', start_date: '2046-05-01 10:00', end_date: '2046-05-01 11:00' });
    expect(draft.status).toBe(201);
    const url = `${API}/events?${WINDOW}&status=draft`;
    const anonymous = await http(t).get(url);
    const again = await http(t).get(url);
    expect(again.status).toBe(anonymous.status);
    const asAdmin = await http(t, admin).get(url);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.events.map((e: { title: string }) => e.title)).toEqual(['Kept draft']);
    // …and what the administrator saw is not served to the next anonymous reader.
    expect((await http(t).get(url)).text).toBe(anonymous.text);
  });

  it('when the change log cannot be read, the answer is the errors.md one the route gives, not a framework error', async () => {
    const version = t.app.get(DataVersion);
    const { fresh, current } = version;
    version.fresh = () => undefined;
    version.current = () => Promise.reject(new Error('the database went away'));
    try {
      const res = await http(t).get(`${API}/events?${WINDOW}&per_page=3`);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: 'rest_internal_error', message: expect.any(String), data: { status: 500 } });
      expect(res.text).not.toContain('went away');
    } finally {
      Object.assign(version, { fresh, current });
    }
  });

  it('errors are not kept, and bad credentials still answer 401 on a cached URL', async () => {
    const url = `${API}/events?${WINDOW}&page=9`; // past the last page: the spec's 404
    const hitsBefore = responses().hits;
    expect((await http(t).get(url)).status).toBe(404);
    expect((await http(t).get(url)).status).toBe(404);
    expect(responses().hits).toBe(hitsBefore);
    const cached = `${API}/categories`;
    expect((await http(t).get(cached)).status).toBe(200);
    expect((await http(t).get(cached)).status).toBe(200);
    expect((await http(t, 'Basic bm9ib2R5Om5vdGhpbmc=').get(cached)).status).toBe(401);
  });
});

describe('anonymous answers kept whole, under a rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_RATE_LIMIT: '3' });
  });
  afterAll(async () => t.close());

  it('a cached answer still counts against the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await http(t).get(`${API}/tags`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
