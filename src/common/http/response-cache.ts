import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NamedCache, ReadModel } from '../cache/read-model';
import { AnswerFlights, type Flight } from './answer-flights';
import { bodyTag, Coding, codingFor, encode, isCompressible, MIN_COMPRESSED_BYTES, noneMatchHits, variantTag, varyWith } from './representation';

/** The headers a cached answer keeps (the others are per request, such as x-request-id, or Node's own). */
const KEPT_HEADERS = ['content-type', 'content-disposition', 'vary', 'x-tec-total', 'x-tec-totalpages', 'link', 'retry-after'] as const;

/** A body as the HTTP layer sends it: its bytes, its tag, and whether it is worth compressing. */
interface Representation {
  body: Buffer;
  /** The strong tag of `body` (present on GET answers). */
  tag: string | undefined;
  compressible: boolean;
}

interface CachedAnswer extends Representation {
  headers: [string, string][];
}

/** What the first of several requests missing one key together hands the others: its answer, whatever its status. */
interface SharedAnswer extends CachedAnswer {
  status: number;
}

export interface ResponseCacheOptions {
  /** Route patterns (as Fastify names them, e.g. `/calendar/events/v1/events/:id`) whose anonymous answers may be kept. */
  routes: readonly string[];
  /** False while something the cached answers do not show yet is due (a scheduled event to publish): the request then goes the whole way. */
  upToDate: () => boolean;
  /**
   * What else than the URL an answer depends on, from the request (the `Accept` header of routes
   * that negotiate iCalendar): part of the cache key. Empty for the usual JSON answer.
   */
  variant: (request: FastifyRequest) => string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on an anonymous GET of a cacheable route that missed: where onSend keeps the answer. */
    answerKey?: { key: string; generation: number };
    /** Set on the request that computes an answer other requests for the same key wait for: onSend hands it to them. */
    leads?: Flight<SharedAnswer>;
    /** Set once the reply's body is final (a cached answer, already tagged and coded): onSend leaves it alone. */
    represented?: boolean;
  }
}

/** Slots of the table of recently asked URLs (a power of two). */
const RECENT_SLOTS = 1 << 14;

/**
 * Which URLs were asked in this second or the one before, in a fixed table of hashes and
 * seconds: nothing is allocated per request. Two URLs on one slot share it (the later wins),
 * which costs at most a missed keep.
 */
export class RecentlyAsked {
  private readonly hashes = new Int32Array(RECENT_SLOTS);
  private readonly seconds = new Float64Array(RECENT_SLOTS);

  /** Was `key` asked in this second or the one before? It is remembered as asked now either way. */
  askedBefore(key: string, second: number): boolean {
    let h = 0x811c9dc5; // FNV-1a, 32 bits
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const slot = h & (RECENT_SLOTS - 1);
    const seen = this.hashes[slot] === h && second - this.seconds[slot] <= 1;
    this.hashes[slot] = h;
    this.seconds[slot] = second;
    return seen;
  }
}

const recentlyAsked = new RecentlyAsked();

/**
 * For a handler whose URLs are often asked only once (a change-feed page from one client's own
 * token): its answer is kept only when the same URL was asked in this second or the one
 * before. An answer kept for one ask is never read (answers are kept per second) and only
 * pushes others out and costs the collector; one asked twice is likely asked again.
 */
export function keepFromSecondAsk(request: FastifyRequest): void {
  if (request.answerKey === undefined) return; // not a kept kind of request anyway
  if (!recentlyAsked.askedBefore(request.originalUrl, Math.floor(Date.now() / 1000))) request.answerKey = undefined;
}

/**
 * Whole answers of anonymous reads, kept in the read model (`responses`) and sent before Nest
 * routes the request: a cached list page then costs the HTTP stack and the hooks, not the
 * framework's handler pipeline, the service and the page assembly. And what
 * every answer goes through on its way out (beyond.md #3, #4, #11): GET answers and successful
 * updates get a strong `ETag` (an update's from its service); a GET whose `If-None-Match` names it answers 304 without a body;
 * bodies over 1 KB go out `br` or `gzip` as `Accept-Encoding` allows, their coded forms kept by
 * tag (`encodings`) so that a body already compressed once costs no compression again.
 *
 * An answer is kept only for an anonymous GET that answered 200 on one of `routes`, by its URL,
 * its variant and the current second: what these routes answer depends on the parameters, the
 * data (the read model empties the cache on every write) and the time, which enters as the
 * default date window (by the minute) and the visibility of scheduled items (by the second).
 * Its tag is computed once, when it is kept. Authentication and rate limits run first, as for
 * every request (onRequest hooks registered earlier); a caller with credentials never reads or
 * fills it.
 *
 * Requests that miss one key together are answered once (single-flight): the first
 * goes the whole way, the others wait for its answer and send it as theirs, an error included
 * (it is not kept). A request of a later data generation (a write committed since the first
 * started) does not wait for it but computes its own (answer-flights.ts).
 */
export function registerResponseCache(fastify: FastifyInstance, readModel: ReadModel, options: ResponseCacheOptions): void {
  const routes = new Set(options.routes);
  const answers: NamedCache<CachedAnswer> = readModel.cache('responses');
  const encodings: NamedCache<Buffer> = readModel.contentCache('encodings');
  const flights = new AnswerFlights<SharedAnswer>();

  /** The coded form of a tagged body, from `encodings` or made now (and kept there). */
  const coded = (rep: Representation, coding: Coding): Promise<Buffer> | Buffer => {
    if (rep.tag === undefined) return encode(rep.body, coding);
    const key = variantTag(rep.tag, coding);
    return encodings.get(key) ?? encodings.through(key, () => encode(rep.body, coding));
  };

  /**
   * Puts the tag, the 304 and the coding on a reply, and hands the body to send to `send`
   * (synchronously when nothing needs compressing now).
   */
  const represent = (request: FastifyRequest, reply: FastifyReply, rep: Representation, send: (err: Error | null, body: Buffer | string) => void): void => {
    const coding = rep.compressible ? codingFor(request.headers['accept-encoding']) : null;
    if (rep.compressible) void reply.header('vary', varyWith(reply.getHeader('vary'), 'Accept-Encoding'));
    if (rep.tag !== undefined) {
      const tag = variantTag(rep.tag, coding);
      void reply.header('etag', tag);
      if ((request.method === 'GET' || request.method === 'HEAD') && noneMatchHits(request.headers['if-none-match'], tag)) {
        void reply.code(304).removeHeader('content-type').removeHeader('content-length');
        return send(null, '');
      }
    }
    if (coding === null) return send(null, rep.body);
    void reply.header('content-encoding', coding).removeHeader('content-length');
    const body = coded(rep, coding);
    if (Buffer.isBuffer(body)) return send(null, body);
    body.then(
      (out) => send(null, out),
      (err: Error) => send(err, ''),
    );
  };

  /** Sends `hit` (a kept answer, or the one another request computed) as this request's answer. */
  const send = (request: FastifyRequest, reply: FastifyReply, status: number, hit: CachedAnswer): void => {
    for (const [name, value] of hit.headers) void reply.header(name, value);
    request.represented = true;
    void reply.code(status);
    represent(request, reply, hit, (err, body) => {
      // Compression does not fail on a Buffer; were it to, the body goes out as it is.
      if (err) void reply.removeHeader('content-encoding').header('etag', hit.tag).send(hit.body);
      else void reply.send(body);
    });
  };

  /**
   * Sends the kept answer, or waits for the request computing it now and sends its answer; else
   * marks the request so that onSend keeps its answer and hands it to those waiting, and calls `next`.
   */
  const answer = (request: FastifyRequest, reply: FastifyReply, next: () => void): void => {
    const key = `${Math.floor(Date.now() / 1000)} ${options.variant(request)} ${request.originalUrl}`;
    const hit = answers.get(key);
    if (hit !== undefined) return send(request, reply, 200, hit);
    const generation = answers.mark();
    request.answerKey = { key, generation };
    const waiting = flights.join(key, generation);
    if (waiting === undefined) {
      request.leads = flights.lead(key, generation);
      return next();
    }
    // Nothing to share (the first request was aborted): this one goes the whole way.
    void waiting.then((shared) => (shared === undefined ? next() : send(request, reply, shared.status, shared)));
  };

  // Callback-style hooks: on this path a promise per hook is a measurable part of a cached answer.
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (request.method !== 'GET' || request.actor !== null || !routes.has(request.routeOptions.url ?? '') || !options.upToDate()) return done();
    // Answered from the cache, the hook chain ends here (done is not called); else the request goes on.
    const next = () => answer(request, reply, () => done());
    if (readModel.snapshotNow()) return next();
    // When the change log cannot be read, the request goes the whole way: the route meets the
    // same failure and answers it as every route does (errors.md).
    readModel.snapshot().then(next, () => done());
  });

  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    if (request.represented === true) return done(null, payload);
    const body = Buffer.isBuffer(payload) ? payload : typeof payload === 'string' ? Buffer.from(payload) : null;
    if (body === null) {
      request.leads?.settle(undefined);
      return done(null, payload); // a stream (static files) or no body
    }
    const rep: Representation = {
      body,
      tag: isTagged(request.method, reply.statusCode) ? bodyTag(body) : undefined,
      compressible: body.length > MIN_COMPRESSED_BYTES && isCompressible(reply.getHeader('content-type')),
    };
    const target = request.answerKey;
    const status = reply.statusCode;
    if ((target !== undefined && status === 200) || request.leads !== undefined) {
      const kept: CachedAnswer = { ...rep, headers: keptHeaders(reply) };
      if (target !== undefined && status === 200) answers.set(target.key, kept, target.generation);
      // A 200 or an error is what the waiters would have got; anything else (a 304 the handler
      // chose for this request's own preconditions) is this request's only.
      request.leads?.settle(status === 200 || status >= 400 ? { ...kept, status } : undefined);
    }
    represent(request, reply, rep, done);
  });

  // A request that led a flight and ended without an answer through onSend (aborted) lets its waiters go on.
  fastify.addHook('onResponse', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    request.leads?.settle(undefined);
    done();
  });
  fastify.addHook('onRequestAbort', (request: FastifyRequest, done: () => void) => {
    request.leads?.settle(undefined);
    done();
  });
}

/**
 * Which answers get a tag from their body: every GET that answers 200 (beyond.md #3). A write's
 * answer is not the item's GET body (it has no JSON-LD): its service sets the tag of that body
 * itself (preconditions.ts, Tagged), and it goes out as it is.
 */
function isTagged(method: string, status: number): boolean {
  return (method === 'GET' || method === 'HEAD') && status === 200;
}

function keptHeaders(reply: FastifyReply): [string, string][] {
  const headers: [string, string][] = [];
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers.push([name, String(value)]);
  }
  return headers;
}
