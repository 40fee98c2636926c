import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NamedCache, ReadModel } from '../cache/read-model';

/** The headers a cached answer keeps (the others are per request, such as x-request-id, or Node's own). */
const KEPT_HEADERS = ['content-type', 'content-disposition', 'vary', 'x-tec-total', 'x-tec-totalpages', 'link'] as const;

interface CachedAnswer {
  headers: [string, string][];
  body: Buffer;
}

export interface ResponseCacheOptions {
  /** Route patterns (as Fastify names them, e.g. `/calendar/events/v1/events/:id`) whose anonymous answers may be kept. */
  routes: readonly string[];
  /** False while something the cached answers do not show yet is due (a scheduled event to publish): the request then goes the whole way. */
  upToDate: () => boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on an anonymous GET of a cacheable route that missed: where onSend keeps the answer. */
    answerKey?: { key: string; generation: number };
  }
}

/**
 * Whole answers of anonymous reads, kept in the read model (`responses`) and sent before Nest
 * routes the request: a cached list page then costs the HTTP stack and the hooks, not the
 * framework's handler pipeline, the service and the page assembly (issue 12, item 7).
 *
 * An answer is kept only for an anonymous GET that answered 200 on one of `routes`, by its URL
 * and the current second: what these routes answer depends on the parameters, the data (the
 * read model empties the cache on every write) and the time, which enters as the default date
 * window (by the minute) and the visibility of scheduled items (by the second). Authentication
 * and rate limits run first, as for every request (onRequest hooks registered earlier); a
 * caller with credentials never reads or fills it.
 */
export function registerResponseCache(fastify: FastifyInstance, readModel: ReadModel, options: ResponseCacheOptions): void {
  const routes = new Set(options.routes);
  const answers: NamedCache<CachedAnswer> = readModel.cache('responses');

  /** Sends the kept answer, or marks the request so that onSend keeps its answer. */
  const answer = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const key = `${Math.floor(Date.now() / 1000)} ${request.url}`;
    const hit = answers.get(key);
    if (hit === undefined) {
      request.answerKey = { key, generation: answers.mark() };
      return false;
    }
    for (const [name, value] of hit.headers) void reply.header(name, value);
    void reply.code(200).send(hit.body);
    return true;
  };

  // Callback-style hooks: on this path a promise per hook is a measurable part of a cached answer.
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (request.method !== 'GET' || request.actor !== null || !routes.has(request.routeOptions.url ?? '') || !options.upToDate()) return done();
    // Keyed by URL alone: an iCalendar answer negotiated on a JSON URL is neither read nor kept (ical.md).
    if (request.headers.accept?.includes('text/calendar')) return done();
    // Answered from the cache, the hook chain ends here (done is not called); else the request goes on.
    const next = () => {
      if (!answer(request, reply)) done();
    };
    if (readModel.snapshotNow()) return next();
    // When the change log cannot be read, the request goes the whole way: the route meets the
    // same failure and answers it as every route does (errors.md).
    readModel.snapshot().then(next, () => done());
  });

  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    const target = request.answerKey;
    if (target !== undefined && reply.statusCode === 200) {
      const body = Buffer.isBuffer(payload) ? payload : typeof payload === 'string' ? Buffer.from(payload) : null;
      if (body !== null) answers.set(target.key, { headers: keptHeaders(reply), body }, target.generation); // a stream is not kept
    }
    done(null, payload);
  });
}

function keptHeaders(reply: FastifyReply): [string, string][] {
  const headers: [string, string][] = [];
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers.push([name, String(value)]);
  }
  return headers;
}
