/// <reference lib="dom" />
// The public pages (pages.md) in a real browser: Debian's Chromium driven by playwright-core.
// A reader's path through the calendar checked against the API, axe-core on every page kind,
// nothing fetched from another origin, keyboard focus, JavaScript off, and screenshots of every
// page kind at 375 and 1280 px as artefacts (test-artifacts/screenshots/, git-ignored).
// UPDATE_SCREENSHOTS=1 (npm run screenshots) also rewrites the few small PNGs under
// docs/screenshots/ that the README shows (under 150 KB each); ordinary runs leave them alone.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { getOk } from '../../support/api';
import { describeWithBrowser, freePort, launchBrowser, describeViolations, sidewaysOverflow } from '../../support/browser';
import { API } from '../../support/http';
import { PagesSeed, seedPages, SITE_ZONE } from '../../support/pages-seed';
import { createTestApp, TestApp } from '../../support/test-app';

const describeBrowser = describeWithBrowser('the public pages in Chromium');
jest.setTimeout(240_000); // every page kind at two widths with axe-core: about a minute on an idle machine

const ROOT = join(__dirname, '..', '..', '..');
const ARTEFACTS = join(ROOT, 'test-artifacts', 'screenshots');
const DOCS = join(ROOT, 'docs', 'screenshots');
const UPDATE_DOCS = process.env.UPDATE_SCREENSHOTS === '1';
/** Committed PNGs stay small. */
const DOCS_MAX_BYTES = 150_000;
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The two widths pages.md promises; heights are a phone's and a laptop's. */
const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

/** Page kinds, and which of them the README shows. */
interface PageKind {
  kind: string;
  path: (s: PagesSeed) => string;
  status?: number;
  /** The widths at which the README shows it. */
  docs?: readonly number[];
  dark?: boolean;
}

const month = (d: PagesSeed['today']) => d.toFormat('yyyy-MM');
const PAGE_KINDS: PageKind[] = [
  { kind: 'list', path: () => '/events/', docs: [1280] },
  { kind: 'month', path: () => '/events/month/', docs: [375, 1280], dark: true },
  { kind: 'month-next', path: (s) => `/events/month/${month(s.today.plus({ months: 1 }))}/` },
  { kind: 'day', path: (s) => `/events/${s.today.toISODate()}/` },
  { kind: 'event', path: (s) => `/event/${s.concert.slug}/`, docs: [375, 1280], dark: true },
  { kind: 'event-other-zone', path: (s) => `/event/${s.talk.slug}/` },
  { kind: 'venue', path: (s) => `/venue/${s.venue.slug}/` },
  { kind: 'organizer', path: (s) => `/organizer/${s.organizer.slug}/` },
  { kind: 'category', path: (s) => `/events/category/${s.music.slug}/${s.jazz.slug}/` },
  { kind: 'tag', path: (s) => `/tag/${s.outdoor.slug}/` },
  { kind: 'not-found', path: () => '/event/no-such-event/', status: 404 },
];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe-core's serious and critical violations on the page (WCAG 2.x A and AA rules). */
async function axeProblems(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Waits (a few seconds at most) for the first element `locator` finds to be visible; fails naming it. */
async function visible(locator: Locator): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout: 5_000 });
}

/** The visible text of the one element `locator` finds, whitespace collapsed. */
async function textOf(locator: Locator): Promise<string> {
  return (await locator.innerText({ timeout: 5_000 })).replace(/\s+/g, ' ').trim();
}

/** The focused element (in the page): a link with an outline or a shadow, inside the viewport. */
function focusState() {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  return {
    tag: el.tagName,
    text: el.textContent?.trim(),
    visible: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none',
    onScreen: rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < innerHeight,
  };
}

describeBrowser('the public pages in Chromium (pages.md)', () => {
  let t: TestApp;
  let origin: string;
  let seed: PagesSeed;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({ CALENDAR_BASE_URL: origin, CALENDAR_GEO: 'on', CALENDAR_TIMEZONE: SITE_ZONE, CALENDAR_SITE_TITLE: 'Canal Events' });
    await t.app.listen(port, '127.0.0.1');
    const admin = await t.userHeader('pages-admin', 'administrator');
    seed = await seedPages(t, admin.authorization);
    browser = await launchBrowser();
    mkdirSync(ARTEFACTS, { recursive: true });
    if (UPDATE_DOCS) mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A fresh context (no cookies, no cache) whose pages record every request that leaves the origin. */
  async function open(opts: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page; foreign: string[] }> {
    const context = await browser.newContext({ viewport: WIDTHS[1], ...opts });
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) foreign.push(url);
    });
    return { context, page, foreign };
  }

  async function goto(page: Page, path: string, status = 200) {
    const res = await page.goto(`${origin}${path}`);
    expect({ path, status: res?.status() }).toEqual({ path, status });
    expect(res?.headers()['content-type']).toMatch(/^text\/html/);
  }

  it("a reader's path: list → event → venue → month → next month, as the API has it", async () => {
    const { context, page, foreign } = await open();
    try {
      await goto(page, '/events/');
      expect(await page.getByRole('link', { name: seed.draft.title }).count()).toBe(0);
      await page.getByRole('link', { name: seed.concert.title }).first().click();
      await page.waitForURL(`${origin}/event/${seed.concert.slug}/`);

      // The event page against GET /events/{id}.
      const api = (await getOk(t, `${API}/events/${seed.concert.id}`)) as typeof seed.concert;
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe(api.title);
      const text = await page.locator('main').innerText();
      expect(text).toContain(api.timezone_abbr);
      expect(text).toContain(api.start_date.slice(11, 16)); // 19:30, the event's wall-clock start
      expect(text).toContain(api.end_date.slice(11, 16));
      expect(text).toContain((api.venue as unknown as { venue: string }).venue);
      for (const o of api.organizer) expect(text).toContain(o.organizer as string);
      for (const c of api.categories) await visible(page.getByRole('link', { name: c.name, exact: true }));
      for (const tag of api.tags) await visible(page.getByRole('link', { name: new RegExp(`^#?${tag.name}$`) }));
      expect(text).toContain('live jazz');
      expect(await page.locator('main strong', { hasText: 'live jazz' }).count()).toBe(1); // the stored HTML, not escaped text
      expect(await page.locator('a[href^="https://www.openstreetmap.org/?mlat=48.8709&mlon=2.3633"]').count()).toBe(1);
      expect(await page.locator(`a[href^="mailto:${seed.organizer.email}"]`).count()).toBe(1);
      expect(await page.locator('a[href*="calendar.google.com"]').count()).toBe(1);

      // The venue page: the record and its upcoming events (not the draft).
      await page.getByRole('link', { name: seed.venue.venue, exact: true }).first().click();
      await page.waitForURL(`${origin}/venue/${seed.venue.slug}/`);
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe(seed.venue.venue);
      const venueText = await page.locator('main').innerText();
      expect(venueText).toContain(seed.venue.address);
      expect(venueText).toContain(seed.venue.city);
      await visible(page.getByRole('link', { name: seed.nextMonth.title }));
      expect(await page.getByRole('link', { name: seed.draft.title }).count()).toBe(0);

      // The month view, through the site's navigation: today's events on today's cell.
      await page
        .getByRole('link', { name: /^month\b/i })
        .first()
        .click();
      await page.waitForURL(new RegExp(`^${origin}/events/month/(${month(seed.today)}/)?$`));
      const caption = seed.today.setLocale('en').toFormat('LLLL yyyy');
      await visible(page.getByText(caption).first());
      const todayCell = dayCell(page, seed.today.toISODate()!);
      await visible(todayCell.getByRole('link', { name: seed.concert.title }));
      // All-day events first.
      const todayLinks = await todayCell.getByRole('link').allInnerTexts();
      expect(todayLinks.findIndex((name) => name.includes(seed.market.title))).toBeGreaterThanOrEqual(0);
      expect(todayLinks.findIndex((name) => name.includes(seed.market.title))).toBeLessThan(todayLinks.findIndex((name) => name.includes(seed.concert.title)));
      expect(await page.getByRole('link', { name: seed.draft.title }).count()).toBe(0);
      // The multi-day fair on each day it covers that this month shows.
      for (let d = seed.today.plus({ days: 1 }); d <= seed.today.plus({ days: 3 }) && d.month === seed.today.month; d = d.plus({ days: 1 })) {
        await visible(dayCell(page, d.toISODate()!).getByRole('link', { name: seed.fair.title }));
      }

      // Next month: URL, caption and its event.
      const next = seed.today.plus({ months: 1 });
      const nextCaption = next.setLocale('en').toFormat('LLLL yyyy');
      await page
        .getByRole('link', { name: new RegExp(`^${nextCaption}`) })
        .first()
        .click();
      await page.waitForURL(`${origin}/events/month/${month(next)}/`);
      await visible(page.getByText(nextCaption).first());
      await visible(dayCell(page, next.set({ day: 10 }).toISODate()!).getByRole('link', { name: seed.nextMonth.title }));
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /** The cell of one day in the month grid: the table cell that links to that day's page. */
  function dayCell(page: Page, iso: string) {
    return page.locator('td').filter({ has: page.locator(`a[href="${origin}/events/${iso}/"]`) });
  }

  it('every page kind: axe-core finds nothing serious or critical, no sideways scrolling, nothing from another origin (375 and 1280 px; screenshots saved)', async () => {
    const problems: string[] = [];
    for (const size of WIDTHS) {
      const { context, page, foreign } = await open({ viewport: size, bypassCSP: true });
      try {
        for (const kind of PAGE_KINDS) {
          const path = kind.path(seed);
          await goto(page, path, kind.status);
          const where = `${kind.kind} ${path} at ${size.width} px`;
          problems.push(...(await sidewaysOverflow(page)).map((el) => `${where}: wider than the viewport: ${el}`));
          await shoot(page, `${kind.kind}-${size.width}`, kind.docs?.includes(size.width));
          if (kind.dark) {
            await page.emulateMedia({ colorScheme: 'dark' });
            await shoot(page, `${kind.kind}-${size.width}-dark`, false);
            problems.push(...describeViolations(`${where} (dark)`, await axeProblems(page)));
            await page.emulateMedia({ colorScheme: 'light' });
            await goto(page, path, kind.status);
          }
          problems.push(...describeViolations(where, await axeProblems(page)));
        }
        problems.push(...foreign.map((url) => `${size.width} px: a request left the origin: ${url}`));
      } finally {
        await context.close();
      }
    }
    if (problems.length) console.log(`Page problems:\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });

  it('the security policy blocks nothing a page uses, and does block inline script and style', async () => {
    const { context, page } = await open();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    // Registered before any page script could run: every report of the policy, as the page saw it.
    await page.addInitScript(() => {
      const w = window as unknown as { violations: string[] };
      w.violations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    const violations = () => page.evaluate(() => (window as unknown as { violations: string[] }).violations);
    try {
      const seen: Record<string, unknown> = {};
      for (const kind of PAGE_KINDS) {
        const path = kind.path(seed);
        const res = await page.goto(`${origin}${path}`);
        // The stylesheet came through: the page has its rules.
        const styled = await page.evaluate(() => Array.from(document.styleSheets).reduce((n, sheet) => n + sheet.cssRules.length, 0) > 0);
        seen[kind.kind] = {
          status: res?.status(),
          policy: /default-src 'self'/.test(res?.headers()['content-security-policy'] ?? ''),
          styled,
          violations: await violations(),
        };
      }
      expect(seen).toEqual(Object.fromEntries(PAGE_KINDS.map((k) => [k.kind, { status: k.status ?? 200, policy: true, styled: true, violations: [] }])));
      expect(refused).toEqual([]);

      // The check does check: an inline script and an inline style added to a page are refused and reported.
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = '(window).inlineRan = true;';
        const style = document.createElement('style');
        style.textContent = 'body { background: red; }';
        document.head.append(script, style);
      });
      await page.waitForFunction(() => (window as unknown as { violations: string[] }).violations.length >= 2, undefined, { timeout: 5_000 });
      expect((await violations()).map((v) => v.split(' ')[0]).sort()).toEqual(['script-src-elem', 'style-src-elem']);
      expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('the accessibility check does check: an image without text alternative is reported critical', async () => {
    const { context, page } = await open();
    try {
      await page.setContent('<!doctype html><html lang="en"><title>Probe</title><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></html>');
      expect((await axeProblems(page)).map((v) => `${v.impact} ${v.id}`)).toEqual(['critical image-alt']);
    } finally {
      await context.close();
    }
  });

  /** A full-page artefact; with UPDATE_SCREENSHOTS=1 and `docs`, the same for the README (only the viewport if that would weigh over DOCS_MAX_BYTES). */
  async function shoot(page: Page, name: string, docs = false) {
    const png = await page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });
    if (docs && UPDATE_DOCS) writeFileSync(join(DOCS, `${name}.png`), png.length <= DOCS_MAX_BYTES ? png : await page.screenshot());
  }

  it("an event in another zone: its own wall-clock times and abbreviation, then the site zone's", async () => {
    const { context, page } = await open();
    try {
      await goto(page, `/event/${seed.talk.slug}/`);
      const api = (await getOk(t, `${API}/events/${seed.talk.id}`)) as typeof seed.talk;
      const text = await textOf(page.locator('main'));
      expect(text).toContain(`${api.start_date.slice(11, 16)} – ${api.end_date.slice(11, 16)} ${api.timezone_abbr}`);
      const inSite = (utc: string) => DateTime.fromSQL(utc, { zone: 'utc' }).setZone(SITE_ZONE);
      const [start, end] = [inSite(api.utc_start_date), inSite(api.utc_end_date)];
      expect(text).toMatch(new RegExp(`${start.toFormat('HH:mm')} – ${end.toFormat('HH:mm')} CES?T`)); // SITE_ZONE is Europe/Paris
    } finally {
      await context.close();
    }
  });

  it('drafts and unknown slugs answer the 404 page, not their content', async () => {
    const { context, page } = await open();
    try {
      await goto(page, `/event/${seed.draft.slug}/`, 404);
      expect(await page.content()).not.toContain(seed.draft.title);
      await goto(page, '/venue/nobody-here/', 404);
      await visible(page.getByRole('heading', { level: 1 }));
    } finally {
      await context.close();
    }
  });

  it('works without JavaScript: list → event', async () => {
    const { context, page, foreign } = await open({ javaScriptEnabled: false });
    try {
      await goto(page, '/events/');
      await page.getByRole('link', { name: seed.concert.title }).first().click();
      await page.waitForURL(`${origin}/event/${seed.concert.slug}/`);
      expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe(seed.concert.title);
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keyboard: Tab goes through the links of the header (skip link, site title, views) with a visible focus; Enter follows one; the skip link reaches the content', async () => {
    for (const size of WIDTHS) {
      const { context, page } = await open({ viewport: size });
      try {
        await goto(page, '/events/');
        const stops: unknown[] = [];
        for (let i = 0; i < 5; i += 1) {
          await page.keyboard.press('Tab');
          stops.push(await page.evaluate(focusState));
        }
        expect({ width: size.width, stops }).toEqual({
          width: size.width,
          stops: stops.map(() => expect.objectContaining({ tag: 'A', visible: true, onScreen: true })),
        });
        // Enter follows the focused link to another page of the site.
        const target = await page.evaluate(() => (document.activeElement as HTMLAnchorElement).href);
        expect(target.startsWith(`${origin}/`)).toBe(true);
        await page.keyboard.press('Enter');
        await page.waitForURL(target);
        // The first stop skips to the content.
        await goto(page, '/events/');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
      } finally {
        await context.close();
      }
    }
  });
});
