import fastifyView from '@fastify/view';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Eta } from 'eta';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../common/errors';
import { sendError } from '../common/errors/wp-exception.filter';
import { fitsInHeader } from '../common/http/header-size';
import { VIEWS_DIR } from './page-assets';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public page (pages.controller.ts): its unslashed path redirects to the slashed one. */
    page?: boolean;
  }
}

/**
 * What the pages need from the HTTP layer, registered by configureApp when CALENDAR_PAGES is on:
 * the template engine (@fastify/view with Eta, escaping on: `<%= %>` escapes, only `<%~ %>`
 * writes raw, which the templates keep for HTML cleaned beforehand), and the redirect of a path
 * without its trailing slash (pages.md: 301 to the slashed form; the router ignores trailing
 * slashes, so the raw URL decides).
 */
export async function registerPages(app: NestFastifyApplication, publicUrl: string): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const eta = new Eta({ views: VIEWS_DIR, autoEscape: true, autoTrim: [false, 'nl'], cache: true, useWith: false });
  await app.register(fastifyView as never, { engine: { eta }, root: VIEWS_DIR, viewExt: 'eta', production: true });
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (request.routeOptions.config?.page !== true || (request.method !== 'GET' && request.method !== 'HEAD')) return done();
    const cut = request.url.indexOf('?');
    const path = cut === -1 ? request.url : request.url.slice(0, cut);
    if (path.endsWith('/')) return done();
    const location = `${publicUrl}${path}/${cut === -1 ? '' : request.url.slice(cut)}`;
    // Answered here: the hook chain ends (done is not called). A URL too long to echo in a
    // header is refused as too long (RFC 9110 §15.5.15) rather than sent in an oversized Location.
    if (!fitsInHeader('Location', location)) return sendError(request, reply, invalidRequest(414, 'The address is too long to redirect to.'));
    void reply.code(301).header('location', location).send();
  });
}
