// The headers browsers and clients expect: every public page (pages.md) and
// its stylesheet carry a Content-Security-Policy that allows nothing inline and no framing by
// other sites, X-Content-Type-Options and a Referrer-Policy, fresh or from the response cache;
// the API's answers say nosniff too (CORS untouched); every 401 names its scheme and realm
// (RFC 9110 §11.6.1: WWW-Authenticate).
import type { Response } from 'supertest';
import { createCategory, createEvent, createTag, eventInput, makeUsers } from '../../support/api';
import { API, basicAuth, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const SITE_TITLE = 'Riverside "Events"';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name.toLowerCase()] = values;
  }
  return out;
}

/** What the issue asks of a page's answer, as one comparable shape. */
function pageHeaders(res: Response) {
  const csp = directives(res.headers['content-security-policy']);
  // Without the directive nor default-src, anything goes (inline included).
  const sources = (name: string) => csp[name] ?? csp['default-src'] ?? ["'unsafe-inline'"];
  return {
    status: res.status,
    defaultSrc: csp['default-src'],
    inlineScript: sources('script-src').some((s) => /^'unsafe-(inline|eval)'$|^'nonce-|^'sha\d+-/.test(s)),
    inlineStyle: sources('style-src').some((s) => /^'unsafe-inline'$|^'nonce-|^'sha\d+-/.test(s)),
    frameAncestors: csp['frame-ancestors'],
    objectSrc: csp['object-src'],
    nosniff: res.headers['x-content-type-options'],
    referrerPolicy: res.headers['referrer-policy'],
  };
}

const EXPECTED_PAGE = {
  defaultSrc: ["'self'"],
  inlineScript: false,
  inlineStyle: false,
  frameAncestors: ["'self'"],
  objectSrc: ["'none'"],
  nosniff: 'nosniff',
  referrerPolicy: 'strict-origin-when-cross-origin',
};

describe('security headers of the pages and the API', () => {
  let t: TestApp;
  const paths: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_SITE_TITLE: SITE_TITLE });
    const { admin } = await makeUsers(t);
    const category = await createCategory(t, admin.authorization, { name: 'Folk' });
    const tag = await createTag(t, admin.authorization, { name: 'Riverside' });
    const event = await createEvent(t, admin.authorization, {
      title: 'Folk by the River',
      status: 'publish',
      start_date: '2030-06-01 19:00:00',
      end_date: '2030-06-01 21:00:00',
      venue: { venue: 'Boat House', city: 'Bonn' },
      organizer: [{ organizer: 'River Folk Club' }],
      categories: [category.id],
      tags: [tag.id],
    });
    const path = (url: unknown) => new URL(String((url as { url: string }).url)).pathname;
    Object.assign(paths, {
      list: '/events/',
      month: '/events/month/2030-06/',
      day: '/events/2030-06-01/',
      event: path(event),
      venue: path(event.venue),
      organizer: path(event.organizer[0]),
      category: path(category),
      tag: path(tag),
      'not-found': '/event/no-such-event/',
      'bad-request': '/events/?categories=no-such-category',
    });
    const css = /<link rel="stylesheet" href="([^"]+)">/.exec((await http(t).get('/events/')).text)![1];
    paths.asset = new URL(css).pathname;
  });
  afterAll(async () => t?.close());

  it('every page kind and the stylesheet: CSP (default-src self, nothing inline, no framing by others), nosniff, Referrer-Policy; fresh and from the cache', async () => {
    const expected: Record<string, unknown> = {};
    const seen: Record<string, unknown> = {};
    for (const [kind, path] of Object.entries(paths)) {
      const status = kind === 'not-found' ? 404 : kind === 'bad-request' ? 400 : 200;
      // The second answer of a page comes from the response cache.
      for (const round of ['fresh', 'cached']) {
        seen[`${kind} (${round})`] = pageHeaders(await http(t).get(path));
        expected[`${kind} (${round})`] = { ...EXPECTED_PAGE, status };
      }
    }
    expect(seen).toEqual(expected);
  });

  it('a 304 and a trailing-slash redirect carry them too', async () => {
    const first = await http(t).get(paths.event).expect(200);
    const again = await http(t)
      .get(paths.event)
      .set('If-None-Match', first.headers.etag as string);
    expect(pageHeaders(again)).toEqual({ ...EXPECTED_PAGE, status: 304 });
    expect(pageHeaders(await http(t).get('/events'))).toEqual({ ...EXPECTED_PAGE, status: 301 });
  });

  it("the API's answers say nosniff, keep their CORS headers and carry no page policy", async () => {
    for (const path of [`${API}/events`, `${API}/events/999999`, `${API}/events.ics`]) {
      const res = await http(t).get(path).set('Origin', 'https://elsewhere.example');
      expect({
        path,
        nosniff: res.headers['x-content-type-options'],
        cors: res.headers['access-control-allow-origin'],
        csp: res.headers['content-security-policy'],
      }).toEqual({
        path,
        nosniff: 'nosniff',
        cors: '*',
        csp: undefined,
      });
    }
  });

  it('every 401 carries WWW-Authenticate: Basic with the site title as realm (RFC 9110), UTF-8 credentials', async () => {
    const challenge = 'Basic realm="Riverside \\"Events\\"", charset="UTF-8"';
    const wrong = await http(t, basicAuth('nobody', 'wrong')).get(`${API}/events`).expect(401);
    expect([wrong.body.code, wrong.headers['www-authenticate']]).toEqual(['invalid_username', challenge]);
    const anonymousWrite = await http(t).post(`${API}/events`).send(eventInput()).expect(401);
    expect([anonymousWrite.body.code, anonymousWrite.headers['www-authenticate']]).toEqual(['rest_forbidden', challenge]);
    // On a page path too: bad credentials answer 401 before routing (auth.md §1).
    const onPage = await http(t, basicAuth('nobody', 'wrong')).get('/events/').expect(401);
    expect(onPage.headers['www-authenticate']).toBe(challenge);
    // Only 401s challenge.
    expect((await http(t).get(`${API}/events`).expect(200)).headers['www-authenticate']).toBeUndefined();
  });
});
