import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Metrics, UNMATCHED_ROUTE } from './metrics';

/**
 * Counts every answer into http_requests_total and http_request_duration_seconds, labelled by
 * method, the route's pattern (`/calendar/events/v1/events/:id`, never the raw path: one label
 * value per route, whatever ids are asked for) and status. Registered only with CALENDAR_METRICS=on.
 */
export function registerRequestMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
