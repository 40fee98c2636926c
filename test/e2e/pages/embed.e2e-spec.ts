// The embeds (pages.md, "On other sites") through the real HTTP stack, without a browser:
// `/events/embed/` and `/events/embed/month/` show what the list and the month grid show (the
// same filters, against the API), with `limit` and `theme`, no site header, footer, form or
// script, every link opening in the parent page but the embed's own pages; only they may be
// framed by other sites (CALENDAR_EMBED_ORIGINS, default any), fresh, cached, 304 and redirected
// alike, while every other page keeps `frame-ancestors 'self'`; a bad setting stops the start;
// the list page offers the `<iframe>` snippet with its filters.
import type { Response } from 'supertest';
import { settingsOf } from '../../../src/common/feature/feature';
import { ConfigError, loadConfig } from '../../../src/config/app-config';
import { installedFeatures } from '../../../src/features';
import { EMBED_ORIGINS } from '../../../src/pages/embed-options';
import { getOk } from '../../support/api';
import { gridCells } from '../../support/page-html';
import { API, http } from '../../support/http';
import { PagesSeed, seedPages, SITE_ZONE } from '../../support/pages-seed';
import { createTestApp, TestApp } from '../../support/test-app';

const SITE_TITLE = 'Canal "Events" <&>';
const HTML = 'text/html; charset=utf-8';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name.toLowerCase()] = values;
  }
  return out;
}

/** Who may frame an answer: its `frame-ancestors` and X-Frame-Options; and the rest of its policy. */
function framing(res: Response) {
  const { 'frame-ancestors': frameAncestors, ...rest } = directives(res.headers['content-security-policy']);
  return { status: res.status, frameAncestors, xFrameOptions: res.headers['x-frame-options'], rest };
}

const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Every link of a page's body: its address (unescaped), its target, its text. */
function linksOf(html: string): { href: string; target: string | undefined; text: string }[] {
  const body = html.slice(html.indexOf('<body'));
  return [...body.matchAll(/<a\s([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => {
    const attrs = Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], unescape(a[2])]));
    return {
      href: attrs.href,
      target: attrs.target,
      text: unescape(
        m[2]
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      ),
    };
  });
}

/** The titles of the event cards, in page order, whatever the link's attributes. */
function titles(html: string): string[] {
  return [...html.matchAll(/class="event-card-title"><a [^>]*>([^<]+)</g)].map((m) => unescape(m[1]));
}

describe('embeds (pages.md, "On other sites")', () => {
  let t: TestApp;
  let seed: PagesSeed;
  let embed: string;

  beforeAll(async () => {
    t = await createTestApp({ CALENDAR_TIMEZONE: SITE_ZONE, CALENDAR_SITE_TITLE: SITE_TITLE });
    const admin = await t.userHeader('embed-admin', 'administrator');
    seed = await seedPages(t, admin.authorization);
    embed = `${t.baseUrl}/events/embed/`;
  });
  afterAll(async () => t?.close());

  /** The titles the API lists for these parameters, as an anonymous reader. */
  async function apiTitles(params: Record<string, string | number>): Promise<string[]> {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    return ((await getOk(t, `${API}/events?${qs}`)).events as { title: string }[]).map((e) => e.title);
  }

  async function page(path: string, status = 200): Promise<string> {
    const res = await http(t).get(path);
    expect({ path, status: res.status, type: res.headers['content-type'] }).toEqual({ path, status, type: HTML });
    return res.text;
  }

  it("the list embed shows the list's events for each of the list's filters, as the API lists them", async () => {
    const filters: Record<string, string | number>[] = [
      {},
      { categories: seed.music.slug },
      { categories: seed.family.id },
      { tags: seed.outdoor.slug },
      { venue: seed.venue.id },
      { organizer: seed.organizer.id },
      { search: 'canal' },
      { categories: seed.music.slug, venue: seed.venue.id },
    ];
    for (const f of filters) {
      const qs = new URLSearchParams(Object.entries(f).map(([k, v]) => [k, String(v)])).toString();
      const expected = await apiTitles({ ...f, per_page: 10 });
      expect(expected.length).toBeGreaterThan(0);
      expect({ filters: f, titles: titles(await page(`/events/embed/?${qs}`)) }).toEqual({ filters: f, titles: expected });
    }
    expect(titles(await page('/events/embed/'))).not.toContain(seed.draft.title);
  });

  it('no site header, footer, navigation, filter form or script; nothing inline; every link opens in the parent page but its own pages', async () => {
    for (const path of [
      '/events/embed/?limit=2',
      `/events/embed/month/`,
      `/events/embed/month/${seed.today.plus({ months: 1 }).toFormat('yyyy-MM')}/?theme=dark`,
    ]) {
      const html = await page(path);
      expect({
        path,
        chrome: html.match(/<header|<footer|<nav aria-label="Calendar views"|site-header|site-footer|skip-link|<form|<script|<style|\sstyle=/g),
      }).toEqual({
        path,
        chrome: null,
      });
      const links = linksOf(html);
      expect(links.length).toBeGreaterThan(3);
      // The embed's own pages (pager, months) stay in the frame; everything else opens in the parent page.
      const own = (href: string) => href.startsWith(embed);
      expect({ path, links: links.filter((l) => (own(l.href) ? l.target !== undefined : l.target !== '_top')) }).toEqual({ path, links: [] });
      expect(links.filter((l) => own(l.href)).length).toBeGreaterThan(0);
      // The reader can reach the whole calendar, in the parent page.
      expect(links).toContainEqual({ href: expect.stringMatching(new RegExp(`^${t.baseUrl}/events/`)), target: '_top', text: `All events on ${SITE_TITLE}` });
    }
  });

  it('?limit=N: N events a page (1 to 50, default 10); its pager stays in the frame and keeps the filters and the options', async () => {
    expect(titles(await page('/events/embed/'))).toEqual(await apiTitles({ per_page: 10 }));
    expect(titles(await page('/events/embed/?limit='))).toEqual(await apiTitles({ per_page: 10 }));
    expect(titles(await page('/events/embed/?limit=1'))).toEqual(await apiTitles({ per_page: 1 }));
    expect(titles(await page('/events/embed/?limit=50'))).toEqual(await apiTitles({ per_page: 50 }));

    const first = await page(`/events/embed/?limit=2&theme=dark&venue=${seed.venue.id}`);
    expect(titles(first)).toEqual(await apiTitles({ per_page: 2, venue: seed.venue.id }));
    const next = linksOf(first).find((l) => l.text.startsWith('Next page'))!;
    expect(next).toEqual({ href: `${embed}?venue=${seed.venue.id}&limit=2&theme=dark&page=2`, target: undefined, text: 'Next page →' });
    const second = await page(new URL(next.href).pathname + new URL(next.href).search);
    expect(titles(second)).toEqual(await apiTitles({ per_page: 2, page: 2, venue: seed.venue.id }));
    expect(second).toContain('<html lang="en" class="theme-dark">');
    const previous = linksOf(second).find((l) => l.text.startsWith('← Previous page'))!;
    expect(previous).toEqual({ href: `${embed}?venue=${seed.venue.id}&limit=2&theme=dark`, target: undefined, text: '← Previous page' });
    // Past the last page: the embed's 404 page.
    expect(await page('/events/embed/?limit=2&page=99', 404)).toContain('class="theme-light"');
  });

  it('a bad limit or theme is a 400 page in the frame that names the parameter, without the site header', async () => {
    const bad = ['limit=0', 'limit=51', 'limit=ten', 'limit=2.5', 'limit=-3', 'limit[]=5', 'theme=blue', 'theme=DARK', 'theme[]=dark'];
    for (const qs of bad) {
      const html = await page(`/events/embed/?${qs}`, 400);
      const message = qs.startsWith('limit') ? 'limit must be a whole number from 1 to 50.' : 'theme must be light or dark.';
      expect({ qs, message: html.includes(`<p>${message}</p>`), header: html.includes('site-header'), embed: html.includes('<body class="embed">') }).toEqual({
        qs,
        message: true,
        header: false,
        embed: true,
      });
    }
    expect(await page('/events/embed/month/?theme=blue', 400)).toContain('<p>theme must be light or dark.</p>');
    // An error page keeps the theme asked for when that one is valid.
    expect(await page('/events/embed/?limit=0&theme=dark', 400)).toContain('<html lang="en" class="theme-dark">');
    // Filters the API refuses, and an unknown month, as the pages answer them, in the frame.
    expect(await page('/events/embed/?categories=no-such-category', 400)).toContain('<body class="embed">');
    expect(await page('/events/embed/month/2030-13/', 404)).toContain('<body class="embed">');
  });

  it('?theme=dark|light: the class the stylesheet colours, whatever the reader prefers; light by default', async () => {
    const light = await page('/events/embed/');
    const dark = await page('/events/embed/?theme=dark');
    expect(
      [light, await page('/events/embed/?theme=light'), dark, await page('/events/embed/month/?theme=dark')].map(
        (h) => /<html lang="en" class="([^"]+)">/.exec(h)?.[1],
      ),
    ).toEqual(['theme-light', 'theme-light', 'theme-dark', 'theme-dark']);
    expect(dark).toContain('<meta name="color-scheme" content="dark">');
    const css = (
      await http(t)
        .get(new URL(/<link rel="stylesheet" href="([^"]+)">/.exec(dark)![1]).pathname)
        .expect(200)
    ).text;
    expect(css).toMatch(/html\.theme-dark \{[^}]*--bg: #141416;[^}]*color-scheme: dark;/);
  });

  it("the month embed: the month page's grid for the same filters, its months in the frame, days and events in the parent page", async () => {
    const key = seed.today.toFormat('yyyy-MM');
    const next = seed.today.plus({ months: 1 }).toFormat('yyyy-MM');
    const previous = seed.today.minus({ months: 1 }).toFormat('yyyy-MM');
    for (const [embedPath, pagePath] of [
      ['/events/embed/month/', '/events/month/'],
      [`/events/embed/month/${next}/`, `/events/month/${next}/`],
      [`/events/embed/month/?categories=${seed.family.slug}`, `/events/month/?categories=${seed.family.slug}`],
    ]) {
      const cells = gridCells(await page(embedPath));
      expect(cells.size).toBeGreaterThanOrEqual(28);
      expect({ embedPath, cells: [...cells] }).toEqual({ embedPath, cells: [...gridCells(await page(pagePath))] });
    }
    const today = gridCells(await page('/events/embed/month/')).get(seed.today.toISODate()!)!;
    expect(today).toContain(seed.concert.title);
    expect(today).toContain(seed.market.title);
    expect(today).not.toContain(seed.draft.title);

    const html = await page(`/events/embed/month/${key}/?theme=dark&tags=${seed.outdoor.slug}`);
    const links = linksOf(html);
    const months = `${t.baseUrl}/events/embed/month/`;
    expect(links.filter((l) => l.href.startsWith(months))).toEqual([
      { href: `${months}${previous}/?tags=${seed.outdoor.slug}&theme=dark`, target: undefined, text: expect.stringContaining('←') },
      { href: `${months}${next}/?tags=${seed.outdoor.slug}&theme=dark`, target: undefined, text: expect.stringContaining('→') },
    ]);
    expect(links).toContainEqual({
      href: `${t.baseUrl}/events/${seed.today.toISODate()}/?tags=${seed.outdoor.slug}`,
      target: '_top',
      text: expect.any(String),
    });
    expect(links).toContainEqual({ href: seed.market.url, target: '_top', text: expect.stringContaining(seed.market.title) });
    // Another month than this one links back to this month, in the frame.
    expect(linksOf(await page(`/events/embed/month/${next}/`))).toContainEqual({ href: months, target: undefined, text: 'This month' });
  });

  it('a path without its trailing slash redirects to the slashed one, with its query', async () => {
    for (const [from, to] of [
      ['/events/embed?limit=3&theme=dark', '/events/embed/?limit=3&theme=dark'],
      ['/events/embed/month', '/events/embed/month/'],
      ['/events/embed/month/2030-06?categories=music', '/events/embed/month/2030-06/?categories=music'],
    ]) {
      const res = await http(t).get(from).expect(301);
      expect(res.headers.location).toBe(`${t.baseUrl}${to}`);
    }
  });

  it('only the embeds may be framed by other sites (default any: *), fresh, cached, 304 and redirected; every other page keeps self', async () => {
    const month = seed.today.toFormat('yyyy-MM');
    const embeds = ['/events/embed/', '/events/embed/?limit=3&theme=dark', '/events/embed/month/', `/events/embed/month/${month}/`];
    const others = [
      '/events/',
      '/events/month/',
      `/events/${seed.today.toISODate()}/`,
      `/event/${seed.concert.slug}/`,
      `/venue/${seed.venue.slug}/`,
      '/event/no-such/',
    ];
    const { rest: pagePolicy } = framing(await http(t).get('/events/'));
    const seen: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const path of [...embeds, ...others]) {
      const isEmbed = embeds.includes(path);
      for (const round of ['fresh', 'cached']) {
        const res = await http(t).get(path);
        seen[`${path} ${round}`] = framing(res);
        expected[`${path} ${round}`] = {
          status: path === '/event/no-such/' ? 404 : 200,
          frameAncestors: isEmbed ? ['*'] : ["'self'"],
          xFrameOptions: isEmbed ? undefined : 'SAMEORIGIN',
          rest: pagePolicy,
        };
      }
    }
    for (const path of ['/events/embed?limit=3', '/events/embed/?limit=0', '/events/embed/month/2030-13/']) {
      seen[path] = framing(await http(t).get(path));
      expected[path] = {
        status: path.includes('?limit=3') ? 301 : path.includes('2030-13') ? 404 : 400,
        frameAncestors: ['*'],
        xFrameOptions: undefined,
        rest: pagePolicy,
      };
    }
    const first = await http(t).get('/events/embed/').expect(200);
    seen['304'] = framing(
      await http(t)
        .get('/events/embed/')
        .set('If-None-Match', first.headers.etag as string),
    );
    expected['304'] = { status: 304, frameAncestors: ['*'], xFrameOptions: undefined, rest: pagePolicy };
    expect(seen).toEqual(expected);
    expect(pagePolicy['default-src']).toEqual(["'self'"]);
  });

  it('CALENDAR_EMBED_ORIGINS: the embeds name those origins; the other pages still only themselves', async () => {
    const partner = await createTestApp({ CALENDAR_EMBED_ORIGINS: 'https://partner.example  http://localhost:8080/ HTTPS://Blog.Example:443' });
    try {
      for (const round of ['fresh', 'cached']) {
        for (const path of ['/events/embed/', '/events/embed/month/', '/events/embed/?theme=blue']) {
          const res = framing(await http(partner).get(path));
          expect({ path, round, ...res, rest: undefined }).toEqual({
            path,
            round,
            status: path.includes('blue') ? 400 : 200,
            frameAncestors: ['https://partner.example', 'http://localhost:8080', 'https://blog.example'],
            xFrameOptions: undefined,
            rest: undefined,
          });
        }
        const list = framing(await http(partner).get('/events/'));
        expect([list.frameAncestors, list.xFrameOptions]).toEqual([["'self'"], 'SAMEORIGIN']);
      }
      // The first app's answers of the same paths, in the same second, are still its own.
      expect(framing(await http(t).get('/events/embed/')).frameAncestors).toEqual(['*']);
    } finally {
      await partner.close();
    }
  });

  it('a CALENDAR_EMBED_ORIGINS that is not * or origins stops the start, naming the variable', () => {
    // What main.ts reads the environment with: the core's variables and the installed features' settings.
    const settings = installedFeatures([]).flatMap(settingsOf);
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:', CALENDAR_EMBED_ORIGINS: 'https://a.example' }, settings).get(EMBED_ORIGINS)).toEqual([
      'https://a.example',
    ]);
    const notOrigins = (first: string) => `* or space-separated origins such as https://www.example.org (not "${first}")`;
    for (const [value, problem] of [
      ['www.example.org', notOrigins('www.example.org')],
      ['https://example.org/calendar', notOrigins('https://example.org/calendar')],
      ["https://a.example 'self'", notOrigins("'self'")],
      ['https://a.example;frame-ancestors', notOrigins('https://a.example;frame-ancestors')],
      ['* https://a.example', '* alone (any site) or a list of origins, not both'],
    ]) {
      expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', CALENDAR_EMBED_ORIGINS: value }, settings)).toThrow(
        new ConfigError([`CALENDAR_EMBED_ORIGINS must be ${problem} (got "${value}")`]),
      );
    }
  });

  it('the list page offers the <iframe> to copy ("Embed this calendar"), with the current filters, escaped', async () => {
    const snippetOf = (html: string) => {
      const section = /<section class="embed-snippet"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
      return {
        heading: /<h2 id="embed-snippet-title">([^<]+)<\/h2>/.exec(section)?.[1],
        labelled: /<label for="embed-snippet-code">[^<]+<\/label>\s*<textarea id="embed-snippet-code" readonly/.test(section),
        code: unescape(/<textarea[^>]*>([^<]*)<\/textarea>/.exec(section)?.[1] ?? ''),
      };
    };
    const title = 'Upcoming events · Canal &quot;Events&quot; &lt;&amp;&gt;';
    expect(snippetOf(await page('/events/'))).toEqual({
      heading: 'Embed this calendar',
      labelled: true,
      code: `<iframe src="${embed}" title="${title}" width="100%" height="600" loading="lazy"></iframe>`,
    });
    expect(snippetOf(await page(`/events/?categories=${seed.music.slug}&tags=${seed.outdoor.slug}&page=1`)).code).toBe(
      `<iframe src="${embed}?categories=${seed.music.slug}&amp;tags=${seed.outdoor.slug}" title="${title}" width="100%" height="600" loading="lazy"></iframe>`,
    );
    // What is pasted shows what the list showed.
    expect(titles(await page(`/events/embed/?categories=${seed.family.slug}`))).toEqual(titles(await page(`/events/?categories=${seed.family.slug}`)));
    // Only the list page offers it.
    for (const path of [
      '/events/month/',
      `/events/${seed.today.toISODate()}/`,
      `/event/${seed.concert.slug}/`,
      `/tag/${seed.outdoor.slug}/`,
      '/events/embed/',
    ]) {
      expect({ path, snippet: (await page(path)).includes('Embed this calendar') }).toEqual({ path, snippet: false });
    }
  });

  it("the snippet is built on the pages' own address (CALENDAR_SITE_URL)", async () => {
    const site = await createTestApp({ CALENDAR_SITE_URL: 'https://www.example.org/whatson/' });
    try {
      const html = (await http(site).get('/events/').expect(200)).text;
      expect(unescape(/<textarea[^>]*>([^<]*)<\/textarea>/.exec(html)![1])).toContain('<iframe src="https://www.example.org/whatson/events/embed/"');
    } finally {
      await site.close();
    }
  });
});
