// The OpenAPI document (GET {api_root}/doc, spec beyond.md #6) against what the service answers:
// every error answer of every route, the iCalendar ones included, is the
// shared error JSON of errors.md; and the list parameters that take ids (or ids, slugs and names)
// accept what the API accepts: integers and strings, one value or an array. The values are
// checked against the parameters' schemas with a JSON Schema validator (Ajv), as a client
// generator or a request validator would read them.
import Ajv from 'ajv';
import { servedDocument } from '../../support/openapi';
import { createTestApp, type TestApp } from '../../support/test-app';

interface Operation {
  parameters?: { name: string; in: string; schema?: object }[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('the OpenAPI document: error bodies and id/slug list parameters', () => {
  let t: TestApp;
  let doc: Doc;

  beforeAll(async () => {
    t = await createTestApp();
    doc = await servedDocument<Doc>(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );

  it('documents every 4xx and 5xx answer of every route, iCalendar routes included, as the shared error JSON', () => {
    const errorRef = '#/components/schemas/Error';
    expect(doc.components.schemas).toHaveProperty(['Error']);
    const wrong: string[] = [];
    let errors = 0;
    for (const { route, op } of operations()) {
      for (const [status, answer] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        errors++;
        const types = Object.keys(answer.content ?? {});
        const ref = answer.content?.['application/json']?.schema?.$ref;
        if (types.length !== 1 || ref !== errorRef) wrong.push(`${route} ${status}: ${types.join(', ') || 'no body'} ${ref ?? ''}`.trim());
      }
    }
    expect(errors).toBeGreaterThan(300);
    expect(wrong).toEqual([]);
    // The routes the issue names, so that a route left out of the document would not pass unseen.
    expect(Object.keys(doc.paths['/events.ics'].get.responses)).toEqual(expect.arrayContaining(['400', '401', '404']));
    expect(Object.keys(doc.paths['/events/{id}.ics'].get.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
  });

  describe('list parameters that take ids or slugs accept integers and strings, one or many', () => {
    const ajv = new Ajv({ strict: false });
    const accepts = (path: string, name: string, value: unknown): boolean => {
      const param = doc.paths[path].get.parameters?.find((p) => p.in === 'query' && p.name === name);
      if (!param?.schema) throw new Error(`GET ${path} has no query parameter ${name}`);
      return ajv.validate(param.schema, value);
    };

    const TERM_LISTS = ['/events', '/events.ics'].flatMap((path) => ['categories', 'tags'].map((name) => [path, name]));
    const ID_LISTS = [
      ...['/events', '/events.ics'].flatMap((path) => ['venue', 'organizer', 'include'].map((name) => [path, name])),
      ...['/categories', '/tags'].flatMap((path) => ['include', 'exclude'].map((name) => [path, name])),
    ];

    it.each(TERM_LISTS)('GET %s ?%s: ids, slugs and names, one or an array', (path, name) => {
      for (const value of [[1], [1, 2], ['jazz'], [1, 'jazz', '3'], 1, 'jazz', 'jazz,blues', '12']) {
        expect({ value, accepted: accepts(path, name, value) }).toEqual({ value, accepted: true });
      }
      for (const value of [[[1]], [{ id: 1 }], true, { a: 1 }]) expect({ value, accepted: accepts(path, name, value) }).toEqual({ value, accepted: false });
    });

    it.each(ID_LISTS)('GET %s ?%s: ids as integers or digits, one or an array', (path, name) => {
      for (const value of [[1], [1, 2], ['1'], [1, '2'], 1, '1', '1,2']) {
        expect({ value, accepted: accepts(path, name, value) }).toEqual({ value, accepted: true });
      }
      for (const value of [[[1]], [{ id: 1 }], ['jazz'], 'jazz', true])
        expect({ value, accepted: accepts(path, name, value) }).toEqual({ value, accepted: false });
    });
  });
});
