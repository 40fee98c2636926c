// The routes of the twins in the OpenAPI document (GET {api_root}/doc): venues and organizers,
// categories and tags. Each pair is written once, as one controller definition
// parameterised by its kind; this file pins what clients and generated SDKs rely on so that the
// fold can change no route: the operation ids, the parameters and where they go, the request
// and answer schemas, the statuses, the tags, the security and the error codes of every route.
import { servedDocument } from '../../support/openapi';
import { createTestApp, type TestApp } from '../../support/test-app';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
type Content = Record<string, { schema?: { $ref?: string; oneOf?: { $ref?: string }[] } }>;
interface Operation {
  operationId: string;
  tags: string[];
  security: object[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Content };
  responses: Record<string, { description: string; content?: Content }>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

/** One route as this test pins it down. */
interface Pinned {
  operationId: string;
  tags: string[];
  params: string[];
  body?: string;
  answer: string;
  statuses: string[];
  security: object[];
}

const PUBLIC = [{}, { basicAuth: [] }];
const LOGIN = [{ basicAuth: [] }];
const schemaName = (content?: Content) => {
  const schema = content?.['application/json']?.schema;
  return (schema?.$ref ?? schema?.oneOf?.[0]?.$ref ?? '').replace('#/components/schemas/', '');
};
const paramNames = (op: Operation) => (op.parameters ?? []).map((p) => `${p.in}:${p.name}${p.required ? '!' : ''}`);

/** The routes of a venue-like kind (venues, organizers): by id and by slug. */
function linkedItemRoutes(plural: string, Kind: string): Record<string, Pinned> {
  const C = `${Kind}sController`;
  const statuses = {
    list: ['200', '304', '400', '401', '404', '429', '500'],
    create: ['201', '400', '401', '403', '413', '429', '500'],
    read: ['200', '304', '400', '401', '403', '404', '429', '500'],
    update: ['200', '400', '401', '403', '404', '412', '413', '429', '500'],
    delete: ['200', '400', '401', '403', '404', '410', '412', '429', '500'],
  };
  const bySlug = (s: string[]) => s.filter((x) => x !== '404');
  const tags = [plural];
  const routes: Record<string, Pinned> = {
    [`GET /${plural}`]: {
      operationId: `${C}_list`,
      tags,
      params: [
        'query:page',
        'query:per_page',
        'query:modified_after',
        'query:search',
        'query:event',
        'query:has_events',
        'query:only_with_upcoming',
        'query:status',
        'header:If-None-Match',
        'query:_fields',
      ],
      answer: `${Kind}List`,
      statuses: statuses.list,
      security: PUBLIC,
    },
    [`POST /${plural}`]: {
      operationId: `${C}_create`,
      tags,
      params: [],
      body: `Create${Kind}Dto`,
      answer: Kind,
      statuses: statuses.create,
      security: LOGIN,
    },
  };
  for (const [by, path, param, suffix] of [
    ['id', `/${plural}/{id}`, 'path:id!', ''],
    ['slug', `/${plural}/by-slug/{slug}`, 'path:slug!', 'BySlug'],
  ] as const) {
    const s = (list: string[]) => (by === 'slug' ? bySlug(list) : list);
    routes[`GET ${path}`] = {
      operationId: `${C}_get${suffix}`,
      tags,
      params: [param, 'header:If-None-Match', 'query:_fields'],
      answer: Kind,
      statuses: s(statuses.read),
      security: PUBLIC,
    };
    for (const [method, name] of [
      ['POST', 'update'],
      ['PUT', 'put'],
      ['PATCH', 'patch'],
    ]) {
      routes[`${method} ${path}`] = {
        operationId: `${C}_${name}${suffix}`,
        tags,
        params: [param, 'header:If-Match'],
        body: `Update${Kind}Dto`,
        answer: Kind,
        statuses: s(statuses.update),
        security: LOGIN,
      };
    }
    routes[`DELETE ${path}`] = {
      operationId: `${C}_remove${suffix}`,
      tags,
      // As the document has always listed them: the query DTO's `force` comes first by id.
      params: by === 'id' ? ['query:force', param, 'header:If-Match'] : [param, 'query:force', 'header:If-Match'],
      answer: Kind,
      statuses: s(statuses.delete),
      security: LOGIN,
    };
  }
  return routes;
}

/** The routes of a taxonomy (categories, tags): by id only; categories also have `parent`. */
function termRoutes(plural: string, Kind: string, writeDto: string): Record<string, Pinned> {
  const C = `${plural[0].toUpperCase()}${plural.slice(1)}Controller`;
  const tags = [plural];
  const update = ['200', '400', '401', '403', '404', '412', '413', '429', '500'];
  const routes: Record<string, Pinned> = {
    [`GET /${plural}`]: {
      operationId: `${C}_list`,
      tags,
      params: [
        ...['page', 'per_page', 'modified_after', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'post', 'event', 'slug'].map(
          (n) => `query:${n}`,
        ),
        ...(plural === 'categories' ? ['query:parent'] : []),
        'header:If-None-Match',
        'query:_fields',
      ],
      answer: `${Kind}List`,
      statuses: ['200', '304', '400', '401', '429', '500'],
      security: PUBLIC,
    },
    [`POST /${plural}`]: {
      operationId: `${C}_create`,
      tags,
      params: [],
      body: `Create${writeDto}Dto`,
      answer: 'Term',
      statuses: ['201', '400', '401', '403', '413', '429', '500'],
      security: LOGIN,
    },
    [`GET /${plural}/{id}`]: {
      operationId: `${C}_get`,
      tags,
      params: ['path:id!', 'header:If-None-Match', 'query:_fields'],
      answer: 'Term',
      statuses: ['200', '304', '400', '401', '404', '429', '500'],
      security: PUBLIC,
    },
    [`DELETE /${plural}/{id}`]: {
      operationId: `${C}_remove`,
      tags,
      params: ['path:id!', 'header:If-Match'],
      answer: 'Term',
      statuses: ['200', '400', '401', '403', '404', '412', '429', '500'],
      security: LOGIN,
    },
  };
  for (const [method, name] of [
    ['POST', 'update'],
    ['PUT', 'put'],
    ['PATCH', 'patch'],
  ]) {
    routes[`${method} /${plural}/{id}`] = {
      operationId: `${C}_${name}`,
      tags,
      params: ['path:id!', 'header:If-Match'],
      body: `Update${writeDto}Dto`,
      answer: 'Term',
      statuses: update,
      security: LOGIN,
    };
  }
  return routes;
}

const TWINS: [string, Record<string, Pinned>][] = [
  ['venues', linkedItemRoutes('venues', 'Venue')],
  ['organizers', linkedItemRoutes('organizers', 'Organizer')],
  ['categories', termRoutes('categories', 'Category', 'Category')],
  ['tags', termRoutes('tags', 'Tag', 'Term')],
];

/** The error codes a route's answer of this status names (the lines "- `code`: …"). */
const codesOf = (op: Operation, status: string) => [...(op.responses[status]?.description ?? '').matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);

describe('the OpenAPI document: the twins (venues and organizers, categories and tags)', () => {
  let t: TestApp;
  let doc: Doc;

  beforeAll(async () => {
    t = await createTestApp();
    doc = await servedDocument<Doc>(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const pinnedOf = (op: Operation): Pinned => ({
    operationId: op.operationId,
    tags: op.tags,
    params: paramNames(op),
    ...(op.requestBody ? { body: schemaName(op.requestBody.content) } : {}),
    answer: schemaName(Object.entries(op.responses).find(([s]) => s.startsWith('2'))?.[1].content),
    statuses: Object.keys(op.responses).sort(),
    security: op.security,
  });

  it.each(TWINS)('%s: every route, with its operation id, parameters, schemas, statuses and security', (plural, routes) => {
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path === `/${plural}` || path.startsWith(`/${plural}/`))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, pinnedOf(op)] as const));
    expect(Object.fromEntries(documented)).toEqual(routes);
  });

  it('the twins of a pair document the same error codes on the same routes, each in its own words', () => {
    const pairs = [
      ['venues', 'organizers', 'venue', 'organizer'],
      ['categories', 'tags', 'category', 'tag'],
    ];
    for (const [a, b, kindA, kindB] of pairs) {
      for (const [path, item] of Object.entries(doc.paths).filter(([p]) => p === `/${a}` || p.startsWith(`/${a}/`))) {
        const twin = doc.paths[path.replace(`/${a}`, `/${b}`)];
        for (const [method, op] of Object.entries(item)) {
          for (const status of Object.keys(op.responses).filter((s) => Number(s) >= 400)) {
            const mine = codesOf(op, status).map((c) => c.replace(kindA, kindB));
            expect({ route: `${method} ${path} ${status}`, codes: codesOf(twin[method], status) }).toEqual({
              route: `${method} ${path} ${status}`,
              codes: mine,
            });
          }
        }
      }
    }
    // The codes that name the kind, so that a twin answering with its sibling's code is seen.
    expect(codesOf(doc.paths['/organizers/{id}'].delete, '410')).toEqual(['organizer-is-in-trash']);
    expect(codesOf(doc.paths['/venues/{id}'].get, '403')).toEqual(['venue-not-accessible']);
    expect(codesOf(doc.paths['/tags'].post, '400')).toEqual(expect.arrayContaining(['term_exists', 'duplicate_term_slug']));
  });
});
