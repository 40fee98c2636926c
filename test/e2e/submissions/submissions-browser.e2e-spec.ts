/// <reference lib="dom" />
// The public submission form (editing.md §4, §7) in a real browser: Debian's Chromium driven by
// playwright-core, at 1280 and 375 px. A visitor fills the form by its labels (a venue found by
// the server's search), is told what is missing, sends it and reads the thank-you page; the
// event is then pending in the API. axe-core finds nothing serious or critical on the form, the
// form with its problems, or the thank-you page; nothing is fetched from another origin and no
// page scrolls sideways; screenshots of the three pages are saved as artefacts
// (test-artifacts/screenshots/, git-ignored). The app's stamp clock is moved on before "Submit
// event" instead of waiting the three seconds a person takes.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SubmissionStamps } from '../../../src/submissions/submission-stamps';
import { axeProblems, describeWithBrowser, freePort, launchBrowser, describeViolations, sidewaysOverflow } from '../../support/browser';
import { API, http } from '../../support/http';
import { NEXT_YEAR_DAY } from '../../support/submissions';
import { createTestApp, EXTENSIONS_OFF, type TestApp } from '../../support/test-app';

const describeBrowser = describeWithBrowser('the submission form in Chromium');
jest.setTimeout(180_000);

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;
const STEP_MS = 10_000;
const ARTEFACTS = join(__dirname, '..', '..', '..', 'test-artifacts', 'screenshots');

describeBrowser('the submission form in Chromium (editing.md §4, §7)', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let admin: { authorization: string };
  let venueId: number;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({ ...EXTENSIONS_OFF, CALENDAR_BASE_URL: origin, CALENDAR_SUBMISSIONS: 'anyone', CALENDAR_TIMEZONE: 'Europe/Paris' });
    await t.app.listen(port, '127.0.0.1');
    admin = await t.userHeader('root', 'administrator');
    const venue = await http(t, admin.authorization).post(`${API}/venues`).send({ venue: 'Canal Boathouse', city: 'Strasbourg', status: 'publish' });
    expect(venue.status).toBe(201);
    venueId = venue.body.id as number;
    browser = await launchBrowser();
    mkdirSync(ARTEFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A fresh context (no cookies; CSP bypassed so that axe-core can be injected) recording every request that leaves the origin. */
  async function open(viewport: (typeof WIDTHS)[number]): Promise<{ context: BrowserContext; page: Page; foreign: string[] }> {
    const context = await browser.newContext({ viewport, bypassCSP: true });
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(`${origin}/`) && !req.url().startsWith('data:')) foreign.push(req.url());
    });
    return { context, page, foreign };
  }

  /** Presses "Submit event" with the app's stamp clock moved on, as if the visitor had taken a while. */
  async function submit(page: Page): Promise<void> {
    const stamps = t.app.get(SubmissionStamps);
    const real = stamps.now;
    stamps.now = () => real() + 5_000;
    try {
      await Promise.all([
        page.waitForLoadState('load'),
        page.waitForNavigation({ timeout: STEP_MS }),
        page.getByRole('button', { name: 'Submit event' }).click(),
      ]);
    } finally {
      stamps.now = real;
    }
  }

  for (const size of WIDTHS) {
    it(`at ${size.width} px: filled by its labels, refused with its problems, sent, thanked; axe-core finds nothing serious`, async () => {
      const title = `Boathouse concert ${size.width}`;
      const problems: string[] = [];
      const { context, page, foreign } = await open(size);
      const check = async (where: string, shot: string) => {
        await page.screenshot({ path: join(ARTEFACTS, `submission-${shot}-${size.width}.png`), fullPage: true });
        problems.push(...describeViolations(`${where} at ${size.width} px`, await axeProblems(page)));
        problems.push(...(await sidewaysOverflow(page)).map((el) => `${where} at ${size.width} px: wider than the viewport: ${el}`));
      };
      try {
        const res = await page.goto(`${origin}/events/community/add/`);
        expect(res?.status()).toBe(200);
        await page.getByRole('heading', { level: 1, name: 'Submit an event' }).waitFor({ timeout: STEP_MS });
        await check('the form', 'form');

        // Sent with what is missing: the form comes back with a summary and each message beside its field.
        await page.getByLabel('Title', { exact: true }).fill(title);
        await submit(page);
        const summary = page.getByRole('alert');
        await summary.waitFor({ timeout: STEP_MS });
        expect(await summary.innerText()).toContain('Enter your name.');
        expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(title);
        await check('the form with problems', 'form-problems');

        await page.getByLabel('Description', { exact: true }).fill('Songs on the water.\nDetails: https://example.org/boathouse');
        await page.getByLabel('Start date', { exact: true }).fill(NEXT_YEAR_DAY);
        await page.getByLabel('Start time', { exact: true }).fill('20:00');
        await page.getByLabel('End date', { exact: true }).fill(NEXT_YEAR_DAY);
        await page.getByLabel('End time', { exact: true }).fill('22:30');
        await page.getByLabel('Time zone', { exact: true }).selectOption('Europe/Paris');
        // The venue: found by the server's search, then chosen by its label.
        await page.getByLabel('Search venues', { exact: true }).fill('boathouse');
        await Promise.all([page.waitForNavigation({ timeout: STEP_MS }), page.getByRole('button', { name: 'Find venues' }).click()]);
        await page.getByLabel('Canal Boathouse (Strasbourg)', { exact: true }).check();
        await page.getByLabel('Cost', { exact: true }).fill('Free');
        await page.getByLabel('Your name', { exact: true }).fill('Vera Visitor');
        await page.getByLabel('Your e-mail', { exact: true }).fill('vera@example.org');
        await submit(page);
        expect(page.url()).toBe(`${origin}/events/community/add/thanks/`);
        await page.getByRole('heading', { level: 1, name: 'Thank you' }).waitFor({ timeout: STEP_MS });
        await check('the thank-you page', 'thanks');

        const pending = await http(t, admin.authorization).get(`${API}/events?status=pending&search=${encodeURIComponent(title)}`);
        expect(pending.status).toBe(200);
        const [event] = pending.body.events as Record<string, unknown>[];
        expect(event).toMatchObject({ title, status: 'pending', start_date: `${NEXT_YEAR_DAY} 20:00:00`, cost: 'Free' });
        expect((event.venue as { id: number }).id).toBe(venueId);
        expect(foreign).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
