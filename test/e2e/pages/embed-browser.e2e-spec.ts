/// <reference lib="dom" />
// The embeds (pages.md, "On other sites") framed by a page of another site, in Debian's
// Chromium driven by playwright-core: a bare page served on another loopback origin
// (`localhost` and another port, where the calendar is at 127.0.0.1) frames them. With that
// origin in CALENDAR_EMBED_ORIGINS the frame shows the events, their links open in the page and
// the pager stays in the frame; with another origin there, or for any other page of the
// calendar, Chromium refuses the frame and shows none of it. axe-core on both embeds at 375 and
// 1280 px, light and dark.
import { mkdirSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { createEvent, getOk } from '../../support/api';
import { AxeViolation, axeProblems, describeWithBrowser, freePort, launchBrowser } from '../../support/browser';
import { API } from '../../support/http';
import { PagesSeed, seedPages, SITE_ZONE } from '../../support/pages-seed';
import { createTestApp, TestApp } from '../../support/test-app';

const describeBrowser = describeWithBrowser('the embeds framed in Chromium');
jest.setTimeout(240_000);

/** Where the screenshots go (git-ignored), beside the pages' own. */
const ARTEFACTS = join(__dirname, '..', '..', '..', 'test-artifacts', 'screenshots');

const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

/** The calendar listening on 127.0.0.1 at a port its base URL names. */
async function calendar(env: Record<string, string>): Promise<{ t: TestApp; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ CALENDAR_BASE_URL: origin, CALENDAR_TIMEZONE: SITE_ZONE, CALENDAR_SITE_TITLE: 'Canal Events', ...env });
  await t.app.listen(port, '127.0.0.1');
  return { t, origin };
}

const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Another site: `/?src=URL` is a page that frames URL, as the list page's snippet would. Served
 * on `localhost`, an origin other than the calendar's 127.0.0.1 whatever the ports.
 */
async function partnerSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://localhost').searchParams.get('src') ?? '';
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><title>A partner site</title><main><h1>Partner</h1><iframe src="${attribute(src)}" title="Events" width="900" height="700"></iframe></main></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
}

/** The titles the frame shows as links (none when Chromium refused it). */
async function frameTitles(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => Array.from(document.querySelectorAll('.event-card-title a, .day-events a .title')).map((a) => (a.textContent ?? '').trim()));
}

describeBrowser('the embeds framed by another site, in Chromium', () => {
  let browser: Browser;
  let partner: { server: Server; origin: string };
  /** The calendar that lets the partner frame its embeds. */
  let allowing: { t: TestApp; origin: string };
  /** The calendar that lets another site only. */
  let refusing: { t: TestApp; origin: string };
  let seed: PagesSeed;
  let elsewhereTitle: string;

  beforeAll(async () => {
    partner = await partnerSite();
    allowing = await calendar({ CALENDAR_EMBED_ORIGINS: `https://elsewhere.example ${partner.origin}` });
    seed = await seedPages(allowing.t, (await allowing.t.userHeader('embed-admin', 'administrator')).authorization);
    refusing = await calendar({ CALENDAR_EMBED_ORIGINS: 'https://elsewhere.example' });
    const tomorrow = seed.today.plus({ days: 1 }).toISODate();
    elsewhereTitle = (
      await createEvent(refusing.t, (await refusing.t.userHeader('embed-admin', 'administrator')).authorization, {
        title: 'Only for elsewhere',
        status: 'publish',
        start_date: `${tomorrow} 18:00:00`,
        end_date: `${tomorrow} 20:00:00`,
      })
    ).title;
    browser = await launchBrowser();
    mkdirSync(ARTEFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await allowing?.t.close();
    await refusing?.t.close();
    await new Promise((resolve) => partner?.server.close(resolve));
  });

  /** A fresh context (no cache) with the partner's page framing `src`, loaded (its frame included); what the console said of refused frames. */
  async function framing(src: string): Promise<{ context: BrowserContext; page: Page; frame: Frame; refusals: string[] }> {
    const context = await browser.newContext({ viewport: WIDTHS[1] });
    const page = await context.newPage();
    const refusals: string[] = [];
    page.on('console', (m) => {
      if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
    });
    const res = await page.goto(`${partner.origin}/?src=${encodeURIComponent(src)}`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (frame === undefined) throw new Error('the partner page has no frame');
    return { context, page, frame, refusals };
  }

  it('an allowed origin frames the list: the events show, an event opens in the page, the pager stays in the frame', async () => {
    const { context, page, frame, refusals } = await framing(`${allowing.origin}/events/embed/?limit=2&theme=dark`);
    try {
      expect(refusals).toEqual([]);
      const first = await frameTitles(frame);
      expect(first).toEqual(((await getOk(allowing.t, `${API}/events?per_page=2`)).events as { title: string }[]).map((e) => e.title));
      // The dark theme the site asked for, whatever the reader's system says.
      expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(20, 20, 22)');

      await page.screenshot({ path: join(ARTEFACTS, 'embed-framed-1280.png') });
      // The pager: the frame moves on, the partner's page stays.
      await frame.getByRole('link', { name: /Next page/ }).click();
      await frame.waitForURL(`${allowing.origin}/events/embed/?limit=2&theme=dark&page=2`);
      expect(page.url()).toBe(`${partner.origin}/?src=${encodeURIComponent(`${allowing.origin}/events/embed/?limit=2&theme=dark`)}`);
      const second = await frameTitles(frame);
      expect(second).toHaveLength(2);
      expect(second).not.toContain(first[0]);

      // An event opens in the page that framed it, on the calendar's own page.
      await frame.getByRole('link', { name: second[0] }).click();
      await page.waitForURL(new RegExp(`^${allowing.origin}/event/`));
      expect((await page.locator('h1').innerText()).trim()).toBe(second[0]);
    } finally {
      await context.close();
    }
  });

  it('an allowed origin frames the month grid: today shows its events, a day opens in the page', async () => {
    const { context, page, frame, refusals } = await framing(`${allowing.origin}/events/embed/month/`);
    try {
      expect(refusals).toEqual([]);
      const titles = await frameTitles(frame);
      expect(titles).toEqual(expect.arrayContaining([seed.market.title, seed.concert.title]));
      expect(titles).not.toContain(seed.draft.title);
      await frame.locator(`a.day-link[href="${allowing.origin}/events/${seed.today.toISODate()}/"]`).click();
      await page.waitForURL(`${allowing.origin}/events/${seed.today.toISODate()}/`);
    } finally {
      await context.close();
    }
  });

  it('with CALENDAR_EMBED_ORIGINS naming another site, Chromium refuses the frame: none of the events show', async () => {
    // The calendar names only https://elsewhere.example: Chromium shows nothing of it in the partner's page.
    for (const path of ['/events/embed/', '/events/embed/month/']) {
      const { context, frame, refusals } = await framing(`${refusing.origin}${path}`);
      try {
        expect({ path, titles: await frameTitles(frame).catch(() => []), refused: refusals.some((r) => r.includes('https://elsewhere.example')) }).toEqual({
          path,
          titles: [],
          refused: true,
        });
        expect(await frame.content().catch(() => '')).not.toContain(elsewhereTitle);
      } finally {
        await context.close();
      }
    }
    // The embed itself is fine: read directly, it shows the event.
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${refusing.origin}/events/embed/`);
      expect(await frameTitles(page.mainFrame())).toEqual([elsewhereTitle]);
    } finally {
      await context.close();
    }
  });

  it("the calendar's other pages cannot be framed by the partner, even when it may frame the embeds", async () => {
    for (const path of ['/events/', '/events/month/', `/event/${seed.concert.slug}/`]) {
      const { context, frame, refusals } = await framing(`${allowing.origin}${path}`);
      try {
        expect({ path, titles: await frameTitles(frame).catch(() => []), refused: refusals.some((r) => r.includes("frame-ancestors 'self'")) }).toEqual({
          path,
          titles: [],
          refused: true,
        });
      } finally {
        await context.close();
      }
    }
  });

  it('axe-core finds nothing serious or critical on both embeds at 375 and 1280 px, light and dark; no sideways scrolling, nothing from another origin', async () => {
    const problems: string[] = [];
    const paths = ['/events/embed/', '/events/embed/?theme=dark', '/events/embed/month/', '/events/embed/month/?theme=dark'];
    for (const size of WIDTHS) {
      // The reader's system prefers the other scheme: the embed's own theme must win.
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport: size, bypassCSP: true, colorScheme });
        const page = await context.newPage();
        const foreign: string[] = [];
        page.on('request', (req) => {
          if (!req.url().startsWith(`${allowing.origin}/`)) foreign.push(req.url());
        });
        try {
          for (const path of paths) {
            const where = `${path} at ${size.width} px, reader prefers ${colorScheme}`;
            const res = await page.goto(`${allowing.origin}${path}`);
            expect({ where, status: res?.status() }).toEqual({ where, status: 200 });
            const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
            const expected = path.includes('dark') ? 'rgb(20, 20, 22)' : 'rgb(251, 250, 248)';
            if (background !== expected) problems.push(`${where}: background ${background}, not ${expected}`);
            await page.screenshot({
              path: join(
                ARTEFACTS,
                `embed-${path.includes('month') ? 'month' : 'list'}${path.includes('dark') ? '-dark' : ''}-${size.width}-prefers-${colorScheme}.png`,
              ),
              fullPage: true,
            });
            const wide = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
            if (wide) problems.push(`${where}: wider than the viewport`);
            problems.push(...describeViolations(where, await axeProblems(page)));
          }
          problems.push(...foreign.map((url) => `${size.width} px: a request left the origin: ${url}`));
        } finally {
          await context.close();
        }
      }
    }
    if (problems.length) console.log(`Embed problems:\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });
});

function describeViolations(where: string, violations: AxeViolation[]): string[] {
  return violations.map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
