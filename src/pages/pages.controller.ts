import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EmbedPages } from './embed-pages';
import { embedTheme } from './embed-options';
import { PageAssets } from './page-assets';
import { PAGE_PATHS, TEC_PAGE_PATHS } from './page-routes';
import { AppConfig } from '../config/app-config';
import type { IcalFile } from '../common/http/negotiation';
import { PAGE_HEADERS, sendIcal } from './pages-http';
import type { Json } from './page-parts';
import { ListingPage, PageError, PagesService, PageView, Query } from './pages.service';
import { RenderedPages } from './rendered-pages';

/** How WordPress types its feeds. */
const RSS_TYPE = 'application/rss+xml; charset=UTF-8';

/** Marks a route as a page: the trailing-slash redirect and the security headers apply to it (pages-http.ts). */
const Page = () => RouteConfig({ page: true, ...PAGE_HEADERS });
/** Another answer of the pages (the 404 page of unknown paths, the stylesheet): the security headers only. */
const PageAnswer = () => RouteConfig(PAGE_HEADERS);
/** Marks a route as an embed: a page that the sites of CALENDAR_EMBED_ORIGINS may frame (pages-http.ts). */
const Embed = () => RouteConfig({ page: true, embed: true, ...PAGE_HEADERS });

/** How a page is rendered: `timeless` when it reads no clock (RenderedPages); the view and data of its error page, when not the site's. */
interface RenderOptions {
  timeless?: boolean;
  errorView?: string;
  errorData?: Json;
}

/**
 * The public pages (pages.md): HTML for people, at the permalinks the API hands out. Not part
 * of the API, so not in /doc. Every answer is rendered by @fastify/view with Eta; a page that
 * cannot be shown answers the 404 (or 400) page, never the API's JSON.
 */
@ApiExcludeController()
@Controller()
export class PagesController {
  constructor(
    private readonly pages: PagesService,
    private readonly embeds: EmbedPages,
    private readonly assets: PageAssets,
    private readonly rendered: RenderedPages,
    private readonly config: AppConfig,
  ) {}

  @Get(PAGE_PATHS.list)
  @Page()
  list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.listing(req, reply, { kind: 'list', query: query(req) });
  }

  /**
   * TEC's own list URLs (compat.md, "TEC's public URLs"): `/events/list/` is the list view, and
   * `…/page/N/` its page N, so that links into a calendar that moved here keep working. Off
   * with CALENDAR_WP_COMPAT=off (the 404 page, as any unknown path under /events/).
   */
  @Get([TEC_PAGE_PATHS.list, TEC_PAGE_PATHS.listPage, TEC_PAGE_PATHS.page])
  @Page()
  tecList(@Param('page') page: string | undefined, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    // As WordPress's rewrite rule (`page/([0-9]+)/`): another segment is no page at all.
    if (!this.config.wpCompat || (page !== undefined && !/^[1-9]\d{0,5}$/.test(page)))
      return this.render(req, reply, () => Promise.reject(new PageError(404, '')));
    return this.listing(req, reply, { kind: 'list', query: page === undefined ? query(req) : { ...query(req), page } });
  }

  @Get(PAGE_PATHS.month)
  @Page()
  thisMonth(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.listing(req, reply, { kind: 'month', month: undefined, query: query(req) });
  }

  @Get(PAGE_PATHS.monthOf)
  @Page()
  month(@Param('month') month: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.listing(req, reply, { kind: 'month', month, query: query(req) });
  }

  @Get(PAGE_PATHS.today)
  @Page()
  today(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.listing(req, reply, { kind: 'day', day: 'today', query: query(req) });
  }

  @Get(PAGE_PATHS.day)
  @Page()
  day(@Param('day') day: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.listing(req, reply, { kind: 'day', day, query: query(req) });
  }

  @Get(PAGE_PATHS.category)
  @Page()
  category(@Param('*') path: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const segments = path.split('/').filter((s) => s !== '');
    if (segments.length === 0) return this.render(req, reply, () => Promise.reject(new PageError(404, '')));
    return this.listing(req, reply, { kind: 'term', taxonomy: 'category', segments, query: query(req) });
  }

  @Get(PAGE_PATHS.tag)
  @Page()
  tag(@Param('slug') slug: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.listing(req, reply, { kind: 'term', taxonomy: 'tag', segments: [slug], query: query(req) });
  }

  @Get(PAGE_PATHS.event)
  @Page()
  event(@Param('slug') slug: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    if (this.wantsIcal(req)) return this.answerIcal(req, reply, () => this.pages.eventIcal(slug));
    return this.render(req, reply, () => this.pages.event(slug), { timeless: true });
  }

  /** TEC's link to an event's own `.ics` (compat.md, "TEC's public URLs"); also `/event/{slug}/?ical=1`. */
  @Get(TEC_PAGE_PATHS.eventIcal)
  @Page()
  tecEventIcal(@Param('slug') slug: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    if (!this.config.wpCompat) return this.render(req, reply, () => Promise.reject(new PageError(404, '')));
    return this.answerIcal(req, reply, () => this.pages.eventIcal(slug));
  }

  /**
   * A page that lists events: its HTML, or with `?ical=1` (TEC's link, beside `eventDisplay=…`
   * and `tribe_display=…`, which change nothing here) the feed of the events it lists
   * (compat.md, "TEC's public URLs"); the HTML only with CALENDAR_WP_COMPAT=off.
   */
  private listing(req: FastifyRequest, reply: FastifyReply, page: ListingPage): Promise<void> {
    if (this.wantsIcal(req)) return this.answerIcal(req, reply, () => this.pages.listingIcal(page));
    return this.render(req, reply, () => this.pages.view(page));
  }

  /** TEC's `?ical=1` on a page, read unless CALENDAR_WP_COMPAT=off. */
  private wantsIcal(req: FastifyRequest): boolean {
    return this.config.wpCompat && query(req).ical === '1';
  }

  /**
   * TEC's RSS feed of the upcoming events (compat.md, "TEC's public URLs"), where WordPress serves
   * a post type's feed; the list's filters apply. Off with CALENDAR_WP_COMPAT=off (the 404 page).
   */
  @Get(TEC_PAGE_PATHS.feed)
  @Page()
  feed(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    if (!this.config.wpCompat) return this.render(req, reply, () => Promise.reject(new PageError(404, '')));
    return this.document(
      req,
      reply,
      () => this.pages.rss(query(req)),
      (rss) => void reply.header('cache-control', 'public, max-age=60').type(RSS_TYPE).send(rss),
    );
  }

  /** An iCalendar document, or the error page of what the page would answer (404 when anonymous readers may not see it). */
  private answerIcal(req: FastifyRequest, reply: FastifyReply, read: () => Promise<IcalFile>): Promise<void> {
    return this.document(req, reply, read, (file) => sendIcal(reply, file));
  }

  /** A document other than a page (a feed), sent by `send`; or, when it cannot be read, the error page the page would answer. */
  private async document<T>(req: FastifyRequest, reply: FastifyReply, read: () => Promise<T>, send: (doc: T) => void): Promise<void> {
    let doc: T;
    try {
      doc = await read();
    } catch (err) {
      if (!(err instanceof PageError)) throw err;
      return this.render(req, reply, () => Promise.reject(err));
    }
    send(doc);
  }

  @Get(PAGE_PATHS.venue)
  @Page()
  venue(@Param('slug') slug: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.listing(req, reply, { kind: 'venue', slug, query: query(req) });
  }

  @Get(PAGE_PATHS.organizer)
  @Page()
  organizer(@Param('slug') slug: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.listing(req, reply, { kind: 'organizer', slug, query: query(req) });
  }

  /** The list made for another site's `<iframe>` (pages.md, "On other sites"). */
  @Get(PAGE_PATHS.embed)
  @Embed()
  embedList(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.renderEmbed(req, reply, () => this.embeds.list(query(req)));
  }

  @Get(PAGE_PATHS.embedMonth)
  @Embed()
  embedThisMonth(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.renderEmbed(req, reply, () => this.embeds.month(undefined, query(req)));
  }

  @Get(PAGE_PATHS.embedMonthOf)
  @Embed()
  embedMonth(@Param('month') month: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.renderEmbed(req, reply, () => this.embeds.month(month, query(req)));
  }

  /** An embed, or its error page: in the frame too, so without the site's header and in the theme asked for. */
  private renderEmbed(req: FastifyRequest, reply: FastifyReply, build: () => Promise<PageView>): Promise<void> {
    return this.render(req, reply, build, { errorView: 'embed-error', errorData: { theme: embedTheme(query(req)) } });
  }

  /** Any other path under the pages' prefixes: the 404 page. */
  @Get(['events/*', 'event', 'event/*', 'venue', 'venue/*', 'organizer', 'organizer/*', 'tag', 'tag/*'])
  @PageAnswer()
  unknown(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.render(req, reply, () => Promise.reject(new PageError(404, '')));
  }

  /** The stylesheet, under a name that changes with its content, so it may be kept for a year. */
  @Get('assets/:file')
  @PageAnswer()
  asset(@Param('file') file: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const css = this.assets.stylesheet;
    if (file !== css.file) return this.render(req, reply, () => Promise.reject(new PageError(404, '')));
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type('text/css; charset=utf-8').send(css.body);
  }

  /** Renders the page, or the error page with its status (kept by RenderedPages). Pages are public: any cache may keep them briefly. */
  private async render(req: FastifyRequest, reply: FastifyReply, build: () => Promise<PageView>, opts: RenderOptions = {}): Promise<void> {
    const page = await this.rendered.get(
      req.url,
      async () => {
        let view: PageView;
        let status = 200;
        try {
          view = await build();
        } catch (err) {
          if (!(err instanceof PageError)) throw err;
          status = err.status;
          const title = err.status === 404 ? 'Page not found' : 'Bad request';
          view = { view: opts.errorView ?? 'error', data: { ...opts.errorData, title, status: err.status, message: err.message } };
        }
        const html = await reply.viewAsync(view.view, { ...this.pages.layout(), css: this.assets.stylesheet.url, current: '', ...view.data });
        return { status, html: Buffer.from(html) };
      },
      opts.timeless === true,
    );
    void reply.code(page.status).header('cache-control', 'public, max-age=60').type('text/html; charset=utf-8').send(page.html);
  }
}

function query(req: FastifyRequest): Query {
  return (req.query ?? {}) as Query;
}
