import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import fastifyCors from '@fastify/cors';
import fastifyFormbody from '@fastify/formbody';
import { INestApplication } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyInstance, FastifyReply, FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';
import qs from 'qs';
import { invalidJson, invalidRequest, toWpValidationError } from './common/errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './common/http/json-limits';
import { sendError, WpExceptionFilter } from './common/errors/wp-exception.filter';
import { QueryValidationPipe } from './common/http/query-validation.pipe';
import { registerResponseCache } from './common/http/response-cache';
import { linksOfForm, rewriteApiUrl, withLinks } from './common/http/api-links';
import { prefersIcal } from './common/http/negotiation';
import { ReadModel } from './common/cache/read-model';
import { Metrics, registerRequestMetrics } from './common/metrics';
import { API_NAMESPACE, AppConfig } from './config/app-config';
import { ScheduledPublisher } from './events';
import { registerListReplies } from './common/pagination';
import { basicChallenge, type Actor } from './common/auth';
import { AuthService } from './users/auth.service';
import { setupApiDocs } from './rest-root/api-docs';
import { InstalledFeatures } from './common/feature/feature';

/**
 * Routes whose anonymous answers depend only on their URL, the data and the time (by the
 * second): their whole answers are kept in the read model (common/http/response-cache.ts).
 */
const CACHEABLE_ROUTES = [
  'events',
  'events/:id',
  'events/by-slug/:slug',
  'events.ics',
  'events/:id.ics',
  'venues',
  'organizers',
  'categories',
  'tags',
  'changes',
];

const QS_OPTIONS: qs.IParseOptions = { depth: 5, arrayLimit: 100, parameterLimit: 1000 };

/**
 * The HTTP adapter: qs for query strings, trailing slashes ignored, one log line per request,
 * and (unless CALENDAR_WP_COMPAT=off) the WordPress paths of compat.md routed as ours.
 */
export function buildAdapter(logger: Logger, config: Pick<AppConfig, 'wpCompat'>): FastifyAdapter {
  return new FastifyAdapter({
    // Before routing: one route table serves both paths, so the alias is the same route by construction.
    ...(config.wpCompat ? { rewriteUrl: rewriteApiUrl } : {}),
    loggerInstance: logger,
    // Our own onResponse hook writes the one line per request.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    // URLs the router cannot decode (`%zz`) answer in the errors.md shape, not Fastify's.
    frameworkErrors: (err: Error, request: FastifyRequest, reply: FastifyReply) => sendError(request, reply, err),
    // What Node's HTTP parser refuses before Fastify sees a request (headers or URL over 16 KB).
    clientErrorHandler: answerClientError,
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 500,
      querystringParser: (s: string) => qs.parse(s, QS_OPTIONS),
    },
  });
}

/**
 * Answers a request Node's HTTP parser refused (errors.md `rest_invalid_request`): 431 when the
 * headers (the URL included) are over the limit, 400 for anything else it cannot read.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  const body = JSON.stringify(invalidRequest(status).toBody());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Everything app-wide, shared by main.ts and the e2e tests so tests exercise the real stack. */
export async function configureApp(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  registerBodyParsers(fastify);
  registerListReplies(fastify);
  // First of the hooks, so that every answer carries it: errors, and answers from the response cache.
  await registerCors(app, app.get(AppConfig).corsOrigins);
  await app.register(fastifyFormbody as never, { parser: (s: string) => qs.parse(s, QS_OPTIONS) });

  const config = app.get(AppConfig);
  const auth = app.get(AuthService);
  fastify.decorateRequest('actor', null);
  // Authentication runs before routing so that bad credentials answer 401 on every path
  // (spec auth.md §1, README §9 step 1). Callback-style hooks: on a cached answer a promise per
  // hook is a measurable share of the request.
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const header = request.headers.authorization;
    const as = (actor: Actor | null) => {
      request.actor = actor;
      done();
    };
    if (auth.isPlainAnonymous(header)) return as(null);
    // An error is answered here, and the hook chain stops (done is not called).
    auth.authenticate(header, request.ip).then(as, (err: unknown) => sendError(request, reply, err));
  });
  // Every answer: its type is the one it says (no sniffing, whatever a client or browser does with
  // it), and a 401 names the scheme it wants (RFC 9110 §11.6.1).
  const challenge = basicChallenge(config.siteTitle);
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    if (reply.statusCode === 401) reply.header('www-authenticate', challenge);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('content-type', 'application/json; charset=UTF-8');
    }
    done(null, payload);
  });
  // The one line per request, at info: below that level (LOG_LEVEL=warn…) nothing is built for it.
  const logsRequests = ['trace', 'debug', 'info'].includes(fastify.log.level);
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (!logsRequests) return done();
    request.log.info(
      {
        method: request.method,
        url: request.originalUrl,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.actor?.login,
      },
      'request',
    );
    done();
  });

  // Request counts and latencies for GET /metrics (ops), only when it is on: no cost otherwise.
  if (config.metrics) registerRequestMetrics(fastify, app.get(Metrics));
  // A request that came by a WordPress path is answered with links in that form (compat.md): its
  // handler runs with them as the request's links (common/http/api-links.ts). After the body is
  // read, so that nothing the handler starts runs outside them.
  if (config.wpCompat) {
    fastify.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      if (request.raw.apiForm === undefined) return done();
      withLinks(linksOfForm(config.baseUrl, request.raw.apiForm), done);
    });
  }
  // What the features that are on set up app-wide (the public pages' template engine, the
  // editing pages' session cookie), before the response cache so that their hooks run first.
  const features = app.get(InstalledFeatures).enabled;
  for (const feature of features) await feature.setup?.(app, config);
  const publisher = app.get(ScheduledPublisher);
  registerResponseCache(fastify, app.get(ReadModel), {
    routes: [...CACHEABLE_ROUTES.map((route) => `/${API_NAMESPACE}/${route}`), ...features.flatMap((f) => f.cacheableRoutes ?? [])],
    upToDate: () => !publisher.hasDue(),
    // The event routes answer iCalendar to a client that prefers it (ical.md): another body, another key.
    variant: (request) => {
      const accept = request.headers.accept;
      return accept !== undefined && accept.includes('text/calendar') && prefersIcal(accept) ? 'ics' : '';
    },
  });

  app.useGlobalFilters(new WpExceptionFilter());
  app.useGlobalPipes(
    new QueryValidationPipe({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      validateCustomDecorators: true,
      stopAtFirstError: true,
      exceptionFactory: toWpValidationError,
    }),
  );
  setupApiDocs(app as INestApplication);
}

/**
 * CORS (beyond.md #8), with @fastify/cors: pre-flights answer 204 with the allowed methods and
 * headers and a max age; every answer allows `*`, or echoes the request's Origin when
 * CALENDAR_CORS_ORIGINS lists it (with `Vary: Origin`), and exposes the headers a client reads.
 * CALENDAR_CORS_ORIGINS set empty: nothing registered (OPTIONS is then an unknown route, 404).
 */
async function registerCors(app: NestFastifyApplication, origins: '*' | string[] | null): Promise<void> {
  if (origins === null) return;
  await app.register(fastifyCors as never, {
    origin: origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'X-Request-Id'],
    exposedHeaders: ['X-TEC-Total', 'X-TEC-TotalPages', 'ETag', 'Link', 'X-Request-Id'],
    maxAge: CORS_MAX_AGE_SECONDS,
    // A bare OPTIONS (no Origin, no Access-Control-Request-Method) is answered 204 too, not 400.
    strictPreflight: false,
  });
}

/** How long a browser may reuse a pre-flight answer. */
const CORS_MAX_AGE_SECONDS = 600;

/** JSON bodies: empty means no parameters; anything unparsable is rest_invalid_json. Other types are ignored. */
function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json']);
  fastify.addContentTypeParser(/^application\/(.+\+)?json/i, { parseAs: 'string' }, (req, body, done) => {
    // An unknown route answers rest_no_route whatever its body (spec README §9: step 2 before 3).
    if (req.is404) return done(null, undefined);
    const text = String(body).trim();
    if (text === '') return done(null, {});
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(invalidRequest(400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidJson(), undefined);
    }
  });
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
}
