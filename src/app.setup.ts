import { randomUUID } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import { INestApplication } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyInstance, FastifyReply, FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';
import qs from 'qs';
import { invalidJson, toWpValidationError } from './common/errors';
import { sendError, WpExceptionFilter } from './common/errors/wp-exception.filter';
import { QueryValidationPipe } from './common/http/query-validation.pipe';
import { registerListReplies } from './common/pagination';
import { AuthService } from './users/auth.service';
import { setupApiDocs } from './index/api-docs';

const QS_OPTIONS: qs.IParseOptions = { depth: 5, arrayLimit: 100, parameterLimit: 1000 };

/** The HTTP adapter: qs for query strings, trailing slashes ignored, one log line per request. */
export function buildAdapter(logger: Logger): FastifyAdapter {
  return new FastifyAdapter({
    loggerInstance: logger,
    // Our own onResponse hook writes the one line per request.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 500,
      querystringParser: (s: string) => qs.parse(s, QS_OPTIONS),
    },
  });
}

/** Everything app-wide, shared by main.ts and the e2e tests so tests exercise the real stack. */
export async function configureApp(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  registerBodyParsers(fastify);
  registerListReplies(fastify);
  await app.register(fastifyFormbody as never, { parser: (s: string) => qs.parse(s, QS_OPTIONS) });

  const auth = app.get(AuthService);
  fastify.decorateRequest('actor', null);
  // Authentication runs before routing so that bad credentials answer 401 on every path
  // (spec auth.md §1, README §9 step 1).
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      request.actor = await auth.authenticate(request.headers.authorization);
    } catch (err) {
      sendError(request, reply, err);
      return reply;
    }
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('content-type', 'application/json; charset=UTF-8');
    }
    return payload;
  });
  fastify.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.actor?.login,
      },
      'request',
    );
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

/** JSON bodies: empty means no parameters; anything unparsable is rest_invalid_json. Other types are ignored. */
function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json']);
  fastify.addContentTypeParser(/^application\/(.+\+)?json/i, { parseAs: 'string' }, (req, body, done) => {
    // An unknown route answers rest_no_route whatever its body (spec README §9: step 2 before 3).
    if (req.is404) return done(null, undefined);
    const text = String(body).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidJson(), undefined);
    }
  });
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
}
