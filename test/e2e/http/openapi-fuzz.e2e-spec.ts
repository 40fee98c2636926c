// Property-based fuzzing of every route the app documents in its own OpenAPI document.
//
// What: the document served at GET {api_root}/doc is read once; for every path and method in it
// an arbitrary (fast-check) builds requests from the declared path and query parameters and the
// request-body schema. Half the requests are "clean" (only values the spec accepts: known ids
// and slugs of seeded items, dates in the MUST formats, statuses, booleans in their lenient
// forms…, so that writes succeed and move the state on); the other half are "hostile": wrong
// types, huge and negative numbers, empty and multi-KB strings, lone surrogates and private-use
// characters, markup, broken percent-encoding, nested arrays/objects, null, unknown fields,
// parameters on the query string of writes, form, non-JSON and over-deep bodies. Each request
// is sent as one of four callers (anonymous, contributor, author, administrator), and every
// answer must satisfy:
//
//   1. never a 5xx (errors.md: `rest_internal_error` is for bugs only);
//   2. every 4xx has the errors.md shape: a JSON object with a non-empty string `code`, a string
//      `message` and `data.status` equal to the HTTP status (as test/support/expect.ts
//      `expectError` asserts), the code being one errors.md lists with a status it allows, plus
//      the per-code members errors.md describes (`data.params` map/array, `data.details`,
//      `data.term_id`);
//   3. a write (POST/PUT/PATCH/DELETE) answered 4xx changed nothing: every table the API can
//      change is read before and after the request and compared row by row (see `snapshot`).
//      The API cannot show all of that state (the change log, link and search rows), so this
//      is the one place the test reads the database: with read-only SQL (test/support/sql.ts).
//      2xx writes legitimately change state and are not compared.
//
// Why: hand-written e2e tests cover the cases someone thought of; this covers combinations
// nobody wrote down (a valid image URL next to an invalid date, a nested venue in a request
// that then fails, a 3 KB slug on MariaDB…), driven by the same document clients read, so a new
// route or field is fuzzed as soon as it is documented.
//
// Reproducing: runs are deterministic for a seed. The seed is fixed (DEFAULT_SEED) and can be
// overridden with FUZZ_SEED=<n>; fast-check prints the seed and the path of a failure, and
// the error names the concrete request (method, URL, caller, body) and the answer.
// FUZZ_RUNS=<factor> multiplies the number of runs (e.g. FUZZ_RUNS=10 for a long local hunt).
// FUZZ_COLLECT=1 records every violation instead of stopping at the first, and fails at the end
// with all of them (no shrinking then): a survey mode for hunting several bugs in one go.
// FUZZ_STATS=1 prints, at the end, how many answers each operation got by mood, caller, status
// and code: a check that the runs reach the routes' success paths and not only their 400s.
//
// Each request runs against the state earlier requests left (the database is not reset between
// runs: accumulated, odd state is part of what is being fuzzed). Ids and slugs are drawn from
// pools that grow with every 2xx answer, by index, so a replay with the same seed sends the same
// requests.
import fc from 'fast-check';
import qs from 'qs';
import type { Response } from 'supertest';
import { createEvent, createOrganizer, createTerm, createVenue, makeUsers, trashEvent } from '../../support/api';
import { type ImageHost, startImageHost } from '../../support/events';
import { API, http } from '../../support/http';
import { tableRows } from '../../support/sql';
import { createTestApp, type TestApp } from '../../support/test-app';

const DEFAULT_SEED = 20251125;
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : DEFAULT_SEED;
const RUNS_FACTOR = process.env.FUZZ_RUNS !== undefined ? Number(process.env.FUZZ_RUNS) : 1;
const COLLECT = process.env.FUZZ_COLLECT === '1';
const STATS = process.env.FUZZ_STATS === '1';

/** Runs per group of routes (paths under the group's prefix); 680 requests in all. */
const GROUPS: { name: string; prefix: string; runs: number }[] = [
  { name: 'events', prefix: '/events', runs: 240 },
  { name: 'venues', prefix: '/venues', runs: 120 },
  { name: 'organizers', prefix: '/organizers', runs: 120 },
  { name: 'categories', prefix: '/categories', runs: 100 },
  { name: 'tags', prefix: '/tags', runs: 90 },
  { name: 'doc', prefix: '/doc', runs: 10 },
];
/** Runs for documented paths outside every group (a route added later is fuzzed from day one). */
const OTHER_RUNS = 60;

/**
 * Known product bugs, skipped ONLY so the fuzzer can go on finding others. Each entry must be
 * narrow (one route, one input shape) and name its report; remove it when the bug is fixed.
 */
const KNOWN_ISSUES: { id: string; matches: (req: ConcreteRequest, res: Response) => boolean }[] = [
  // (empty: the one entry so far, event updates answering 503 when they restored a trashed
  // event whose trash slug was another event's live slug, was fixed in 5d6b1f7)
];

// ------------------------------------------------------------------------------------------
// errors.md: every code, with the statuses it may be answered with.

const ERROR_STATUSES: Record<string, number[]> = {
  invalid_username: [401],
  incorrect_password: [401],
  rest_no_route: [404],
  rest_invalid_json: [400],
  rest_missing_callback_param: [400],
  rest_invalid_param: [400],
  rest_forbidden: [401, 403],
  rest_cannot_edit_others: [403],
  'rest-event-not-found': [404],
  'rest-invalid-event-id': [400],
  'event-no-longer-available': [403],
  'event-not-accessible': [403],
  'event-is-in-trash': [410],
  'could-not-update-event': [403],
  'event-archive-page-not-found': [404],
  'event-tickets-not-active': [400],
  'venue-not-accessible': [403],
  'organizer-not-accessible': [403],
  'venue-is-in-trash': [410],
  'organizer-is-in-trash': [410],
  'could-not-create-venue': [400],
  'could-not-create-organizer': [400],
  'could-not-update-venue': [400],
  'could-not-update-organizer': [400],
  'invalid-linked-post-id': [400],
  'venue-archive-page-not-found': [404],
  'organizer-archive-page-not-found': [404],
  term_exists: [400],
  duplicate_term_slug: [400],
  'geo-extension-disabled': [400],
  rest_precondition_failed: [412],
  rest_too_many_requests: [429],
  rest_sync_token_expired: [410],
  rest_payload_too_large: [413],
  rest_source_invalid_id: [404],
  rest_source_busy: [409],
  // "414/431 keep their status with this shape"
  rest_invalid_request: [400, 414, 431],
  // recurrence.md §5 names it for GET /events/{id}/occurrences ("errors.md"), though errors.md's
  // table does not list it (a gap of the spec, docs/compatibility.md): the route answers it.
  rest_event_invalid_id: [404],
};

// ------------------------------------------------------------------------------------------
// Pools of real items, filled by the seed and by every 2xx answer; requests name them by index.

type PoolName = 'events' | 'venues' | 'organizers' | 'categories' | 'tags' | 'users' | 'media';
interface PoolEntry {
  id: number;
  slug?: string;
  name?: string;
}

/** "The n-th item of a pool" (modulo its size when the request is sent), as an id, slug or name. */
class Ref {
  constructor(
    readonly pool: PoolName,
    readonly n: number,
    readonly as: 'id' | 'idString' | 'slug' | 'name',
  ) {}
  [fc.toStringMethod](): string {
    return `ref(${this.pool}[${this.n}].${this.as})`;
  }
}

/** Query-string text sent exactly as written (malformed percent-encoding and the like). */
class Raw {
  constructor(readonly text: string) {}
  [fc.toStringMethod](): string {
    return `raw(${JSON.stringify(this.text)})`;
  }
}

/** Refs (or anything) joined by commas when the request is sent: the comma-list form of README §3. */
class Joined {
  constructor(readonly items: unknown[]) {}
  [fc.toStringMethod](): string {
    return `joined(${fc.stringify(this.items)})`;
  }
}

class Pools {
  private readonly entries = new Map<PoolName, PoolEntry[]>();

  add(pool: PoolName, entry: PoolEntry): void {
    const list = this.entries.get(pool) ?? [];
    const known = list.find((e) => e.id === entry.id);
    if (known) Object.assign(known, Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)));
    else list.push({ ...entry });
    this.entries.set(pool, list);
  }

  resolve(ref: Ref): string | number {
    const list = this.entries.get(ref.pool) ?? [];
    if (list.length === 0) return ref.as === 'id' ? 999_999 : 'no-such-item';
    const entry = list[ref.n % list.length];
    switch (ref.as) {
      case 'id':
        return entry.id;
      case 'idString':
        return String(entry.id);
      case 'slug':
        return entry.slug ?? String(entry.id);
      case 'name':
        return entry.name ?? String(entry.id);
    }
  }
}

/** Replaces every Ref inside a generated value by what it names now. */
function resolveRefs(value: unknown, pools: Pools): unknown {
  if (value instanceof Ref) return pools.resolve(value);
  if (value instanceof Raw) return value;
  if (value instanceof Joined) return value.items.map((v) => scalarText(resolveRefs(v, pools))).join(',');
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, pools));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, pools)]));
  }
  return value;
}

// ------------------------------------------------------------------------------------------
// Value arbitraries.

const ref = (pool: PoolName, as: Ref['as'] = 'id') => fc.nat(1000).map((n) => new Ref(pool, n, as));

const HOSTILE_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x1F',
  '007',
  '8640000000001',
  '-8640000000001',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  'null',
  'true',
  'undefined',
  '[]',
  '{}',
  '%zz',
  '%',
  '%00',
  '%C3%28',
  '\u0000',
  '\uD800',
  '\uDFFF\uD800',
  '\uE000\uF8FF',
  '\u{10FFFF}',
  '\u202Eevil',
  '\uFEFF',
  '😀😀😀',
  'ﬃİǅß',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '</textarea><svg onload=alert(1)>',
  '&lt;b&gt;&amp;',
  "' OR '1'='1",
  '1; DROP TABLE events; --',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  '+9999999 years',
  '-9999999 years',
  'now +99999999999 days',
  '+275760-09-13T00:00:00Z',
  '9999-12-31 23:59:59',
  '0000-00-00 00:00:00',
  '2024-02-30 25:61:61',
  '@-62167219200',
  'Europe/Nowhere',
  'UTC+99',
  'javascript:alert(1)',
  'http://',
  'https://exa mple.com',
  'a,b,,c',
  ',',
  ' , ',
  'publish,draft',
  'trash',
];

const oddChar = fc.oneof(
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), // lone surrogates
  fc.integer({ min: 0xe000, max: 0xf8ff }).map((c) => String.fromCharCode(c)), // private use
  fc.constantFrom('\u0000', '\u202e', '\ufeff', '\u200b', '😀', 'é', 'ß', '\n', '\t', '<', '>', '&', '"', "'", '%', '\\', '/', ',', ' ', '[', ']'),
  fc.string({ minLength: 1, maxLength: 1 }),
);

/** A few hundred to a few thousand characters of one repeated piece (cut anywhere, even mid-pair). */
const longString = fc
  .tuple(fc.constantFrom('a', 'é', '😀', '<b>x</b>', '\uE000', 'ab ', '%', '-'), fc.integer({ min: 200, max: 4000 }))
  .map(([piece, n]) => piece.repeat(Math.ceil(n / piece.length)).slice(0, n));

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 16 }) },
  { weight: 2, arbitrary: fc.string({ unit: oddChar, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: longString },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1, 2, 8640000000001, -8640000000001, 2147483647, 2147483648, 4294967296, 9007199254740993, 1e308, -1e308, 0.5, -0, 1e-7),
  fc.integer(),
  fc.double(), // NaN and ±Infinity become null in JSON
);

/** Nested arrays/objects `depth` deep (over the body limit of 32 levels now and then). */
const nested = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i += 1) v = arrays ? [v] : { a: v };
  return v;
});

const hostileScalar = fc.oneof(hostileString, hostileNumber, fc.constantFrom(null, true, false));
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('id', 'a', '0', '__proto__', 'venue', 'organizer', 'name', ''), hostileScalar, { maxKeys: 3 }) },
  { weight: 1, arbitrary: nested },
);

/** Date-times in forms README §6.2 says MUST be accepted. */
const DATES = [
  '2030-06-01 10:00:00',
  '2030-06-01 10:00',
  '2030-06-01',
  '2030-06-01T10:00:00',
  '2030-06-01T10:00:00Z',
  '2030-06-01T10:00:00+02:00',
  '1900000000',
  'now',
  'yesterday',
  'last friday',
  '-2 weeks',
  '+2 weeks',
  '+5 weeks +7200 seconds',
  '+24 months',
];
/**
 * Only for event start/end and list bounds: relative forms that may land minutes from now.
 * (Never as a publication `date`: a scheduled item due during the run would be published by the
 * app's own timer between two snapshots and look like a change made by a refused request.)
 */
const NEAR_DATES = [
  'today',
  'tomorrow',
  'midnight',
  'noon',
  'monday',
  'next wednesday',
  'tomorrow 9am',
  'next wednesday 4pm',
  '2018-01-01 4pm',
  'today 14:00',
  '+5 days 11am',
  '+1 day',
];
const someDate = fc
  .date({ min: new Date('1901-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
const publicationDate = fc.oneof(fc.constantFrom(...DATES), someDate);
const eventDate = fc.oneof(fc.constantFrom(...DATES, ...NEAR_DATES), someDate);
/** Not in the MUST list: `1 January 2031` MAY be accepted; the rest must be refused. */
const badDate = fc.oneof(
  fc.constantFrom('1 January 2031 10:00', '2030/06/01', '06/01/2030', '@1900000000', 'soon', 'before my birthday', '2030-06-01 10:00:00 Europe/Paris'),
  fc.integer({ min: 0, max: 4_102_444_800 }),
);

const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];
const badStatus = fc.constantFrom('trash', 'auto-draft', 'inherit', 'PUBLISH', ' publish', 'publish,draft', 'publish, trash', 'foo', 'any');
const statusFilter = fc.oneof(
  fc.constantFrom(...STATUSES, 'trash', 'publish, draft', 'draft,pending'),
  fc.array(fc.constantFrom(...STATUSES, 'trash'), { minLength: 1, maxLength: 3 }),
);

const looseBool = fc.constantFrom(true, false, '1', '0', 'true', 'false', '');
const badBool = fc.constantFrom('yes', 'no', 'on', 'off', 'TRUE', 2, -1, 'maybe', [], [true], {});

const text = fc.oneof(
  fc.constantFrom('Fuzz item', 'Concert in the park', 'A venue', 'Jazz', 'Music', 'Café René', 'Straße 5', '<b>Bold</b> name'),
  fc.string({ minLength: 1, maxLength: 30 }),
);

/** Image values that should work: known media ids, the local image host, "no image". */
function image(imageBase: string) {
  return fc.oneof(ref('media'), ref('media', 'idString'), fc.constantFrom(0, '', `${imageBase}/photo.jpg`, `${imageBase}/other.png`));
}
/** Image values that should not: other ids, a web page, a 404, a closed local port (refused at once), junk. */
function badImage(imageBase: string) {
  return fc.oneof(
    ref('events'),
    fc.constantFrom(
      false,
      999_999,
      `${imageBase}/page.html`,
      `${imageBase}/missing.gif`,
      'http://127.0.0.1:1/x.jpg',
      'foo bar',
      'file:///etc/passwd',
      'data:image/png;base64,AAAA',
    ),
  );
}

const website = fc.constantFrom('https://example.com/a', 'http://example.org', '', 'https://例え.jp/パス?q=1#f');
const badWebsite = fc.constantFrom('foo', 'javascript:alert(1)', 'ftp://x.example', '//x.example', 'http://', 'http://[::1', 'https://exa mple.com');
const timezone = fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kathmandu', 'UTC+5:30', 'UTC-12', 'UTC+14', '', 'Etc/GMT+12');
const badTimezone = fc.constantFrom('UTC+99', '+02:00', 'Mars/Olympus', 'utc', 'Europe/Paris ', 'UTC+5:75');
const cost = fc.oneof(fc.constantFrom('10', 'Free', '$5 - $10', '', '0', '1,000.50 €'), fc.array(fc.constantFrom('5', '10', 'free', ''), { maxLength: 3 }));

/** Categories/tags in an event write: ids, names, new names, as an array or a comma list. */
function termList(pool: 'categories' | 'tags') {
  const item = fc.oneof(ref(pool), ref(pool, 'idString'), ref(pool, 'name'), ref(pool, 'slug'), fc.constantFrom('New term', 'jazz', '999999'), text);
  return fc.oneof(fc.array(item, { maxLength: 4 }), item, fc.constantFrom('', 'a,b', 'outdoor, family'));
}

/** A new venue or organizer given inline in an event write (`bad` mixes invalid fields in). */
function newLinked(kind: 'venue' | 'organizer', imageBase: string, bad: boolean) {
  const mix = <T, U>(ok: fc.Arbitrary<T>, wrong: fc.Arbitrary<U>) => (bad ? fc.oneof(ok, wrong) : ok);
  const fields: Record<string, fc.Arbitrary<unknown>> = kind === 'venue'
    ? {
        venue: mix(text, hostileValue),
        city: mix(text, hostileValue),
        zip: mix(fc.constantFrom('00100', '10001'), hostileString),
        country: text,
        website: mix(website, badWebsite),
        show_map: mix(looseBool, badBool),
        image: mix(image(imageBase), badImage(imageBase)),
      }
    : {
        organizer: mix(text, hostileValue),
        email: text,
        phone: mix(fc.constantFrom('+39 06 123'), hostileString),
        website: mix(website, badWebsite),
        image: mix(image(imageBase), badImage(imageBase)),
      };
  return fc.record({ ...fields, status: mix(fc.constantFrom(...STATUSES), badStatus), description: text }, { requiredKeys: [kind] as never[] });
}

function linkedValue(kind: 'venue' | 'organizer', imageBase: string) {
  const pool = kind === 'venue' ? 'venues' : 'organizers';
  const single = fc.oneof(
    { weight: 3, arbitrary: ref(pool) },
    { weight: 1, arbitrary: ref(pool, 'idString') },
    { weight: 1, arbitrary: fc.constantFrom(0, '0', '', null, [], {}) },
    { weight: 1, arbitrary: fc.record({ id: ref(pool) }) },
    { weight: 2, arbitrary: newLinked(kind, imageBase, false) },
  );
  return kind === 'venue'
    ? fc.oneof(
        single,
        single.map((v) => [v]),
      )
    : fc.oneof(
        single,
        fc.array(single, { minLength: 1, maxLength: 3 }),
        fc.array(ref(pool), { maxLength: 3 }).map((ids) => new Joined(ids)),
      );
}

function badLinkedValue(kind: 'venue' | 'organizer', imageBase: string) {
  const pool = kind === 'venue' ? 'venues' : 'organizers';
  const single = fc.oneof(
    fc.constantFrom(999_999, 'abc', -1),
    fc.record({ id: fc.oneof(ref('events'), ref('media'), ref(kind === 'venue' ? 'organizers' : 'venues'), hostileScalar) }),
    newLinked(kind, imageBase, true),
    fc.constant({ [kind]: '' }),
  );
  return fc.oneof(single, fc.array(fc.oneof(single, ref(pool)), { minLength: 2, maxLength: 3 }));
}

const idList = (pool: PoolName) => fc.array(ref(pool), { minLength: 1, maxLength: 3 });
const badIdList = fc.oneof(fc.array(fc.constantFrom(0, -1, 999_999, 'abc', '1.5'), { minLength: 1, maxLength: 3 }), fc.constantFrom('', ',', '1,,2'));

type Resource = 'events' | 'venues' | 'organizers' | 'categories' | 'tags' | 'doc';

/**
 * The values of one parameter or body field by resource and name (schema type as fallback):
 * `ok` ones the spec accepts (or that name real items), `bad` ones it should refuse with a 4xx.
 */
function valuesFor(
  resource: Resource,
  name: string,
  schema: Schema,
  imageBase: string,
  inQuery: boolean,
): { ok: fc.Arbitrary<unknown>; bad?: fc.Arbitrary<unknown> } {
  const kindPool = (resource === 'doc' ? 'events' : resource) as PoolName;
  switch (name) {
    case 'date':
    case 'date_utc':
      return { ok: publicationDate, bad: badDate };
    case 'start_date':
    case 'end_date':
    case 'starts_before':
    case 'starts_after':
    case 'ends_before':
    case 'ends_after':
      return { ok: eventDate, bad: badDate };
    case 'status':
      return inQuery ? { ok: statusFilter, bad: badStatus } : { ok: fc.constantFrom(...STATUSES), bad: badStatus };
    case 'author':
      return { ok: ref('users'), bad: fc.constantFrom(0, 999_999, 'foo', '') };
    case 'timezone':
      return { ok: timezone, bad: badTimezone };
    case 'website':
      return { ok: website, bad: badWebsite };
    case 'image':
      return { ok: image(imageBase), bad: badImage(imageBase) };
    case 'cost':
      return { ok: cost, bad: fc.array(fc.integer(), { maxLength: 3 }) };
    case 'page':
      return { ok: fc.constantFrom(1, 1, 1, 2, 3, 100), bad: fc.constantFrom(0, -1, '1.5', 'abc', 8640000000001) };
    case 'per_page':
      return { ok: fc.constantFrom(1, 10, 50, 51, 100), bad: fc.constantFrom(0, -5, '', 'ten') };
    case 'order':
      return { ok: fc.constantFrom('asc', 'desc', 'ASC', 'sideways'), bad: fc.constant('') };
    case 'orderby':
      return { ok: fc.constantFrom(...((schema.enum as string[] | undefined) ?? ['name']), 'bogus', 'parent'), bad: fc.constant('') };
    case 'search':
      return {
        ok: fc.oneof(fc.constantFrom('fuzz', 'jazz hall', '"concert in"', 'ß', '%', '_', 'a', 'rome, italy'), ref(kindPool, 'name')),
        bad: fc.constant(''),
      };
    case 'slug':
      return { ok: fc.oneof(ref(kindPool, 'slug'), fc.constantFrom('fuzz-item', 'new-slug', 'Ünïcode Slug', '---', '__trashed')), bad: fc.constant('') };
    case 'categories':
    case 'tags':
      return inQuery
        ? {
            ok: fc.array(fc.oneof(ref(name, 'slug'), ref(name, 'idString')), { minLength: 1, maxLength: 3 }),
            bad: fc.array(fc.constantFrom('no-such-term', '999999', ''), { minLength: 1, maxLength: 2 }),
          }
        : {
            ok: termList(name),
            bad: fc.oneof(
              fc.array(hostileValue, { minLength: 1, maxLength: 3 }),
              longString.map((s) => [s]),
            ),
          };
    case 'venue':
      if (resource === 'venues') return { ok: text, bad: fc.constant('') };
      return inQuery ? { ok: idList('venues'), bad: badIdList } : { ok: linkedValue('venue', imageBase), bad: badLinkedValue('venue', imageBase) };
    case 'organizer':
      if (resource === 'organizers') return { ok: text, bad: fc.constant('') };
      return inQuery ? { ok: idList('organizers'), bad: badIdList } : { ok: linkedValue('organizer', imageBase), bad: badLinkedValue('organizer', imageBase) };
    case 'include':
    case 'exclude':
      return { ok: idList(resource === 'categories' || resource === 'tags' ? resource : 'events'), bad: badIdList };
    case 'parent':
      return { ok: fc.oneof(ref('categories'), fc.constant(0)), bad: fc.oneof(ref('tags'), fc.constantFrom(999_999, '', 'foo')) };
    case 'post':
    case 'event':
    case 'post_parent':
      return { ok: ref('events'), bad: fc.oneof(ref('venues'), fc.constantFrom(0, 999_999, '', 'foo')) };
    case 'geoloc':
    case 'geoloc_lat':
    case 'geoloc_lng':
      // the geo extension is off: any of these is 400 geo-extension-disabled (geo.md)
      return { ok: fc.constant(undefined), bad: fc.oneof(fc.double({ min: -200, max: 200, noNaN: true }), looseBool) };
    case 'ticketed':
      return { ok: fc.constantFrom(false, 'false', '0'), bad: fc.constantFrom(true, '1') };
    default:
      break;
  }
  switch (schema.type) {
    case 'boolean':
      return { ok: looseBool, bad: badBool };
    case 'integer':
    case 'number':
      return { ok: ref(kindPool), bad: hostileNumber };
    case 'array':
      return { ok: fc.array(text, { maxLength: 3 }) };
    case 'object':
      return { ok: fc.dictionary(fc.string({ maxLength: 6 }), text, { maxKeys: 3 }) };
    default:
      return { ok: text, bad: fc.oneof(fc.constant(''), longString) };
  }
}

/**
 * A request is generated in one of two moods: `clean` uses only values the spec accepts (so
 * that writes succeed and later requests meet changed state), `hostile` mixes in values it
 * should refuse and values of any type.
 */
type Mood = 'clean' | 'hostile';

function fieldValue(resource: Resource, name: string, schema: Schema, imageBase: string, inQuery: boolean, mood: Mood): fc.Arbitrary<unknown> {
  const { ok, bad } = valuesFor(resource, name, schema, imageBase, inQuery);
  if (mood === 'clean') return ok;
  return fc.oneof({ weight: 3, arbitrary: ok }, { weight: 2, arbitrary: bad ?? hostileValue }, { weight: 2, arbitrary: hostileValue });
}

// ------------------------------------------------------------------------------------------
// Requests: from the OpenAPI operation to a generated (symbolic) request, then a concrete one.

interface Schema {
  type?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  $ref?: string;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  method: Method;
  path: string;
  resource: Resource;
  parameters: Parameter[];
  body?: Schema;
}
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Caller = 'anonymous' | 'contributor' | 'author' | 'admin';
const WRITE_METHODS: Method[] = ['post', 'put', 'patch', 'delete'];

/** One query parameter as sent: its value and the form it is written in. */
interface QueryPart {
  key: string;
  value: unknown;
  /** 0 `k=a,b`, 1 `k[]=a&k[]=b`, 2 `k[0]=a&k[1]=b`, 3 `k=a&k=b` (arrays); objects are always `k[x]=v`. */
  form: number;
}
type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; type: string; text: string } | { kind: 'form'; value: unknown };
interface GeneratedRequest {
  op: string;
  mood: Mood;
  caller: Caller;
  path: Record<string, unknown>;
  query: QueryPart[];
  body: Body;
}
interface ConcreteRequest {
  method: Method;
  url: string;
  caller: Caller;
  contentType?: string;
  payload?: string | object;
}

const operationName = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;

/** The operations of the document, with $refs of request bodies resolved. */
function operationsOf(doc: {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}): Operation[] {
  const deref = (s: Schema | undefined): Schema | undefined => (s?.$ref ? doc.components?.schemas?.[s.$ref.split('/').pop()!] : s);
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const resource = path.split('/')[1] as Resource;
      const body = deref(op.requestBody?.content?.['application/json']?.schema);
      ops.push({ method: method as Method, path, resource, parameters: op.parameters ?? [], body });
    }
  }
  return ops;
}

const EXTRA_QUERY_KEYS = [
  'id',
  'password',
  'force',
  'context',
  '_fields',
  'namespace',
  '__proto__[polluted]',
  'constructor[prototype][x]',
  'a[b][c][d][e][f][g]',
  '',
];
const RAW_QUERY = ['%zz', 'a=%', '%C3%28=1', 'search=%FF%FE', '&&&', '=x', 'page=1&page=2', 'status[$ne]=x'];

function pathValue(op: Operation, name: string, mood: Mood): fc.Arbitrary<unknown> {
  const own = op.resource as PoolName;
  if (name === 'slug') {
    const known = ref(own, 'slug');
    if (mood === 'clean') return known;
    return fc.oneof(
      { weight: 3, arbitrary: known },
      { weight: 1, arbitrary: ref(own === 'events' ? 'venues' : 'events', 'slug') },
      { weight: 3, arbitrary: hostileString.filter((s) => s.length > 0) },
      { weight: 1, arbitrary: fc.constantFrom(new Raw('%zz'), new Raw('%C3%28'), new Raw('a%2Fb'), new Raw('%00')) },
    );
  }
  if (mood === 'clean') return ref(own);
  const other: PoolName[] = (['events', 'venues', 'organizers', 'categories', 'tags', 'media'] as PoolName[]).filter((p) => p !== own);
  return fc.oneof(
    { weight: 3, arbitrary: ref(own) },
    { weight: 2, arbitrary: fc.constantFrom(...other).chain((p) => ref(p)) },
    { weight: 2, arbitrary: fc.constantFrom(0, 999_999, 2147483648, 8640000000001, '00012', '1e3', '-1', '1.5', 'abc', ' 1') },
    { weight: 1, arbitrary: fc.constantFrom(new Raw('%zz'), new Raw('1%00'), new Raw('9'.repeat(600))) },
  );
}

function queryArbitrary(op: Operation, imageBase: string, mood: Mood): fc.Arbitrary<QueryPart[]> {
  const declared = op.parameters.filter((p) => p.in === 'query');
  const part = (key: string, value: fc.Arbitrary<unknown>) => fc.record({ key: fc.constant(key), value, form: fc.nat(3) });
  // a handful of parameters at a time: each filter narrows (AND), and each hostile one is a 400
  const parts = declared.map((p) =>
    sometimes(part(p.name, fieldValue(op.resource, p.name, p.schema ?? {}, imageBase, true, mood)), mood === 'clean' ? 2 : 3, declared.length, null),
  );
  // README §2: a write takes its parameters from the query string too (the body wins)
  const fields = Object.entries(op.body?.properties ?? {});
  const bodyParts = fields.map(([name, schema]) =>
    sometimes(part(name, fieldValue(op.resource, name, schema, imageBase, false, mood)), 2, fields.length, null),
  );
  const fromBody =
    bodyParts.length === 0 ? fc.constant([]) : fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.tuple(...bodyParts) });
  const extras = fc.array(
    fc.oneof(
      part('x', hostileValue).chain((q) => fc.constantFrom(...EXTRA_QUERY_KEYS).map((key) => ({ ...q, key }))),
      fc.constantFrom(...RAW_QUERY).map((text) => ({ key: '', value: new Raw(text), form: 0 })),
    ),
    { minLength: 1, maxLength: 2 },
  );
  const extra = mood === 'clean' ? fc.constant([]) : fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: extras });
  return fc
    .tuple(fc.tuple(...parts), fromBody, extra)
    .map(([given, body, more]) => [...[...given, ...body].filter((p): p is QueryPart => p !== null && p.value !== undefined), ...more]);
}

/** `value` in about `expected` of `outOf` draws, else `absent`. */
function sometimes<T, A>(value: fc.Arbitrary<T>, expected: number, outOf: number, absent: A): fc.Arbitrary<T | A> {
  const present = Math.min(expected, outOf);
  return present >= outOf ? value : fc.oneof({ weight: outOf - present, arbitrary: fc.constant(absent) }, { weight: present, arbitrary: value });
}

const UNKNOWN_FIELDS = ['id', 'rest_url', 'global_id', 'json_ld', 'count', 'taxonomy', 'modified', 'unknown_field', 'meta', 'password', 'force'];

function bodyArbitrary(op: Operation, imageBase: string, mood: Mood): fc.Arbitrary<Body> {
  if (!op.body?.properties) return fc.constant({ kind: 'none' });
  const required = new Set(op.body.required ?? []);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const names = Object.keys(op.body.properties);
  for (const [name, schema] of Object.entries(op.body.properties)) {
    const value = fieldValue(op.resource, name, schema, imageBase, false, mood);
    // required fields nearly always (clean) or mostly (hostile); about three optional ones
    fields[name] = required.has(name)
      ? sometimes(value, mood === 'clean' ? 49 : 7, 1 + (mood === 'clean' ? 49 : 7), undefined)
      : sometimes(value, 3, names.length, undefined);
  }
  const unknown = fc.dictionary(fc.constantFrom(...UNKNOWN_FIELDS), hostileValue, { minKeys: 1, maxKeys: 2 });
  const object = fc
    .tuple(fc.record(fields), mood === 'clean' ? fc.constant({}) : fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: unknown }))
    .map(([known, extra]) => Object.fromEntries(Object.entries({ ...extra, ...known }).filter(([, v]) => v !== undefined)));
  if (mood === 'clean')
    return fc.oneof(
      { weight: 12, arbitrary: object.map((value): Body => ({ kind: 'json', value })) },
      { weight: 1, arbitrary: object.map((value): Body => ({ kind: 'form', value })) },
    );
  return fc.oneof(
    { weight: 12, arbitrary: object.map((value): Body => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: object.map((value): Body => ({ kind: 'form', value })) },
    { weight: 1, arbitrary: fc.oneof(hostileScalar, fc.array(hostileScalar, { maxLength: 3 }), nested).map((value): Body => ({ kind: 'json', value })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'application/json',
            'application/json; charset=UTF-8',
            'application/vnd.api+json',
            'text/plain',
            'application/xml',
            'multipart/form-data; boundary=x',
          ),
          fc.constantFrom(
            '',
            '{',
            '{"title":',
            '{"a":1,}',
            'null',
            '[]',
            '"str"',
            '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
            `{"name":${'['.repeat(40)}${']'.repeat(40)}}`,
            '\u0000',
            'title=x&start_date=now',
          ),
        )
        .map(([type, text]): Body => ({ kind: 'text', type, text })),
    },
  );
}

function operationArbitrary(op: Operation, imageBase: string): fc.Arbitrary<GeneratedRequest> {
  const writes = WRITE_METHODS.includes(op.method);
  const caller: fc.Arbitrary<Caller> = writes
    ? fc.constantFrom<Caller>('admin', 'admin', 'author', 'contributor', 'anonymous')
    : fc.constantFrom<Caller>('anonymous', 'contributor', 'author', 'admin');
  const inMood = (mood: Mood) => {
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    return fc.record({
      op: fc.constant(operationName(op)),
      mood: fc.constant(mood),
      caller,
      path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(op, p.name, mood)]))),
      query: queryArbitrary(op, imageBase, mood),
      body: writes ? bodyArbitrary(op, imageBase, mood) : fc.constant<Body>({ kind: 'none' }),
    });
  };
  return fc.oneof({ weight: 1, arbitrary: inMood('clean') }, { weight: 1, arbitrary: inMood('hostile') });
}

/** Percent-encodes the UTF-8 bytes of `s` (lone surrogates become U+FFFD, as any UTF-8 client sends them). */
function pct(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const scalarText = (v: unknown): string => (typeof v === 'string' ? v : v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function queryString(parts: QueryPart[]): string {
  const out: string[] = [];
  const pair = (key: string, v: unknown) => (v instanceof Raw ? `${key}=${v.text}` : v === null ? key : `${key}=${pct(scalarText(v))}`);
  for (const { key, value, form } of parts) {
    if (value instanceof Raw && key === '') out.push(value.text);
    else if (Array.isArray(value)) {
      if (form === 0) out.push(`${pct(key)}=${value.map((v) => pct(scalarText(v))).join(',')}`);
      else value.forEach((v, i) => out.push(pair(form === 1 ? `${pct(key)}[]` : form === 2 ? `${pct(key)}[${i}]` : pct(key), v)));
    } else if (value !== null && typeof value === 'object' && !(value instanceof Raw)) {
      for (const [k, v] of Object.entries(value)) out.push(pair(`${pct(key)}[${pct(k)}]`, v));
    } else out.push(pair(/[[\]]/.test(key) ? key : pct(key), value));
  }
  return out.join('&');
}

function concrete(op: Operation, g: GeneratedRequest, pools: Pools): ConcreteRequest {
  let path = op.path;
  for (const [name, value] of Object.entries(resolveRefs(g.path, pools) as Record<string, unknown>)) {
    path = path.replace(`{${name}}`, value instanceof Raw ? value.text : pct(scalarText(value)));
  }
  const query = queryString(resolveRefs(g.query, pools) as QueryPart[]);
  const url = `${API}${path}${query ? `?${query}` : ''}`;
  const req: ConcreteRequest = { method: op.method, url, caller: g.caller };
  const body = g.body;
  if (body.kind === 'json') {
    req.contentType = 'application/json';
    req.payload = JSON.stringify(resolveRefs(body.value, pools)) ?? '';
  } else if (body.kind === 'form') {
    req.contentType = 'application/x-www-form-urlencoded';
    req.payload = qs.stringify(resolveRefs(body.value, pools));
  } else if (body.kind === 'text') {
    req.contentType = body.type;
    req.payload = body.text;
  }
  return req;
}

// ------------------------------------------------------------------------------------------
// State fingerprint.

/**
 * Tables left out of the comparison, because a change there is not one a client can observe:
 * `write_locks` holds one lock row per name ever locked (docs/architecture.md, "Concurrent writers"). Every other table is
 * compared (test/support/sql.ts finds them from the connection's metadata, so a table added later
 * is compared too); the change log `changes` included, since the change feed and the caches of
 * other instances read it.
 */
const NOT_STATE = new Set(['write_locks']);

/** Every row of every other table, as JSON lines, by table: read-only SQL, since no response shows all of it. */
const snapshot = (t: TestApp) => tableRows(t, NOT_STATE);

/** What differs between two snapshots, readably (at most a few rows per table); '' when nothing. */
function diff(before: Map<string, string[]>, after: Map<string, string[]>): string {
  const lines: string[] = [];
  for (const [table, rows] of before) {
    const now = after.get(table) ?? [];
    const gone = rows.filter((r) => !now.includes(r));
    const added = now.filter((r) => !rows.includes(r));
    if (gone.length === 0 && added.length === 0) continue;
    lines.push(`  ${table}: ${rows.length} → ${now.length} rows`);
    for (const r of gone.slice(0, 3)) lines.push(`    - ${r.slice(0, 400)}`);
    for (const r of added.slice(0, 3)) lines.push(`    + ${r.slice(0, 400)}`);
  }
  return lines.join('\n');
}

// ------------------------------------------------------------------------------------------
// The checks.

/** What is wrong with the shape of a 4xx answer (errors.md), or null. */
function shapeProblem(res: Response): string | null {
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return `content-type is "${type}", not JSON`;
  const body = res.body as Record<string, unknown> | undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  if (typeof body.code !== 'string' || body.code === '') return '`code` is not a non-empty string';
  if (typeof body.message !== 'string') return '`message` is not a string';
  const data = body.data as Record<string, unknown> | undefined;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return '`data` is not an object';
  if (data.status !== res.status) return `data.status is ${JSON.stringify(data.status)}, the HTTP status ${res.status}`;
  const allowed = ERROR_STATUSES[body.code];
  if (!allowed) return `code "${body.code}" is not in errors.md`;
  if (!allowed.includes(res.status)) return `code "${body.code}" with status ${res.status} (errors.md: ${allowed.join('/')})`;
  if (body.code === 'rest_invalid_param') {
    const params = data.params as Record<string, unknown> | undefined;
    if (params === null || typeof params !== 'object' || Array.isArray(params)) return 'rest_invalid_param without a data.params object';
    if (Object.keys(params).length === 0) return 'rest_invalid_param naming no parameter (data.params is empty)';
    if (!Object.values(params).every((m) => typeof m === 'string')) return 'data.params has a non-string message';
    if (data.details === null || typeof data.details !== 'object' || Array.isArray(data.details)) return 'rest_invalid_param without a data.details object';
  }
  if (body.code === 'rest_missing_callback_param') {
    const params = data.params;
    if (!Array.isArray(params) || params.length === 0 || !params.every((p) => typeof p === 'string'))
      return 'rest_missing_callback_param without a non-empty data.params array of names';
  }
  if (body.code === 'term_exists' && typeof data.term_id !== 'number') return 'term_exists without a numeric data.term_id';
  return null;
}

function describeExchange(req: ConcreteRequest, res: Response | null): string {
  const payload = req.payload === undefined ? '(none)' : typeof req.payload === 'string' ? req.payload : JSON.stringify(req.payload);
  const lines = [
    `  request:  ${req.method.toUpperCase()} ${req.url.length > 600 ? `${req.url.slice(0, 600)}… (${req.url.length} chars)` : req.url}`,
    `  caller:   ${req.caller}`,
    `  body:     ${req.contentType ? `[${req.contentType}] ` : ''}${payload.length > 1500 ? `${payload.slice(0, 1500)}… (${payload.length} chars)` : payload}`,
  ];
  if (res) lines.push(`  answer:   ${res.status} ${res.headers['content-type'] ?? ''}`, `  response: ${(res.text ?? '').slice(0, 1500)}`);
  return lines.join('\n');
}

// ------------------------------------------------------------------------------------------

describe('OpenAPI-driven fuzz: no 5xx, errors.md-shaped 4xx, no state change after a 4xx', () => {
  let t: TestApp;
  let imageHost: ImageHost;
  let ops: Operation[];
  const auth: Record<Caller, string | undefined> = { anonymous: undefined, contributor: undefined, author: undefined, admin: undefined };
  const pools = new Pools();
  const violations: string[] = [];
  const knownHits = new Map<string, number>();
  /** FUZZ_STATS=1: answers by operation, caller and status, printed at the end (to see what the runs reach). */
  const stats = new Map<string, number>();

  /** Records the items of a 2xx answer in the pools (and what an event embeds). */
  function remember(resource: Resource, body: unknown): void {
    if (resource === 'doc' || body === null || typeof body !== 'object') return;
    const items = Array.isArray(body) ? body : [body];
    for (const item of items as Record<string, unknown>[]) {
      if (typeof item?.id !== 'number') continue;
      const name = (item.title ?? item.venue ?? item.organizer ?? item.name) as unknown;
      pools.add(resource as PoolName, {
        id: item.id,
        slug: typeof item.slug === 'string' ? item.slug : undefined,
        name: typeof name === 'string' ? name : undefined,
      });
      const img = item.image as { id?: unknown } | false | undefined;
      if (img && typeof img.id === 'number') pools.add('media', { id: img.id });
      if (resource === 'events') {
        const venue = item.venue as Record<string, unknown> | [];
        if (venue && !Array.isArray(venue)) remember('venues', venue);
        if (Array.isArray(item.organizer)) remember('organizers', item.organizer);
        if (Array.isArray(item.categories)) remember('categories', item.categories);
        if (Array.isArray(item.tags)) remember('tags', item.tags);
      }
    }
  }

  async function send(req: ConcreteRequest): Promise<Response> {
    let r = http(t, auth[req.caller])[req.method](req.url);
    if (req.contentType) r = r.set('Content-Type', req.contentType);
    if (req.payload !== undefined) r = r.send(req.payload);
    return r;
  }

  /** Sends one generated request and checks the three properties; throws (or records) a violation. */
  async function check(op: Operation, g: GeneratedRequest): Promise<void> {
    const req = concrete(op, g, pools);
    const writes = WRITE_METHODS.includes(req.method);
    const before = writes ? await snapshot(t) : null;
    const res = await send(req);
    if (STATS) {
      const key = `${g.op} ${g.mood} ${req.caller} ${res.status} ${res.status >= 400 ? res.body?.code : ''}`;
      stats.set(key, (stats.get(key) ?? 0) + 1);
    }
    const known = KNOWN_ISSUES.find((k) => k.matches(req, res));
    if (known) {
      knownHits.set(known.id, (knownHits.get(known.id) ?? 0) + 1);
      return;
    }
    let problem: string | null = null;
    if (res.status >= 500) problem = `answered ${res.status} (property 1: never a 5xx)`;
    else if (res.status >= 400) {
      const shape = shapeProblem(res);
      if (shape) problem = `4xx out of the errors.md shape: ${shape} (property 2)`;
      else if (before) {
        const changed = diff(before, await snapshot(t));
        if (changed) problem = `state changed although the write answered ${res.status} (property 3):\n${changed}`;
      }
    } else if (res.status < 300) {
      remember(op.resource, res.body);
    }
    if (!problem) return;
    const message = `${problem}\n${describeExchange(req, res)}`;
    if (!COLLECT) throw new Error(message);
    violations.push(message);
  }

  beforeAll(async () => {
    imageHost = await startImageHost();
    // Image URLs point at a local host (private addresses allowed), so that images can really
    // be attached; no generated URL points anywhere else that could be slow to answer.
    t = await createTestApp({ CALENDAR_ALLOW_PRIVATE_URLS: 'on' });
    const users = await makeUsers(t, 'fz');
    auth.admin = users.admin.authorization;
    auth.author = users.author.authorization;
    auth.contributor = users.contributor.authorization;
    for (const u of Object.values(users)) pools.add('users', { id: u.id });

    // A small world: terms (with a parent), venues, organizers, events of every status and owner.
    const admin = users.admin.authorization;
    const music = await createTerm(t, admin, 'categories', { name: 'Music' });
    const jazz = await createTerm(t, admin, 'categories', { name: 'Jazz', parent: music.id });
    remember('categories', [music, jazz, await createTerm(t, admin, 'categories', { name: 'Sports', description: 'Games' })]);
    remember('tags', [await createTerm(t, admin, 'tags', { name: 'outdoor' }), await createTerm(t, admin, 'tags', { name: 'family' })]);
    const hall = await createVenue(t, admin, { venue: 'Fuzz Hall', city: 'Rome', country: 'Italy', website: 'https://example.com' });
    remember('venues', [hall, await createVenue(t, users.contributor.authorization, { venue: 'Draft venue', description: 'by a contributor' })]);
    const org = await createOrganizer(t, admin, { organizer: 'Fuzz Org', email: 'org@example.com' });
    remember('organizers', [org, await createOrganizer(t, users.author.authorization, { organizer: 'Author org', status: 'draft' })]);
    remember('events', [
      await createEvent(t, admin, {
        title: 'Fuzz concert',
        venue: hall.id,
        organizer: [org.id],
        categories: [jazz.id],
        tags: ['outdoor'],
        image: `${imageHost.base}/photo.jpg`,
      }),
      await createEvent(t, admin, { title: 'Private party', status: 'private' }),
      await createEvent(t, admin, { title: 'Scheduled show', status: 'future', date: '2098-01-01 00:00:00' }),
      await createEvent(t, users.author.authorization, { title: 'Author talk', categories: ['Music'] }),
      await createEvent(t, users.contributor.authorization, { title: 'Contributor draft', organizer: { organizer: 'Inline org' } }),
    ]);
    const trashed = await createEvent(t, admin, { title: 'Trashed event' });
    remember('events', await trashEvent(t, admin, trashed.id));

    const doc = await http(t).get(`${API}/doc`);
    if (doc.status !== 200) throw new Error(`GET /doc answered ${doc.status}`);
    ops = operationsOf(doc.body);
  }, 60_000);

  afterAll(async () => {
    if (STATS)
      console.log(
        [...stats]
          .sort()
          .map(([k, n]) => `${String(n).padStart(4)} ${k}`)
          .join('\n'),
      );
    if (knownHits.size > 0) console.log(`openapi-fuzz: known issues skipped: ${JSON.stringify(Object.fromEntries(knownHits))}`);
    await t?.close();
    await imageHost?.close();
  });

  it('the document lists the routes of endpoints.md, each with the methods to fuzz', () => {
    const paths = new Set(ops.map((o) => o.path));
    for (const group of GROUPS) expect([...paths].some((p) => p.startsWith(group.prefix))).toBe(true);
    expect(ops.filter((o) => o.body).length).toBeGreaterThan(20);
  });

  const under = (prefix: string, op: Operation) => op.path === prefix || op.path.startsWith(`${prefix}/`);

  async function fuzz(groupOps: Operation[], runs: number): Promise<void> {
    const byName = new Map(groupOps.map((op) => [operationName(op), op]));
    const arbitrary = fc.oneof(...groupOps.map((op) => operationArbitrary(op, imageHost.base)));
    await fc.assert(
      fc.asyncProperty(arbitrary, (g) => check(byName.get(g.op)!, g)),
      { numRuns: Math.max(1, Math.round(runs * RUNS_FACTOR)), seed: SEED },
    );
  }

  it.each(GROUPS)(
    '$name routes ($runs runs)',
    async ({ prefix, runs }) =>
      fuzz(
        ops.filter((op) => under(prefix, op)),
        runs,
      ),
    300_000,
  );

  it(`documented routes outside these groups, if any (${OTHER_RUNS} runs)`, async () => {
    const others = ops.filter((op) => !GROUPS.some((g) => under(g.prefix, op)));
    if (others.length > 0) await fuzz(others, OTHER_RUNS);
  }, 300_000);

  it('no violation was recorded (FUZZ_COLLECT=1 only)', () => {
    if (violations.length > 0) throw new Error(`${violations.length} violation(s):\n\n${violations.join('\n\n')}`);
  });
});
