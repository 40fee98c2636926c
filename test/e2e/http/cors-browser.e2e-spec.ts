// A page on another origin uses the API from a real browser (it lists
// events and creates one with credentials), in Debian's Chromium driven
// by playwright-core. .ci/run installs chromium and sets TEST_REQUIRE_BROWSER=1, so there a
// missing browser fails; elsewhere this file is skipped and says so.
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { describeWithBrowser, launchBrowser } from '../../support/browser';
import { createTestApp, TestApp } from '../../support/test-app';
import { API } from '../../support/http';

const describeBrowser = describeWithBrowser('the browser CORS test');
jest.setTimeout(60_000);

/** The API listening on 127.0.0.1, and a page served from another origin (localhost, another port). */
async function serve(env: Record<string, string>): Promise<{ t: TestApp; api: string; pageOrigin: string; stop: () => Promise<void> }> {
  const t = await createTestApp(env);
  await t.app.listen(0, '127.0.0.1');
  const api = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}${API}`;
  const page: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>A widget</title>'));
  await new Promise<void>((resolve) => page.listen(0, 'localhost', resolve));
  const pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
  return { t, api, pageOrigin, stop: async () => void (await Promise.all([t.close(), new Promise((resolve) => page.close(resolve))])) };
}

/** What the page's script sees: create an event with credentials, then list. */
function createAndList({ api, auth }: { api: string; auth: string }) {
  return (async () => {
    try {
      const created = await fetch(`${api}/events`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'From the widget', start_date: '2047-03-01 18:00', end_date: '2047-03-01 20:00' }),
      });
      const list = await fetch(`${api}/events?start_date=2047-01-01&end_date=2047-12-31`);
      const body = (await list.json()) as { events: { title: string }[] };
      return { created: created.status, total: list.headers.get('X-TEC-Total'), titles: body.events.map((e) => e.title) };
    } catch (err) {
      return { failed: String(err) };
    }
  })();
}

describeBrowser('a page on another origin, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('lists events and creates one with credentials (CORS allows any origin by default)', async () => {
    const { t, api, pageOrigin, stop } = await serve({});
    try {
      const { authorization } = await t.userHeader('widget-admin', 'administrator');
      const page = await browser.newPage();
      await page.goto(`${pageOrigin}/`);
      expect(await page.evaluate(createAndList, { api, auth: authorization })).toEqual({ created: 201, total: '1', titles: ['From the widget'] });
    } finally {
      await stop();
    }
  });

  it('a page on an origin that CALENDAR_CORS_ORIGINS does not list cannot read the answers', async () => {
    const { t, api, pageOrigin, stop } = await serve({ CALENDAR_CORS_ORIGINS: 'https://only.example' });
    try {
      const { authorization } = await t.userHeader('widget-admin', 'administrator');
      const page = await browser.newPage();
      await page.goto(`${pageOrigin}/`);
      expect(await page.evaluate(createAndList, { api, auth: authorization })).toEqual({ failed: expect.stringContaining('Failed to fetch') });
    } finally {
      await stop();
    }
  });
});
