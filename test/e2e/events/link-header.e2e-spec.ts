// RFC 8288 Link header on every list (spec beyond.md #10): rel="next" / rel="prev" mirroring
// next_rest_url / previous_rest_url of the body, on fresh and cached answers alike.
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const WINDOW = 'start_date=2048-01-01&end_date=2048-12-31';

/** The Link header as { rel: url }. */
function rels(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/).filter(Boolean)) {
    const match = /^<([^>]*)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (!match) throw new Error(`not a Link value: ${part}`);
    out[match[2]] = match[1];
  }
  return out;
}

describe('Link header on lists', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const { authorization } = await t.userHeader('link-admin', 'administrator');
    for (const day of [1, 2, 3]) {
      const made = await http(t, authorization)
        .post(`${API}/events`)
        .send({ title: `Linked ${day}`, start_date: `2048-05-0${day} 10:00`, end_date: `2048-05-0${day} 11:00`, venue: { venue: `Link hall ${day}` } });
      expect(made.status).toBe(201);
    }
  });
  afterAll(async () => t.close());

  it('mirrors next_rest_url and previous_rest_url, on the fresh answer and the cached one', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await http(t).get(`${API}/events?${WINDOW}&per_page=1&page=2`);
      expect(res.status).toBe(200);
      expect(rels(res.headers.link)).toEqual({ next: res.body.next_rest_url, prev: res.body.previous_rest_url });
      expect(res.body.next_rest_url).toContain('page=3');
    }
  });

  it('the first page has only next, the last only prev, a single page none', async () => {
    const first = await http(t).get(`${API}/events?${WINDOW}&per_page=1`);
    expect(rels(first.headers.link)).toEqual({ next: first.body.next_rest_url });
    const last = await http(t).get(`${API}/events?${WINDOW}&per_page=1&page=3`);
    expect(rels(last.headers.link)).toEqual({ prev: last.body.previous_rest_url });
    const single = await http(t).get(`${API}/events?${WINDOW}`);
    expect(single.headers.link).toBeUndefined();
    expect(single.body.next_rest_url).toBeUndefined();
  });

  it('on venues and terms too, as their bodies say', async () => {
    const venues = await http(t).get(`${API}/venues?search=Link+hall&per_page=2`);
    expect(rels(venues.headers.link)).toEqual({ next: venues.body.next_rest_url });
    const tagsPastTheEnd = await http(t).get(`${API}/tags?hide_empty=false&page=3`); // terms offer a previous page even there
    expect(rels(tagsPastTheEnd.headers.link)).toEqual({ prev: tagsPastTheEnd.body.previous_rest_url });
  });
});
