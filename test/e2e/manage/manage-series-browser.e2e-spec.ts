// The live preview of a series in the event form, in Chromium (docs/editing.md "Series in the
// form"): the Repeats fields update the preview from the server without the button, writing
// nothing and breaking no content policy. Kept apart from manage-series-form.e2e-spec.ts (plain
// HTTP) because a browser test runs in the e2e-slow project (jest.config.js).
import type { Browser } from 'playwright-core';
import { uid } from '../../support/api';
import { describeWithBrowser, freePort, launchBrowser } from '../../support/browser';
import { API, http } from '../../support/http';
import { signedInUser } from '../../support/manage';
import { createTestApp, type TestApp } from '../../support/test-app';

type User = { id: number; cookie: string; authorization: string };

const NEW = '/manage/events/new';

describeWithBrowser('the live preview of a series in Chromium')('the live preview (manage.js)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let admin: User;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({ CALENDAR_BASE_URL: origin, CALENDAR_RECURRENCE: 'on', CALENDAR_TIMEZONE: 'Europe/Paris' });
    await t.app.listen(port, '127.0.0.1');
    browser = await launchBrowser();
    admin = await signedInUser(t, 'ada', 'administrator');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('follows the Repeats fields without the button, from the server, writing nothing and breaking no content policy', async () => {
    const context = await browser.newContext();
    const split = admin.cookie.indexOf('=');
    await context.addCookies([{ name: admin.cookie.slice(0, split), value: admin.cookie.slice(split + 1), url: origin }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      // The browser's own favicon request answers 404; a content policy's refusal is what matters here.
      if (m.type() === 'error' && /Content Security Policy|Refused/i.test(m.text())) problems.push(m.text());
    });
    await page.goto(`${origin}${NEW}`);
    const title = uid('live');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Start date', { exact: true }).fill('2027-03-02');
    await page.getByLabel('Start time', { exact: true }).fill('19:00');
    await page.getByLabel('End date', { exact: true }).fill('2027-03-02');
    await page.getByLabel('End time', { exact: true }).fill('20:30');
    await page.getByLabel('Time zone', { exact: true }).selectOption('Europe/Paris');
    for (const day of ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']) await page.locator(`#repeat_days_${day}`).setChecked(day === 'TU' || day === 'TH');
    await page.getByLabel('Repeats', { exact: true }).selectOption('weekly');
    await page.waitForFunction(() => document.querySelectorAll('#repeat-preview time').length === 5);
    const first = await page.locator('#repeat-preview time').first().textContent();
    expect(first).toBe('Tuesday 2 March 2027, 19:00');
    expect(await page.locator('#repeat-preview').textContent()).toContain('Every Tuesday and Thursday');
    expect(page.url()).toBe(`${origin}${NEW}`);
    const found = await http(t, admin.authorization).get(`${API}/events?search=${encodeURIComponent(title)}&status=publish,draft,pending,future,private`);
    expect(found.body.events).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
