import fastifyHelmet from '@fastify/helmet';
import fastifyView from '@fastify/view';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Eta } from 'eta';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../common/errors';
import { sendError } from '../common/errors/wp-exception.filter';
import { fitsInHeader } from '../common/http/header-size';
import { ICAL_TYPE, type IcalFile } from '../common/http/negotiation';
import type { AppConfig } from '../config/app-config';
import { EMBED_ORIGINS, type EmbedOrigins } from './embed-options';
import { VIEWS_DIR } from './page-assets';
import { PagesService } from './pages.service';
import { readTecQuery } from './tec-queries';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public page (pages.controller.ts): its unslashed path redirects to the slashed one. */
    page?: boolean;
    /** Present (`{}`) on the routes that answer with the pages' security headers (PAGE_HEADERS). */
    helmet?: object;
    /** An embed (pages.md, "On other sites"): the sites of CALENDAR_EMBED_ORIGINS may frame it (embedSecurityHeaders). */
    embed?: boolean;
  }
}

/** Route config of every answer of the pages (HTML, the 404 page, the stylesheet): it gets the pages' security headers. */
export const PAGE_HEADERS = { helmet: {} } as const;

/**
 * The pages' security headers (docs/compatibility.md), set by @fastify/helmet on
 * the routes marked PAGE_HEADERS. The pages have no script and no inline style, so the policy
 * allows none: everything from the pages' own origin (CALENDAR_SITE_URL's, named too, since the
 * stylesheet and the filter form point there), images from anywhere on the web (an event's image
 * is a URL its editor gave), no plugins, no framing by another site. No HSTS (the TLS front owns
 * it) and no upgrade-insecure-requests (the service also answers plain http, in development and
 * behind a proxy); no Cross-Origin-Resource-Policy (a page read at CALENDAR_BASE_URL loads its
 * stylesheet from CALENDAR_SITE_URL, which may be another origin). `frameAncestors`: who may
 * frame the page, the site itself unless it is an embed.
 */
export function pageSecurityHeaders(publicUrl: string, frameAncestors: readonly string[] = ["'self'"]) {
  const own = new URL(publicUrl).origin;
  return {
    global: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", own],
        'img-src': ["'self'", 'data:', 'https:', 'http:'],
        'form-action': ["'self'", own],
        'frame-ancestors': [...frameAncestors],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
    crossOriginResourcePolicy: false,
  };
}

/**
 * The headers of an embed's answers, over the pages' (helmet merges a route's options over its
 * global ones): the same policy but framable by the sites of CALENDAR_EMBED_ORIGINS, and no
 * X-Frame-Options, whose SAMEORIGIN would forbid what the policy allows (a browser that knows
 * `frame-ancestors` ignores it, an old one would obey it).
 */
export function embedSecurityHeaders(publicUrl: string, origins: EmbedOrigins) {
  return { contentSecurityPolicy: pageSecurityHeaders(publicUrl, origins).contentSecurityPolicy, xFrameOptions: false };
}

/**
 * What the pages need from the HTTP layer, registered by configureApp when CALENDAR_PAGES is on:
 * the template engine (@fastify/view with Eta, escaping on: `<%= %>` escapes, only `<%~ %>`
 * writes raw, which the templates keep for HTML cleaned beforehand), their security headers
 * (before the redirect and the response cache, so that those answers carry them), the redirect of a path
 * without its trailing slash (pages.md: 301 to the slashed form; the router ignores trailing
 * slashes, so the raw URL decides), and, unless CALENDAR_WP_COMPAT=off, TEC's query forms on the
 * root (tec-queries.ts). The embeds' routes get their own headers as they are registered (the
 * routes are declared before the configuration is read, so their route config only marks them).
 */
export async function registerPages(app: NestFastifyApplication, config: Pick<AppConfig, 'publicUrl' | 'wpCompat' | 'get'>): Promise<void> {
  const { publicUrl } = config;
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const eta = new Eta({ views: VIEWS_DIR, autoEscape: true, autoTrim: [false, 'nl'], cache: true, useWith: false });
  await app.register(fastifyView as never, { engine: { eta }, root: VIEWS_DIR, viewExt: 'eta', production: true });
  await app.register(fastifyHelmet as never, pageSecurityHeaders(publicUrl));
  const embedHeaders = embedSecurityHeaders(publicUrl, config.get(EMBED_ORIGINS));
  fastify.addHook('onRoute', (route) => {
    if (route.config?.embed === true) route.config = { ...route.config, helmet: embedHeaders };
  });
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (request.routeOptions.config?.page !== true || (request.method !== 'GET' && request.method !== 'HEAD')) return done();
    const cut = request.url.indexOf('?');
    const path = cut === -1 ? request.url : request.url.slice(0, cut);
    if (path.endsWith('/')) return done();
    // Answered here: the hook chain ends (done is not called).
    redirect(request, reply, `${publicUrl}${path}/${cut === -1 ? '' : request.url.slice(cut)}`);
  });
  if (config.wpCompat) {
    const pages = app.get(PagesService);
    registerTecQueries(fastify, publicUrl, () => pages.listingIcal({ kind: 'list', query: {} }));
  }
}

/**
 * A permanent redirect to `location`. A URL too long to echo in a header is refused as too long
 * (RFC 9110 §15.5.15) rather than sent in an oversized Location.
 */
function redirect(request: FastifyRequest, reply: FastifyReply, location: string): void {
  if (!fitsInHeader('Location', location)) return sendError(request, reply, invalidRequest(414, 'The address is too long to redirect to.'));
  void reply.code(301).header('location', location).send();
}

/** An iCalendar document as the pages answer it: public, kept briefly by any cache, offered under its file name. */
export function sendIcal(reply: FastifyReply, file: IcalFile): void {
  void reply
    .header('cache-control', 'public, max-age=60')
    .header('content-type', ICAL_TYPE)
    .header('content-disposition', `inline; filename="${file.filename}"`)
    .send(file.body);
}

/**
 * Answers TEC's root query forms (readTecQuery) before routing, so that `/` keeps its own route
 * (the REST index) for every other query: a 301 to the page on the pages' origin, or the feed.
 * Registered with the pages, unless CALENDAR_WP_COMPAT=off.
 */
function registerTecQueries(fastify: FastifyInstance, publicUrl: string, upcoming: () => Promise<IcalFile>): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const asked = request.method === 'GET' || request.method === 'HEAD' ? readTecQuery(request.url) : undefined;
    if (asked === undefined) return done();
    // Answered here: the hook chain ends (done is not called).
    if ('redirect' in asked) return redirect(request, reply, `${publicUrl}${asked.redirect}`);
    upcoming().then(
      (file) => sendIcal(reply, file),
      (err: unknown) => sendError(request, reply, err),
    );
  });
}
