// Stored text from callers without unfiltered HTML (README §8, auth.md §2, resources.md): every
// text field of events, nested venues and organizers and terms named in event writes, for each
// payload of the table, as a contributor, an author and an administrator.
import { createTestApp, TestApp } from '../../support/test-app';
import { API, http } from '../../support/http';
import { makeUsers } from '../../support/api';
import { ACTIVE, MARKUP, XSS_PAYLOADS } from '../../support/xss-payloads';

type Json = Record<string, unknown>;

/** The write: every text field of each kind carries the payload behind a marker that keeps it non-empty. */
function writeWith(n: number, payload: string): Json {
  const v = (field: string) => `P${n}${field} ${payload}`;
  return {
    title: v('t'),
    description: v('d'),
    excerpt: v('e'),
    cost: v('c'),
    start_date: '2031-03-01 10:00',
    end_date: '2031-03-01 11:00',
    venue: {
      venue: v('v'),
      description: v('vd'),
      address: v('a'),
      city: v('ci'),
      country: v('co'),
      province: v('pr'),
      state: v('st'),
      zip: v('z').slice(0, 64), // the column holds 64 characters
      phone: v('ph'),
      stateprovince: v('sp'),
    },
    organizer: [{ organizer: v('o'), description: v('od'), phone: v('oph'), email: v('oe') }],
    categories: [v('cat')],
    tags: [v('tag')],
  };
}

/** Every string in a JSON value with its path (`venue.json_ld.address.streetAddress`). */
function strings(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => strings(item, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, item]) => strings(item, path ? `${path}.${k}` : k));
  return [];
}

/** Fields whose value is sanitised HTML: formatting may stay there, never active content. */
const HTML_FIELD = /(^|\.)(description|excerpt)$/;

describe('sanitising: the XSS payload table', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof makeUsers>>;
  beforeAll(async () => {
    t = await createTestApp();
    users = await makeUsers(t);
  });
  afterAll(async () => t?.close());

  it('has a payload table worth the name', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(40);
  });

  describe.each(['contributor', 'author'] as const)('as %s (no unfiltered HTML)', (role) => {
    it.each(XSS_PAYLOADS.map((payload, n) => [n, payload]))('payload %#: %s', async (n, payload) => {
      const auth = users[role].authorization;
      const created = await http(t, auth)
        .post(`${API}/events`)
        .send(writeWith(Number(n), payload));
      // The payload may leave a name empty once its markup is gone: then a 400, nothing stored.
      if (created.status === 400) {
        expect(created.body.code).toBe('rest_invalid_param');
        return;
      }
      expect(created.status).toBe(201);
      const read = await http(t, auth).get(`${API}/events/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body.json_ld).toBeDefined();
      const found = strings(read.body);
      for (const [path, value] of found) {
        if (path.includes('json_ld') || !HTML_FIELD.test(path)) {
          // Plain text (JSON-LD included) never holds markup, whatever decoding a reader applies.
          expect({ path, value, markup: MARKUP.test(value) }).toEqual({ path, value, markup: false });
        } else {
          expect({ path, value, active: ACTIVE.test(value) }).toEqual({ path, value, active: false });
        }
      }
      // Every field was written and read back: nothing dropped by the write itself.
      const marked = found.filter(([, value]) => value.startsWith(`P${n}`)).map(([path]) => path);
      expect(marked).toEqual(expect.arrayContaining(['title', 'venue.venue', 'venue.address', 'organizer[0].phone', 'organizer[0].email']));
      // A term name given with commas is a list of names (README §3): one of them carries the marker.
      expect(marked.some((path) => /^categories\[\d+\]\.name$/.test(path))).toBe(true);
      expect(marked.some((path) => /^tags\[\d+\]\.name$/.test(path))).toBe(true);
    });
  });

  it.each(XSS_PAYLOADS.slice(0, 12).map((payload, n) => [n, payload]))('an administrator keeps what was sent (payload %#)', async (n, payload) => {
    const auth = users.admin.authorization;
    const write = writeWith(100 + Number(n), payload);
    const created = await http(t, auth).post(`${API}/events`).send(write);
    expect(created.status).toBe(201);
    const read = await http(t, auth).get(`${API}/events/${created.body.id}`);
    expect(read.body.title).toBe(String(write.title).trim());
    expect(read.body.venue.address).toBe((write.venue as Json).address);
    expect(read.body.organizer[0].email).toBe(((write.organizer as Json[])[0] as Json).email);
    // JSON-LD is plain text for everyone: markup is never decoded back into existence there.
    for (const [path, value] of strings(read.body.json_ld)) expect({ path, markup: MARKUP.test(value) }).toEqual({ path, markup: false });
  });

  it('a script URL is no website, whoever sends it', async () => {
    for (const website of ['javascript:alert(1)', 'javascript://x/%0Aalert(1)', 'data:text/html,<script>alert(1)</script>']) {
      const res = await http(t, users.admin.authorization)
        .post(`${API}/events`)
        .send({ title: 'Website', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00', website });
      expect({ website, status: res.status, code: res.body.code }).toEqual({ website, status: 400, code: 'rest_invalid_param' });
    }
  });
});
