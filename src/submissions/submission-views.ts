import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';
import { InstalledFeatures } from '../common/feature/feature';
import { AppConfig } from '../config/app-config';
import { PageAssets } from '../pages';

/** Where the submission pages' templates and stylesheet live (copied beside the compiled code by `nest build`). */
const VIEWS_DIR = join(__dirname, 'views');
const STYLESHEET = join(__dirname, 'assets', 'submissions.css');

/** What a page gives to be shown in the public site's layout. */
export interface SubmissionPage {
  /** The template under views/, without `.eta`. */
  template: string;
  title: string;
  status?: number;
  /** What the template reads as `it.data`. */
  data?: Record<string, unknown>;
}

/**
 * Renders the submission pages (editing.md §4) in the public site's layout: its header, footer
 * and stylesheet (when the public pages are on), with a small stylesheet of their own for the
 * form. Eta with escaping on (`<%= %>`; `<%~ %>` only for HTML these pages build themselves).
 */
@Injectable()
export class SubmissionViews {
  private readonly eta = new Eta({ views: VIEWS_DIR, autoEscape: true, autoTrim: [false, 'nl'], cache: true, useWith: false });
  /** The submission pages' root path: `/events/community` under the base URL's path. */
  readonly root: string;
  /** The sign-in form of the editing pages, when they are on. */
  readonly login: string | null;
  readonly stylesheet: { file: string; url: string; body: Buffer };
  /** The public pages' stylesheet and links, when they are on. */
  private readonly site: { css: string; links: Record<string, string> } | null;

  constructor(
    private readonly config: AppConfig,
    installed: InstalledFeatures,
    pageAssets: PageAssets,
  ) {
    const prefix = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
    this.root = `${prefix}/events/community`;
    const on = (name: string) => installed.enabled.some((f) => f.name === name);
    this.login = on('manage') ? `${prefix}/manage/login` : null;
    const body = readFileSync(STYLESHEET);
    const file = `submissions.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.css`;
    this.stylesheet = { file, url: `${this.root}/assets/${file}`, body };
    const url = (path: string) => `${config.publicUrl}${path}`;
    this.site = on('pages')
      ? { css: pageAssets.stylesheet.url, links: { list: url('/events/'), month: url('/events/month/'), day: url('/events/today/') } }
      : null;
  }

  /** A path of the submission pages: `path('add')` → `/events/community/add/`. */
  path(...segments: string[]): string {
    return `${this.root}/${segments.map((s) => `${s}/`).join('')}`;
  }

  /** The sign-in form, back to `next` after; null without the editing pages. */
  signIn(next: string): string | null {
    return this.login === null ? null : `${this.login}?next=${encodeURIComponent(next)}`;
  }

  async send(reply: FastifyReply, page: SubmissionPage): Promise<void> {
    await reply
      .status(page.status ?? 200)
      .type('text/html; charset=UTF-8')
      .send(this.render(page));
  }

  render(page: SubmissionPage): string {
    const common = { siteTitle: this.config.siteTitle, path: (...s: string[]) => this.path(...s) };
    const body = this.eta.render(page.template, { ...common, data: page.data ?? {} });
    return this.eta.render('layout', {
      ...common,
      title: page.title,
      body,
      css: [...(this.site ? [this.site.css] : []), this.stylesheet.url],
      links: this.site?.links ?? null,
      home: this.site?.links.list ?? this.path('add'),
    });
  }
}
