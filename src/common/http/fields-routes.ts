import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiQuery } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { JsonText, ListPage, rawParam } from '../pagination/list-page';
import { FieldSelection, parseFields, pickAnswerFields } from './fields';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A read that honours `_fields` (ListFields, ItemFields): a list names its collection key, a single item names none. */
    fields?: { collection?: string };
  }
}

const fieldsQuery = (what: string) =>
  ApiQuery({
    name: '_fields',
    required: false,
    schema: { type: 'string' },
    description:
      `Only these keys of ${what} (comma-separated, \`a.b\` for a key within another, e.g. \`id,title,venue.venue\`), as WordPress's \`_fields\`; ` +
      'unknown names are ignored. Without it, or empty, the answer is whole.',
  });

/** A list read whose items `_fields` narrows (compat.md): the items are the array under `collection`; the rest of the envelope stays whole. */
export const ListFields = (collection: string) =>
  applyDecorators(
    RouteConfig({ fields: { collection } }),
    fieldsQuery(`each item of \`${collection}\` (the rest of the answer stays whole; \`next_rest_url\`, \`previous_rest_url\` and \`Link\` keep \`_fields\`)`),
  );

/** A single read that `_fields` narrows (compat.md): an item, or another single document (`what`). */
export const ItemFields = (what = 'the item') => applyDecorators(RouteConfig({ fields: {} }), fieldsQuery(what));

/**
 * The body a read sends, narrowed to its `_fields` (compat.md, "TEC's public URLs") when its route
 * honours them and it succeeded: an error's body is never narrowed. Run before the body is
 * serialised and tagged, so the response cache (by URL) and the ETag (by body) tell apart answers
 * with other `_fields`. A body serialised ahead (JsonText) is parsed and serialised again, which
 * only these requests pay. A list page keeps `_fields` in the links to its neighbours (body and
 * `Link` header alike), so that a client that follows them gets narrowed pages too; its
 * `rest_url` stays whole with the rest of the envelope.
 */
export function withFields(request: FastifyRequest, status: number, body: unknown): unknown {
  const route = request.routeOptions.config?.fields;
  if (route === undefined || status < 200 || status >= 300 || (request.method !== 'GET' && request.method !== 'HEAD')) return body;
  const value = (request.query as Record<string, unknown> | undefined)?._fields;
  const selection = parseFields(value);
  if (selection === undefined) return body;
  if (!(body instanceof ListPage)) return narrowed(body, route.collection, selection);
  const carry = (url: string | undefined) => (url === undefined ? undefined : withFieldsParam(url, rawParam(value)!));
  const neighbours = { next: carry(body.neighbours.next), previous: carry(body.neighbours.previous) };
  const inner = narrowed(body.body, route.collection, selection);
  const page = inner instanceof JsonText ? (JSON.parse(inner.bytes.toString()) as Record<string, unknown>) : (inner as Record<string, unknown>);
  if (neighbours.next !== undefined) page.next_rest_url = neighbours.next;
  if (neighbours.previous !== undefined) page.previous_rest_url = neighbours.previous;
  return new ListPage(new JsonText(JSON.stringify(page)), body.total, body.totalPages, neighbours);
}

function narrowed(body: unknown, collection: string | undefined, selection: FieldSelection): unknown {
  if (!(body instanceof JsonText)) return pickAnswerFields(body, collection, selection);
  return new JsonText(JSON.stringify(pickAnswerFields(JSON.parse(body.bytes.toString()), collection, selection)));
}

/** A neighbour's link with `_fields` added last (as one comma list, however the client wrote it), in the link's own query form. */
export function withFieldsParam(url: string, names: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams({ _fields: names }).toString()}`;
}
