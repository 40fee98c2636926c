import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { ApiLinks } from '../common/http/api-links';

/** One argument of a route, as WordPress-style indexes describe it (spec endpoints.md §1). */
export interface RouteArg {
  required: boolean;
  type?: string;
  default?: unknown;
  description?: string;
  enum?: unknown[];
  items?: unknown;
}
export interface RouteEntry {
  namespace: string;
  methods: string[];
  endpoints: { methods: string[]; args: Record<string, RouteArg> }[];
  _links?: { self: { href: string }[] };
}

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];
const WRITE_METHODS = new Set(['post', 'put', 'patch']);

/**
 * Derives the route table of the namespace index from the generated OpenAPI document, so the
 * index and /doc can never disagree: `/events/{id}` becomes `/calendar/events/v1/events/(?P<id>\d+)`
 * (`/tribe/events/v1/…` for the WordPress forms, compat.md), each `self` link in the request's form.
 */
export function buildRouteTable(doc: OpenAPIObject, links: ApiLinks): Record<string, RouteEntry> {
  const namespace = links.namespace;
  const prefix = `/${namespace}`;
  const routes: Record<string, RouteEntry> = {
    // The namespace's own route; it is not part of the OpenAPI paths (spec endpoints.md §2).
    [prefix]: {
      namespace,
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { namespace: { default: namespace, required: false }, context: { default: 'view', required: false } } }],
      _links: { self: [{ href: links.href() }] },
    },
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    const key = prefix + path.replace(/\{id\}/g, '(?P<id>\\d+)').replace(/\{slug\}/g, '(?P<slug>[^/]+)');
    const endpoints: RouteEntry['endpoints'] = [];
    for (const method of METHOD_ORDER) {
      const op = (item as Record<string, OperationObject | undefined>)[method];
      if (!op) continue;
      const args = operationArgs(doc, op);
      // POST, PUT and PATCH of an item are one partial update: one endpoint entry, as in TEC.
      const same = WRITE_METHODS.has(method)
        ? endpoints.find((e) => WRITE_METHODS.has(e.methods[0].toLowerCase()) && JSON.stringify(e.args) === JSON.stringify(args))
        : undefined;
      if (same) same.methods.push(method.toUpperCase());
      else endpoints.push({ methods: [method.toUpperCase()], args });
    }
    const entry: RouteEntry = { namespace, methods: endpoints.flatMap((e) => e.methods), endpoints };
    if (!path.includes('{')) entry._links = { self: [{ href: links.href(path) }] };
    routes[key] = entry;
  }
  return routes;
}

function operationArgs(doc: OpenAPIObject, op: OperationObject): Record<string, RouteArg> {
  const args: Record<string, RouteArg> = {};
  for (const p of (op.parameters ?? []) as (ParameterObject | ReferenceObject)[]) {
    if ('$ref' in p || p.in === 'path' || p.in === 'header') continue;
    args[p.name] = toArg(doc, p.schema, p.required ?? false, p.description);
  }
  const body = op.requestBody && !('$ref' in op.requestBody) ? op.requestBody.content?.['application/json']?.schema : undefined;
  const schema = body ? resolve(doc, body) : undefined;
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    args[name] = toArg(doc, prop, (schema?.required ?? []).includes(name), undefined);
  }
  return args;
}

function toArg(doc: OpenAPIObject, raw: SchemaObject | ReferenceObject | undefined, required: boolean, description?: string): RouteArg {
  const schema = raw ? resolve(doc, raw) : {};
  const arg: RouteArg = { required };
  // An alternative of types (ids: integer or digits) is listed as its first type, as WordPress would.
  const first = schema.oneOf?.[0];
  const type = schema.type ?? (first ? (resolve(doc, first).type ?? 'string') : undefined);
  if (type) arg.type = type;
  if (schema.default !== undefined) arg.default = schema.default;
  const text = description ?? schema.description;
  if (text) arg.description = text;
  if (schema.enum) arg.enum = schema.enum;
  if (schema.items) arg.items = resolve(doc, schema.items as SchemaObject | ReferenceObject);
  return arg;
}

function resolve(doc: OpenAPIObject, s: SchemaObject | ReferenceObject): SchemaObject {
  if ('$ref' in s) {
    const name = s.$ref.split('/').pop() ?? '';
    return (doc.components?.schemas?.[name] as SchemaObject | undefined) ?? {};
  }
  return s;
}
