// Debian's Chromium, driven by playwright-core, for the tests that need a real browser.
// .ci/run installs the `chromium` package and sets TEST_REQUIRE_BROWSER=1: there a missing
// browser is an error. Elsewhere a file that needs it is skipped and says why, once.
import './dispose-symbols';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, no sandbox (CI runs as root), and nothing the browser would fetch on its own. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * `describe` when Chromium is there, `describe.skip` (with a warning naming `what`) when it is not;
 * throws when TEST_REQUIRE_BROWSER is set and Chromium is missing, so CI cannot skip silently.
 */
export function describeWithBrowser(what: string): jest.Describe {
  const present = existsSync(CHROMIUM);
  if (!present && process.env.TEST_REQUIRE_BROWSER) throw new Error(`TEST_REQUIRE_BROWSER is set but ${CHROMIUM} is missing (apt-get install chromium)`);
  if (!present) console.warn(`SKIPPED ${what}: no ${CHROMIUM} (Debian's chromium; .ci/run installs it)`);
  return present ? describe : describe.skip;
}

/** A headless Chromium; close it in afterAll. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/**
 * A TCP port that was free a moment ago on 127.0.0.1, for an app whose CALENDAR_BASE_URL must
 * name the port it will listen on (pages link with absolute URLs built from the base URL).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One violation axe-core found, with where on the page. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe-core's serious and critical violations on the page (WCAG 2.x A and AA rules). */
export async function axeProblems(page: Page): Promise<AxeViolation[]> {
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

/** Each violation as one line, prefixed with where it was found (a page and a width). */
export const describeViolations = (where: string, violations: AxeViolation[]): string[] =>
  violations.map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

/** Elements wider than the viewport, when the page scrolls sideways (empty when it does not). */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const wide = Array.from(document.querySelectorAll('body *')).filter((el) => el.getBoundingClientRect().right > width + 1);
    return wide
      .slice(0, 10)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(/\s+/).join('.')}` : ''} (right edge ${Math.round(el.getBoundingClientRect().right)} px)`,
      );
  });
}
