import fastifyCookie from '@fastify/cookie';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { manageSecurityHeaders } from '../manage';

/**
 * What the submission pages need from the HTTP layer, registered while submissions are on:
 * @fastify/cookie (the editing pages register it too when they are on; once is enough), and on
 * every answer of theirs the editing pages' headers: never kept by a cache (a form carries a
 * token of its reader), never framed (a framed form could be clicked through), no inline script
 * or style, and the stylesheet of the public pages' origin allowed.
 */
export async function registerSubmissions(app: NestFastifyApplication, config: Pick<AppConfig, 'publicUrl'>): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  if (!fastify.hasRequestDecorator('cookies')) await app.register(fastifyCookie as never, {});
  const headers = manageSecurityHeaders(config.publicUrl);
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    if (request.routeOptions.config?.submission === true) reply.headers(headers);
    done(null, payload);
  });
}
