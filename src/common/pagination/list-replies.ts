import type { FastifyInstance } from 'fastify';
import { withFields } from '../http/fields-routes';
import { Tagged } from '../http/preconditions';
import { JsonText, ListPage } from './list-page';

/**
 * Sends what handlers return as ListPage (the body goes out, the totals become the X-TEC-Total
 * and X-TEC-TotalPages headers, spec resources.md §8.3, the neighbours the Link header,
 * beyond.md #10), Tagged (a write's answer and the item's new ETag, beyond.md #4) and JsonText (a body serialised ahead,
 * sent as it is); a read's body is narrowed to its `_fields` on the way (fields-routes.ts). A Fastify hook rather than a Nest interceptor: a global interceptor puts every
 * request of every route through rxjs and an async-context bind, about 5% of a cached list
 * request.
 */
export function registerListReplies(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    let body: unknown = payload;
    if (body instanceof Tagged) {
      void reply.header('etag', body.tag);
      body = body.body;
    }
    // Before the list's headers are read: a narrowed list keeps `_fields` in its Link header too.
    body = withFields(request, reply.statusCode, body);
    if (body instanceof ListPage) {
      void reply.header('X-TEC-Total', String(body.total)).header('X-TEC-TotalPages', String(body.totalPages));
      const link = body.linkHeader;
      if (link !== undefined) void reply.header('Link', link);
      body = body.body;
    }
    if (body instanceof JsonText) {
      const { bytes } = body;
      // Fastify sends a serializer's Buffer as it is (its type says string; reply.js takes both).
      const asIs = (() => bytes) as unknown as (payload: unknown) => string;
      void reply.header('content-type', 'application/json; charset=UTF-8').serializer(asIs);
    }
    done(null, body);
  });
}
