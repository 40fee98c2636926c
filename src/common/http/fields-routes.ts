import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiQuery } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { JsonText } from '../pagination/list-page';
import { parseFields, pickAnswerFields } from './fields';

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
  applyDecorators(RouteConfig({ fields: { collection } }), fieldsQuery(`each item of \`${collection}\` (the rest of the answer stays whole)`));

/** A single read that `_fields` narrows (compat.md): an item, or another single document (`what`). */
export const ItemFields = (what = 'the item') => applyDecorators(RouteConfig({ fields: {} }), fieldsQuery(what));

/**
 * The body a read sends, narrowed to its `_fields` (compat.md, "TEC's public URLs") when its route
 * honours them and it succeeded: an error's body is never narrowed. Run before the body is
 * serialised and tagged, so the response cache (by URL) and the ETag (by body) tell apart answers
 * with other `_fields`. A body serialised ahead (JsonText) is parsed and serialised again, which
 * only these requests pay.
 */
export function withFields(request: FastifyRequest, status: number, body: unknown): unknown {
  const route = request.routeOptions.config?.fields;
  if (route === undefined || status < 200 || status >= 300 || (request.method !== 'GET' && request.method !== 'HEAD')) return body;
  const selection = parseFields((request.query as Record<string, unknown> | undefined)?._fields);
  if (selection === undefined) return body;
  if (!(body instanceof JsonText)) return pickAnswerFields(body, route.collection, selection);
  return new JsonText(JSON.stringify(pickAnswerFields(JSON.parse(body.bytes.toString()), route.collection, selection)));
}
