import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';
import type { Actor } from '../common/auth';
import { AppConfig } from '../config/app-config';
import type { EditorSession } from './manage-session';
import { mayReview, ReviewQueue } from './review-queue';

/** Where the editing pages' templates and assets live (copied beside the compiled code by `nest build`). */
const VIEWS_DIR = join(__dirname, 'views');
const ASSETS_DIR = join(__dirname, 'assets');

/** A static file of the editing pages, named after a hash of its content so it may be cached for a year. */
export interface ManageAsset {
  file: string;
  url: string;
  type: string;
  body: Buffer;
}

/** One entry of the editing pages' menu. */
interface MenuItem {
  key: string;
  label: string;
  href: string;
  /** A number shown beside the label (the events waiting for review). */
  count?: number;
}

/** What a page gives to be shown in the editing layout. */
export interface ManagePage {
  /** The template under views/, without `.eta`. */
  template: string;
  title: string;
  /** The menu entry to mark as the current page. */
  current?: string;
  status?: number;
  /** The signed-in editor; absent on the sign-in form and on refusals without a session. */
  editor?: EditorSession | { actor: Actor; formToken?: string };
  /** What the template reads as `it.data`. */
  data?: Record<string, unknown>;
}

/**
 * Renders the editing pages (editing.md): Eta templates with escaping on (`<%= %>`; `<%~ %>` only
 * for HTML built by the pages themselves), inside one layout with the editor's menu. The
 * stylesheet and the small script are served by the service itself (no request leaves the
 * origin).
 */
@Injectable()
export class ManageViews {
  private readonly eta = new Eta({ views: VIEWS_DIR, autoEscape: true, autoTrim: [false, 'nl'], cache: true, useWith: false });
  /** The editing pages' root path: `/manage` under the base URL's path. */
  readonly root: string;
  /** The sign-in form: `/manage/login`, as editing.md names it (no trailing slash). */
  readonly login: string;
  /** The public pages' root path. */
  readonly site: string;
  readonly stylesheet: ManageAsset;
  readonly script: ManageAsset;

  constructor(
    private readonly config: AppConfig,
    private readonly reviews: ReviewQueue,
  ) {
    const prefix = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
    this.root = `${prefix}/manage`;
    this.site = `${prefix}/`;
    this.login = `${this.root}/login`;
    this.stylesheet = this.asset('manage.css', 'text/css; charset=UTF-8');
    this.script = this.asset('manage.js', 'text/javascript; charset=UTF-8');
  }

  /** A path of the editing pages: `path('events', 12)` → `/manage/events/12/`. */
  path(...segments: (string | number)[]): string {
    return segments.length === 0 ? `${this.root}/` : `${this.root}/${segments.join('/')}/`;
  }

  /** The page, rendered in the layout and sent. */
  async send(reply: FastifyReply, page: ManagePage): Promise<void> {
    const actor = page.editor?.actor;
    // The menu's count of events waiting for review, for those who review (a cached count); not
    // on a page about a failure, which must show even when the database cannot answer.
    const pending = actor && mayReview(actor) && (page.status ?? 200) < 500 ? await this.reviews.pendingCount(actor) : undefined;
    const html = this.render(page, pending);
    await reply
      .status(page.status ?? 200)
      .type('text/html; charset=UTF-8')
      .send(html);
  }

  /** The page's HTML; `pending`: the count beside "Review" in the menu. */
  render(page: ManagePage, pending?: number): string {
    const actor = page.editor?.actor;
    const common = {
      siteTitle: this.config.siteTitle,
      root: this.root,
      site: this.site,
      login: this.login,
      path: (...segments: (string | number)[]) => this.path(...segments),
      css: this.stylesheet.url,
      js: this.script.url,
      actor,
      formToken: page.editor?.formToken,
    };
    const body = this.eta.render(page.template, { ...common, data: page.data ?? {} });
    return this.eta.render('layout', { ...common, title: page.title, current: page.current, menu: actor ? this.menu(actor, pending) : [], body });
  }

  /** What the editor's role may open (auth.md §2): reviewers also see the review queue, administrators users and sources. */
  private menu(actor: Actor, pending: number | undefined): MenuItem[] {
    const items: MenuItem[] = [
      { key: 'overview', label: 'Overview', href: this.path() },
      { key: 'events', label: 'Events', href: this.path('events') },
      ...(mayReview(actor) ? [{ key: 'review', label: 'Review', href: this.path('review'), count: pending }] : []),
      { key: 'venues', label: 'Venues', href: this.path('venues') },
      { key: 'organizers', label: 'Organizers', href: this.path('organizers') },
      { key: 'categories', label: 'Categories', href: this.path('categories') },
      { key: 'tags', label: 'Tags', href: this.path('tags') },
    ];
    if (actor.role === 'administrator') {
      items.push({ key: 'users', label: 'Users', href: this.path('users') }, { key: 'sources', label: 'Sources', href: this.path('sources') });
    }
    return items;
  }

  private asset(name: string, type: string): ManageAsset {
    const body = readFileSync(join(ASSETS_DIR, name));
    const [stem, ext] = name.split('.');
    const file = `${stem}.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.${ext}`;
    return { file, url: `${this.root}/assets/${file}`, type, body };
  }
}
