/// <reference lib="dom" />
// The review queue (editing.md §2 `/manage/review/`, §7) in Chromium: an editor approves, edits
// then approves, and declines with a reason, finding every control by the names of editing.md
// §7 ("Approve", "Decline", "Reason"; "Title", "Publish" on the form), with JavaScript on and
// off, each result checked through the API; axe-core finds nothing serious or critical on the
// queue and on a declined event's form at 375 and 1280 px, and nothing scrolls sideways.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, Module } from '@nestjs/common';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Hook, REVIEW_HOOKS } from '../../../src/extend';
import type { ReviewHook, ReviewSubmitter } from '../../../src/extend';
import { FEATURES } from '../../../src/features';
import { type Caller, createEvent, createVenue, readEvent, uid } from '../../support/api';
import { axeProblems, describeWithBrowser, freePort, launchBrowser } from '../../support/browser';
import { API, http } from '../../support/http';
import { createTestApp, type TestApp } from '../../support/test-app';

jest.setTimeout(180_000);

/** Screenshots of the queue, as artefacts (git-ignored), like the other browser tests'. */
const ARTEFACTS = join(__dirname, '..', '..', '..', 'test-artifacts', 'screenshots');
const ZONE = 'Europe/Paris';
const STEP_MS = 10_000;
const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

/** A submitter for every event whose title says so, as the public submission form's hook would name one. */
@Hook(REVIEW_HOOKS)
@Injectable()
class BrowserSubmitters implements ReviewHook {
  readonly known = new Map<number, ReviewSubmitter>();
  async submitters(eventIds: readonly number[]): Promise<ReadonlyMap<number, ReviewSubmitter>> {
    return new Map(eventIds.flatMap((id) => (this.known.has(id) ? [[id, this.known.get(id)!] as const] : [])));
  }
}

@Module({ providers: [BrowserSubmitters] })
class BrowserSubmittersModule {}

const passwordOf = (caller: Caller) => Buffer.from(caller.authorization.slice('Basic '.length), 'base64').toString().split(':').slice(1).join(':');

describeWithBrowser('the review queue in Chromium')('the review queue in Chromium (editing.md §2, §7)', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let editor: Caller & { login: string };

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp(
      { CALENDAR_BASE_URL: origin, CALENDAR_TIMEZONE: ZONE },
      { features: [...FEATURES, { name: 'browser-submitters', modules: [BrowserSubmittersModule] }] },
    );
    await t.app.listen(port, '127.0.0.1');
    editor = { ...(await t.userHeader('eddie', 'editor')), login: 'eddie' };
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A pending event, as a contributor's submission is. */
  async function submitted(title: string, fields: Record<string, unknown> = {}) {
    return createEvent(t, editor.authorization, { title, status: 'pending', timezone: ZONE, ...fields });
  }

  /** A signed-in session of the editor (through the sign-in form), JavaScript on or off. */
  async function session(opts: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: WIDTHS[1], ...opts });
    context.setDefaultTimeout(STEP_MS);
    const page = await context.newPage();
    await page.goto(`${origin}/manage/login?next=${encodeURIComponent('/manage/review/')}`);
    await page.getByLabel('Login', { exact: true }).fill(editor.login);
    await page.getByLabel('Password', { exact: true }).fill(passwordOf(editor));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${origin}/manage/review/`);
    return { context, page };
  }

  /** The card of the event titled `title` on the queue. */
  const cardOf = (page: Page, title: string): Locator => page.getByRole('article', { name: title, exact: true });

  /** The status message the queue shows after an action. */
  async function said(page: Page): Promise<string> {
    return ((await page.getByRole('status').first().innerText()) ?? '').replace(/\s+/g, ' ').trim();
  }

  for (const js of [true, false]) {
    it(`approves, edits then approves, and declines with a reason (JavaScript ${js ? 'on' : 'off'})`, async () => {
      const word = uid(js ? 'js' : 'nojs');
      const approve = await submitted(`Harbour concert ${word}`);
      const edit = await submitted(`Market day ${word}`);
      const decline = await submitted(`Spam offer ${word}`);
      const { context, page } = await session({ javaScriptEnabled: js });
      try {
        // The menu counts what waits.
        await page.getByRole('link', { name: /^Review \(\d+\)$/ }).waitFor();

        await cardOf(page, approve.title).getByRole('button', { name: 'Approve', exact: true }).click();
        await page.waitForURL(/\/manage\/review\/\?(page=\d+&)?approved=\d+$/);
        expect(await said(page)).toContain(`“Harbour concert ${word}” is approved and published.`);
        expect(await cardOf(page, approve.title).count()).toBe(0);
        expect((await readEvent(t, approve.id)).status).toBe('publish');

        await cardOf(page, edit.title)
          .getByRole('link', { name: /^Edit, then approve/ })
          .click();
        await page.getByLabel('Title', { exact: true }).fill(`Market day by the quay ${word}`);
        await page.getByRole('button', { name: 'Publish', exact: true }).click();
        await page.waitForURL(/\/manage\/review\/\?approved=\d+$/);
        expect(await said(page)).toContain(`“Market day by the quay ${word}” is approved and published.`);
        expect(await readEvent(t, edit.id)).toMatchObject({ status: 'publish', title: `Market day by the quay ${word}` });

        const card = cardOf(page, decline.title);
        await card.getByLabel('Reason', { exact: true }).fill('Advertising, not an event.');
        await card.getByRole('button', { name: 'Decline', exact: true }).click();
        await page.waitForURL(/\/manage\/review\/\?(page=\d+&)?declined=\d+$/);
        expect(await said(page)).toContain(`“Spam offer ${word}” is declined and in the trash`);
        expect((await http(t, editor.authorization).get(`${API}/events/${decline.id}`)).status).toBeGreaterThanOrEqual(400);
        await page.getByRole('link', { name: `Open “Spam offer ${word}”` }).click();
        await page.getByText('This event is in the trash.').waitFor();
        expect(await page.getByRole('region', { name: 'Declined in review' }).innerText()).toContain('Advertising, not an event.');
      } finally {
        await context.close();
      }
    });
  }

  it('the queue and a declined event’s form: axe-core finds nothing serious or critical, nothing scrolls sideways (375 and 1280 px)', async () => {
    const venue = await createVenue(t, editor.authorization, { venue: 'Quay warehouse with a rather long name', status: 'publish' });
    const sent = await submitted(`Open studio evening with a fairly long title to wrap ${uid()}`, { venue: venue.id });
    t.app.get(BrowserSubmitters).known.set(sent.id, { name: 'Grace Hopper', email: 'grace.hopper@example.org' });
    await submitted(`Night swim ${uid()}`, { all_day: true, start_date: '2030-07-01 00:00:00', end_date: '2030-07-02 23:59:59' });
    const declined = await submitted(`Declined for the check ${uid()}`);
    const problems: string[] = [];
    for (const size of WIDTHS) {
      const { context, page } = await session({ viewport: size, bypassCSP: true });
      try {
        const at = `at ${size.width} px`;
        const check = async (where: string) => {
          for (const v of await axeProblems(page))
            problems.push(`${where} ${at}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          const wide = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
          if (wide) problems.push(`${where} ${at}: scrolls sideways`);
        };
        await cardOf(page, sent.title).waitFor();
        await check('the queue');
        mkdirSync(ARTEFACTS, { recursive: true });
        await page.screenshot({ path: join(ARTEFACTS, `manage-review-${size.width}.png`), fullPage: true });
        if (size.width === WIDTHS[0].width) {
          const card = cardOf(page, declined.title);
          await card.getByLabel('Reason', { exact: true }).fill('Already listed under another name.');
          await card.getByRole('button', { name: 'Decline', exact: true }).click();
          await page.waitForURL(/declined=\d+$/);
          await check('the queue after a decline');
        }
        await page.goto(`${origin}/manage/events/${declined.id}/`);
        await page.getByRole('region', { name: 'Declined in review' }).waitFor();
        await check('a declined event’s form');
      } finally {
        await context.close();
      }
    }
    expect(problems).toEqual([]);
  });
});
