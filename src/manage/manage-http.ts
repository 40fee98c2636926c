import fastifyCookie from '@fastify/cookie';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An editing page (editing.md): never stored by a cache, never framed (manage-http.ts). */
    manage?: boolean;
  }
}

/** The cookie that carries an editing session's token. */
export const SESSION_COOKIE = 'calendar_session';

/**
 * The editing pages' headers (editing.md §1): never kept by a cache (they show what one user
 * may see), never framed, and the public pages' content policy: everything from this origin,
 * no inline script or style. Set on the routes marked `manage` in their route config.
 */
export function manageSecurityHeaders(publicUrl: string): Record<string, string> {
  const own = new URL(publicUrl).origin;
  const policy = [
    "default-src 'self'",
    "base-uri 'self'",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    `style-src 'self' ${own}`,
    "img-src 'self' data: https: http:",
    `form-action 'self' ${own}`,
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'cache-control': 'no-store',
    'content-security-policy': policy,
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
  };
}

/**
 * What the editing pages need from the HTTP layer, registered when CALENDAR_MANAGE is on:
 * @fastify/cookie to read and write the session cookie, and the pages' headers on every answer
 * of theirs (errors and redirects included).
 */
export async function registerManage(app: NestFastifyApplication, config: Pick<AppConfig, 'baseUrl'>): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  await app.register(fastifyCookie as never, {});
  const headers = manageSecurityHeaders(config.baseUrl);
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    if (request.routeOptions.config?.manage === true) {
      reply.headers(headers);
      // A refused sign-in is a page with the form again, not a challenge: no browser login dialog.
      reply.removeHeader('www-authenticate');
    }
    done(null, payload);
  });
}
