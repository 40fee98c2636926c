/// <reference lib="dom" />
// The editing pages (editing.md) in a real browser: Debian's Chromium driven by playwright-core.
// An editor's work from sign-in to sign-out, found by the visible names of editing.md §7 and
// checked against the API: an event made with a new venue in place, a form that fails and keeps
// every value, two people saving the same event, a series edited "this and following", the trash
// and back. Each flow runs with JavaScript on and again with it off. axe-core on every editing
// page at 375 and 1280 px, nothing fetched from another origin, and screenshots of the event form
// and the events list as artefacts (test-artifacts/screenshots/, git-ignored); UPDATE_SCREENSHOTS=1
// (npm run screenshots) also rewrites their copies under docs/screenshots/ (under 150 KB each).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { SESSION_COOKIE } from '../../../src/manage/manage-http';
import {
  type Caller,
  createCategory,
  createEvent,
  createOrganizer,
  createVenue,
  type EventBody,
  getOk,
  type LinkedItemBody,
  readEvent,
  type TermBody,
  uid,
} from '../../support/api';
import { describeWithBrowser, freePort, launchBrowser, axeProblems, describeViolations, sidewaysOverflow } from '../../support/browser';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const describeBrowser = describeWithBrowser('the editing pages in Chromium');
jest.setTimeout(300_000); // every editing page at two widths with axe-core, and each flow twice

const ROOT = join(__dirname, '..', '..', '..');
const ARTEFACTS = join(ROOT, 'test-artifacts', 'screenshots');
const DOCS = join(ROOT, 'docs', 'screenshots');
const UPDATE_DOCS = process.env.UPDATE_SCREENSHOTS === '1';
/** Committed PNGs stay small. */
const DOCS_MAX_BYTES = 150_000;
/** How long a control or a page may take to appear before the step fails, naming it. */
const STEP_MS = 10_000;

const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

const ZONE = 'Europe/Paris';
/** Names the form's buttons may carry for saving (editing.md §7: the status decides). */
const SAVE = /^(Save|Publish|Submit for review)$/;

/** Waits for the first element `locator` finds to be visible; fails naming it. */
async function visible(locator: Locator): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout: STEP_MS });
}

/** The visible text of what `locator` finds first, whitespace collapsed. */
async function textOf(locator: Locator): Promise<string> {
  return (await locator.first().innerText({ timeout: STEP_MS })).replace(/\s+/g, ' ').trim();
}

/** The first of `candidates` that is on the page and visible, or null. */
async function firstPresent(...candidates: Locator[]): Promise<Locator | null> {
  for (const candidate of candidates) {
    const count = await candidate.count();
    for (let i = 0; i < count; i += 1) if (await candidate.nth(i).isVisible()) return candidate.nth(i);
  }
  return null;
}

/** The group (fieldset) named `name` when there is one, else the whole page. */
async function within(page: Page, name: string): Promise<Locator> {
  const group = page.getByRole('group', { name, exact: true });
  return (await group.count()) > 0 ? group.first() : page.locator('body');
}

/** Picks, in a `<select>`, the option whose text or value matches. */
async function selectMatching(select: Locator, pattern: RegExp): Promise<void> {
  const options = await select
    .locator('option')
    .evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, label: (o.textContent ?? '').trim() })));
  const hit = options.find((o) => pattern.test(o.label)) ?? options.find((o) => pattern.test(o.value));
  if (!hit) throw new Error(`no option matching ${pattern} among: ${options.map((o) => o.label).join(', ')}`);
  await select.selectOption(hit.value);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Sets the control labelled `label`: a select's matching option, else the text typed in. */
async function setField(page: Page, label: string, value: string): Promise<void> {
  const control = page.getByLabel(label, { exact: true }).first();
  await visible(control);
  const tag = await control.evaluate((el) => el.tagName.toLowerCase());
  if (tag === 'select') await selectMatching(control, new RegExp(`^${escapeRegExp(value)}$`));
  else await control.fill(value);
}

/** The value the control labelled `label` holds now. */
async function valueOf(page: Page, label: string): Promise<string> {
  return page.getByLabel(label, { exact: true }).first().inputValue({ timeout: STEP_MS });
}

/**
 * Turns on what is named `name` (a choice the spec names but whose kind it leaves open): a
 * checkbox or radio is checked, a button, link or disclosure is pressed (without script, a
 * button may send the form back to the server, which answers with the part it reveals).
 */
async function activate(page: Page, name: string): Promise<void> {
  const target = await firstPresent(
    page.getByRole('checkbox', { name, exact: true }),
    page.getByRole('radio', { name, exact: true }),
    page.getByRole('button', { name, exact: true }),
    page.getByRole('link', { name, exact: true }),
    page.locator('summary', { hasText: name }),
  );
  if (!target) throw new Error(`nothing named “${name}” on ${page.url()}`);
  const role = await target.evaluate((el) => (el instanceof HTMLInputElement ? el.type : el.tagName.toLowerCase()));
  if (role === 'checkbox' || role === 'radio') await target.check();
  else await target.click();
  await page.waitForLoadState();
}

/** In the choice named `name` (a select, or a group of radios), the option that matches. */
async function choose(page: Page, name: string, pattern: RegExp): Promise<void> {
  const select = page.getByLabel(name, { exact: true });
  if ((await select.count()) > 0 && (await select.first().evaluate((el) => el.tagName.toLowerCase())) === 'select') {
    await selectMatching(select.first(), pattern);
    return;
  }
  const group = page.getByRole('group', { name, exact: true }).or(page.getByRole('radiogroup', { name, exact: true }));
  await visible(group);
  await group.first().getByRole('radio', { name: pattern }).first().check();
}

/**
 * Links the record named `name` in the picker named `label` (the organizers'; editing.md §2: an
 * existing one chosen by a search on the server): a listed checkbox or option is taken as is;
 * else the name is typed into the picker's search and the result taken.
 */
async function pick(page: Page, label: string, name: string): Promise<void> {
  const scope = await within(page, label);
  const listed = scope.getByRole('checkbox', { name, exact: true });
  if ((await listed.count()) > 0 && (await listed.first().isVisible())) return listed.first().check();
  const control =
    (await firstPresent(page.getByLabel(label, { exact: true }), scope.getByRole('searchbox'), scope.getByRole('combobox'))) ??
    scope.getByRole('textbox').first();
  if ((await control.evaluate((el) => el.tagName.toLowerCase())) === 'select') return void (await control.selectOption({ label: name }));
  await control.fill(name);
  const search = await firstPresent(scope.getByRole('button', { name: /^(Search|Find)\b/ }));
  if (search) await press(page, search);
  // A result may say more than the name (an e-mail, a city): it starts with it.
  const named = new RegExp(`^${escapeRegExp(name)}(\\s|$)`);
  const results = await within(page, label);
  const result = await firstPresent(
    results.getByRole('checkbox', { name: named }),
    results.getByRole('option', { name: named }),
    results.getByRole('button', { name: new RegExp(`^(Add|Choose|Select)\\s+${escapeRegExp(name)}`) }),
  );
  if (!result) throw new Error(`the ${label} picker offers no “${name}” on ${page.url()}: ${await textOf(await within(page, label))}`);
  if ((await result.getAttribute('type')) === 'checkbox') await result.check();
  else await result.click();
  await page.waitForLoadState();
}

/** Clicks a button that sends its form, and waits for the page that answers it. */
async function press(page: Page, button: Locator): Promise<void> {
  await visible(button);
  const answered = page.waitForEvent('load', { timeout: STEP_MS });
  await button.first().click();
  await answered;
}

/** Presses the form's save button (Save, Publish or Submit for review, whichever it shows). */
async function save(page: Page): Promise<void> {
  await press(page, page.getByRole('button', { name: SAVE }).first());
}

/** After a save: "Saved" is said on the event's form. Returns the event's id, from the address. */
async function saved(page: Page, origin: string): Promise<number> {
  await page.waitForURL(new RegExp(`^${origin}/manage/events/\\d+/(\\?.*)?$`), { timeout: STEP_MS });
  await visible(page.getByText(/\bSaved\b/));
  return Number(/\/manage\/events\/(\d+)\//.exec(page.url())![1]);
}

const passwordOf = (caller: Caller) => Buffer.from(caller.authorization.slice('Basic '.length), 'base64').toString().split(':').slice(1).join(':');

describeBrowser('the editing pages in Chromium (editing.md)', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  const users: Record<'admin' | 'editor' | 'subscriber', Caller & { login: string }> = {} as never;
  let venue: LinkedItemBody;
  let organizer: LinkedItemBody;
  let music: TermBody;
  let jazz: TermBody;
  let listed: EventBody;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({ CALENDAR_BASE_URL: origin, CALENDAR_TIMEZONE: ZONE, CALENDAR_RECURRENCE: 'on', CALENDAR_SITE_TITLE: 'Canal Events' });
    await t.app.listen(port, '127.0.0.1');
    for (const [key, role] of [
      ['admin', 'administrator'],
      ['editor', 'editor'],
      ['subscriber', 'subscriber'],
    ] as const) {
      const login = key; // one database per file: plain logins keep the screenshots alike from run to run
      users[key] = { ...(await t.userHeader(login, role)), login };
    }
    const auth = users.admin.authorization;
    venue = await createVenue(t, auth, { venue: 'Canal Hall', address: '12 Quai de Jemmapes', city: 'Paris', country: 'France', status: 'publish' });
    organizer = await createOrganizer(t, auth, { organizer: 'Canal Jazz Club', email: 'club@example.org', status: 'publish' });
    music = await createCategory(t, auth, { name: 'Music' });
    jazz = await createCategory(t, auth, { name: 'Jazz', parent: music.id });
    listed = await createEvent(t, auth, {
      title: 'Evening concert on the canal',
      description: 'Live jazz on a barge moored at the quay, with the Canal Jazz Club. Bring a coat: the evening is cool by the water.',
      cost: '15',
      start_date: '2030-05-10 19:30:00',
      end_date: '2030-05-10 22:00:00',
      timezone: ZONE,
      venue: venue.id,
      organizer: [organizer.id],
      categories: [jazz.id],
      tags: ['Outdoor'],
      status: 'publish',
    });
    // A few more along the canal, so that the list's screenshot (filtered by "canal") shows what a calendar holds.
    const more = [
      {
        title: 'Canal-side flea market',
        start_date: '2030-05-11 00:00:00',
        end_date: '2030-05-11 23:59:59',
        all_day: true,
        venue: venue.id,
        categories: [music.id],
      },
      { title: 'Printing workshop by the canal', start_date: '2030-05-12 10:00:00', end_date: '2030-05-12 12:00:00', status: 'draft' },
      { title: 'Canal boat tour', start_date: '2030-05-18 15:00:00', end_date: '2030-05-18 16:30:00', timezone: 'America/New_York', organizer: [organizer.id] },
    ];
    for (const event of more) await createEvent(t, auth, { timezone: ZONE, status: 'publish', ...event });
    browser = await launchBrowser();
    mkdirSync(ARTEFACTS, { recursive: true });
    if (UPDATE_DOCS) mkdirSync(DOCS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  interface Session {
    context: BrowserContext;
    page: Page;
    /** Every request a page of this context made to another origin. */
    foreign: string[];
  }

  /** A fresh context (no cookies) whose pages record every request that leaves the origin. */
  async function open(opts: Parameters<Browser['newContext']>[0] = {}): Promise<Session> {
    const context = await browser.newContext({ viewport: WIDTHS[1], ...opts });
    context.setDefaultTimeout(STEP_MS);
    const foreign: string[] = [];
    context.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) foreign.push(url);
    });
    const page = await context.newPage();
    // Confirmation dialogs (data-confirm) are answered yes.
    page.on('dialog', (dialog) => void dialog.accept());
    return { context, page, foreign };
  }

  async function goto(page: Page, path: string, status = 200) {
    const res = await page.goto(`${origin}${path}`);
    expect({ path, status: res?.status() }).toEqual({ path, status });
    expect(res?.headers()['content-type']).toMatch(/^text\/html/);
  }

  /** Signs in through the form and lands where `next` says (the overview without it). */
  async function signIn(page: Page, who: { login: string } & Caller, path = '/manage/login') {
    await goto(page, path);
    await page.getByLabel('Login', { exact: true }).fill(who.login);
    await page.getByLabel('Password', { exact: true }).fill(passwordOf(who));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/manage/login'));
  }

  /** Waits for the sign-in form (with or without a trailing slash), asked to come back to `next` when given. */
  async function atSignIn(page: Page, next?: string) {
    await page.waitForURL(
      (url) => url.origin === origin && /^\/manage\/login\/?$/.test(url.pathname) && (next === undefined || url.searchParams.get('next') === next),
    );
  }

  /** A signed-in editing session, JavaScript on or off. */
  async function editing(js: boolean, who = users.admin, opts: Parameters<Browser['newContext']>[0] = {}): Promise<Session> {
    const session = await open({ javaScriptEnabled: js, ...opts });
    await signIn(session.page, who);
    return session;
  }

  /** The event's data as the API gives it to an administrator. */
  const api = (id: number) => readEvent(t, id, users.admin.authorization);

  /** Fills the event form's fields of a one-off event. */
  async function fillEvent(page: Page, e: { title: string; start: [string, string]; end: [string, string]; description?: string }) {
    await setField(page, 'Title', e.title);
    if (e.description !== undefined) await setField(page, 'Description', e.description);
    await setField(page, 'Start date', e.start[0]);
    await setField(page, 'Start time', e.start[1]);
    await setField(page, 'End date', e.end[0]);
    await setField(page, 'End time', e.end[1]);
    await setField(page, 'Time zone', ZONE);
  }

  /** Opens the same event in two sessions, saves a new title in the first, then another in the second: the second sees the conflict page. */
  async function makeConflict(first: Page, second: Page, id: number, titles: { first: string; second: string }) {
    await goto(first, `/manage/events/${id}/`);
    await goto(second, `/manage/events/${id}/`);
    await setField(first, 'Title', titles.first);
    await save(first);
    await saved(first, origin);
    await setField(second, 'Title', titles.second);
    await save(second);
  }

  for (const js of [true, false]) {
    describe(js ? 'with JavaScript' : 'without JavaScript', () => {
      it('sign-in keeps ?next= and "Keep me signed in" makes a lasting cookie; wrong credentials say so without telling which part', async () => {
        const { context, page, foreign } = await open({ javaScriptEnabled: js });
        try {
          // Not signed in: an editing page sends to the sign-in form, and back after.
          await page.goto(`${origin}/manage/events/`);
          await atSignIn(page, '/manage/events/');
          await page.getByLabel('Login', { exact: true }).fill(users.editor.login);
          await page.getByLabel('Password', { exact: true }).fill('not-the-password');
          await press(page, page.getByRole('button', { name: 'Sign in', exact: true }));
          expect(await textOf(page.getByRole('alert'))).toMatch(/login or the password/i);
          expect(await valueOf(page, 'Login')).toBe(users.editor.login);

          await page.getByLabel('Password', { exact: true }).fill(passwordOf(users.editor));
          await page.getByLabel('Keep me signed in', { exact: true }).check();
          await page.getByRole('button', { name: 'Sign in', exact: true }).click();
          await page.waitForURL(`${origin}/manage/events/`);
          await visible(page.getByRole('button', { name: 'Sign out', exact: true }));
          await visible(page.getByRole('heading', { level: 1 }));

          const cookie = (await context.cookies(origin)).find((c) => c.name === SESSION_COOKIE);
          expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
          expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
          expect(foreign).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('an event made with a new venue in place, an organizer, categories, tags, cost and website: saved as the API has it', async () => {
        const { context, page, foreign } = await editing(js);
        try {
          const title = `Jazz on the water ${uid()}`;
          await goto(page, '/manage/events/new');
          // Every name of editing.md §7 is on the form.
          for (const label of [
            'Title',
            'Description',
            'Start date',
            'Start time',
            'End date',
            'End time',
            'All day',
            'Time zone',
            'Tags',
            'Cost',
            'Website',
            'Status',
          ]) {
            await visible(page.getByLabel(label, { exact: true }));
          }
          for (const [name, type] of [
            ['Start date', 'date'],
            ['End date', 'date'],
            ['Start time', 'time'],
            ['End time', 'time'],
          ]) {
            expect({ name, type: await page.getByLabel(name, { exact: true }).getAttribute('type') }).toEqual({ name, type });
          }
          for (const name of ['Venue', 'Organizers', 'Categories']) {
            const found = (await page.getByLabel(name, { exact: true }).count()) + (await page.getByRole('group', { name, exact: true }).count());
            expect({ name, found: found > 0 }).toEqual({ name, found: true });
          }

          await fillEvent(page, { title, description: 'Live jazz on a barge.\nBring a coat.', start: ['2030-06-12', '19:30'], end: ['2030-06-12', '22:00'] });
          await activate(page, 'New venue');
          await setField(page, 'Venue name', `Barge ${title}`);
          await setField(page, 'Address', '3 Quai de Valmy');
          await setField(page, 'City', 'Paris');
          await setField(page, 'Country', 'France');
          await pick(page, 'Organizers', organizer.organizer as string);
          const categories = await within(page, 'Categories');
          await categories.getByRole('checkbox', { name: 'Jazz', exact: true }).check();
          // One name per line: a name may hold a comma.
          await setField(page, 'Tags', 'Jazz, live\nOutdoor');
          await setField(page, 'Cost', '15');
          await setField(page, 'Website', 'https://example.org/jazz-on-the-water');
          await choose(page, 'Status', /^publish(ed)?$/i);
          // The fields typed before a server round trip (a search without script) are still there.
          expect(await valueOf(page, 'Title')).toBe(title);
          await save(page);
          const id = await saved(page, origin);

          // "Saved" comes with a link to the event's public page.
          const event = await api(id);
          expect(await page.locator(`a[href="${event.url}"]`).count()).toBeGreaterThan(0);
          expect(event).toMatchObject({
            title,
            status: 'publish',
            timezone: ZONE,
            start_date: '2030-06-12 19:30:00',
            end_date: '2030-06-12 22:00:00',
            all_day: false,
          });
          expect(event.description).toContain('Live jazz on a barge.');
          expect(event.description).toContain('Bring a coat.');
          expect(event.venue).toMatchObject({ venue: `Barge ${title}`, address: '3 Quai de Valmy', city: 'Paris', country: 'France' });
          expect((event.venue as { id: number }).id).not.toBe(venue.id);
          expect(event.organizer.map((o) => o.id)).toEqual([organizer.id]);
          expect(event.categories.map((c) => c.id)).toEqual([jazz.id]);
          expect(event.tags.map((tag) => tag.name).sort()).toEqual(['Jazz, live', 'Outdoor']);
          expect(String(event.cost)).toContain('15');
          expect(event.website).toBe('https://example.org/jazz-on-the-water');

          // The form opened again shows what was saved.
          await goto(page, `/manage/events/${id}/`);
          expect(await valueOf(page, 'Title')).toBe(title);
          expect(await valueOf(page, 'Start date')).toBe('2030-06-12');
          expect(await valueOf(page, 'Start time')).toBe('19:30');
          expect(await valueOf(page, 'Tags')).toMatch(/^(Jazz, live\nOutdoor|Outdoor\nJazz, live)$/);
          expect(foreign).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('an end before the start: the summary (role="alert") lists it, the message is beside "End date", every value is kept, nothing is saved', async () => {
        const { context, page, foreign } = await editing(js);
        try {
          const title = `Backwards ${uid()}`;
          await goto(page, '/manage/events/new');
          await fillEvent(page, { title, description: 'Kept after the error.', start: ['2030-07-02', '18:00'], end: ['2030-07-01', '20:00'] });
          await setField(page, 'Tags', 'Jazz, live\nOutdoor');
          await setField(page, 'Cost', '12');
          await save(page);

          const summary = page.getByRole('alert');
          await visible(summary);
          expect(await textOf(summary)).toMatch(/end/i);
          if (js) {
            // manage.js puts the focus on the summary, so a screen reader reads it first.
            await page.waitForFunction(() => document.activeElement?.closest('[role="alert"]') != null, undefined, { timeout: STEP_MS });
          }
          // The summary links to the field, whose message is tied to it.
          const end = page.getByLabel('End date', { exact: true });
          const endId = await end.getAttribute('id');
          expect(await summary.locator(`a[href="#${endId}"]`).count()).toBe(1);
          const described = ((await end.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
          const messages = await Promise.all(described.map((ref) => textOf(page.locator(`[id="${ref}"]`))));
          expect(messages.some((m) => /end/i.test(m) && /start/i.test(m))).toBe(true);
          expect(await end.getAttribute('aria-invalid')).toBe('true');

          expect({
            title: await valueOf(page, 'Title'),
            description: await valueOf(page, 'Description'),
            startDate: await valueOf(page, 'Start date'),
            startTime: await valueOf(page, 'Start time'),
            endDate: await valueOf(page, 'End date'),
            endTime: await valueOf(page, 'End time'),
            zone: await valueOf(page, 'Time zone'),
            tags: await valueOf(page, 'Tags'),
            cost: await valueOf(page, 'Cost'),
          }).toEqual({
            title,
            description: 'Kept after the error.',
            startDate: '2030-07-02',
            startTime: '18:00',
            endDate: '2030-07-01',
            endTime: '20:00',
            zone: ZONE,
            tags: 'Jazz, live\nOutdoor',
            cost: '12',
          });
          const found = (await getOk(
            t,
            `${API}/events?search=${encodeURIComponent(title)}&status=publish,draft,pending,private,future`,
            users.admin.authorization,
          )) as {
            events: unknown[];
          };
          expect(found.events).toEqual([]);
          expect(foreign).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('two people save the same event: the second sees both versions and chooses; nothing is overwritten silently', async () => {
        const event = await createEvent(t, users.admin.authorization, { title: `Shared ${uid()}`, timezone: ZONE, status: 'publish' });
        const first = await editing(js, users.admin);
        const second = await editing(js, users.editor);
        try {
          const titles = { first: `${event.title} (first)`, second: `${event.title} (second)` };
          await makeConflict(first.page, second.page, event.id, titles);

          // The second save did not go through: the other change is kept, and both are shown.
          expect((await api(event.id)).title).toBe(titles.first);
          const shown = await textOf(second.page.locator('main'));
          expect(shown).toContain(titles.first);
          expect(shown).toContain(titles.second);

          // The second person keeps their own version.
          const mine = await firstPresent(
            second.page.getByRole('button', { name: /\b(mine|my (version|changes?))\b/i }),
            second.page.getByRole('button', { name: /\b(overwrite|anyway)\b/i }),
          );
          if (!mine) throw new Error(`no choice to keep one's own version on the conflict page: ${shown}`);
          await press(second.page, mine);
          await saved(second.page, origin);
          expect((await api(event.id)).title).toBe(titles.second);
          expect([...first.foreign, ...second.foreign]).toEqual([]);
        } finally {
          await first.context.close();
          await second.context.close();
        }
      });

      it('a series made with the form\'s "Repeats" section', async () => {
        const { context, page, foreign } = await editing(js);
        try {
          const title = `Weekly yoga ${uid()}`;
          await goto(page, '/manage/events/new');
          // 2 September 2030 is a Monday.
          await fillEvent(page, { title, start: ['2030-09-02', '18:00'], end: ['2030-09-02', '19:00'] });
          await choose(page, 'Status', /^publish(ed)?$/i);
          await choose(page, 'Repeats', /weekly/i);
          // Weekly on which days: Monday alone, whatever the form proposed.
          const days = page.getByRole('group').filter({ has: page.getByRole('checkbox', { name: 'Monday', exact: true }) });
          if ((await days.count()) > 0) {
            for (const box of await days.last().getByRole('checkbox').all()) {
              const name = await box.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent?.trim());
              await box.setChecked(name === 'Monday');
            }
          }
          // The next dates, computed by the server (a button that works without script), every value kept.
          await press(page, page.getByRole('button', { name: /next dates|preview/i }).first());
          const preview = await textOf(page.locator('main'));
          expect(preview).toMatch(/Monday/);
          for (const day of ['9', '16', '23']) expect(preview).toMatch(new RegExp(`\\b${day}\\b`));
          expect(await valueOf(page, 'Title')).toBe(title);
          expect(await valueOf(page, 'Start date')).toBe('2030-09-02');
          await save(page);
          const id = await saved(page, origin);
          const event = (await api(id)) as EventBody & { recurrence: string[]; series: { id: number } | null };
          expect(event.recurrence[0]).toMatch(/^RRULE:FREQ=WEEKLY\b/);
          expect(event.series?.id).toBe(id);
          // The form says what the rule means, in words.
          expect(await textOf(page.locator('main'))).toMatch(/Monday/);
          expect(foreign).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('an occurrence saved "This and following events": the series is cut there, as the API shows', async () => {
        const base = `Canal run ${uid()}`;
        const first = (await createEvent(t, users.admin.authorization, {
          title: base,
          start_date: '2030-03-04 18:00:00',
          end_date: '2030-03-04 19:00:00',
          timezone: ZONE,
          status: 'publish',
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
        })) as EventBody & { series: { id: number } };
        const occurrences = async (id: number) =>
          ((await getOk(t, `${API}/events/${id}/occurrences`, users.admin.authorization)) as { events: EventBody[] }).events;
        const before = await occurrences(first.series.id);
        expect(before).toHaveLength(6);
        const third = before[2];

        const { context, page, foreign } = await editing(js);
        try {
          await goto(page, `/manage/events/${third.id}/`);
          await visible(page.getByText('Repeats', { exact: true }));
          const renamed = `${base} (new route)`;
          await setField(page, 'Title', renamed);
          // The question comes with the form, or after a first press of Save.
          const following = page.getByRole('radio', { name: 'This and following events', exact: true });
          const followingButton = page.getByRole('button', { name: 'This and following events', exact: true });
          if ((await following.count()) + (await followingButton.count()) === 0) await save(page);

          // The question, with the three scopes of recurrence.md.
          for (const name of ['This event', 'This and following events', 'All events in the series']) {
            const found = (await page.getByRole('radio', { name, exact: true }).count()) + (await page.getByRole('button', { name, exact: true }).count());
            expect({ name, found: found > 0 }).toEqual({ name, found: true });
          }
          expect((await api(third.id)).title).toBe(base); // nothing changes before the answer
          expect(await valueOf(page, 'Title')).toBe(renamed);
          if ((await following.count()) > 0) {
            await following.check();
            await save(page);
          } else {
            await press(page, followingButton);
          }
          await saved(page, origin);

          const kept = await occurrences(first.id);
          expect(kept.map((e) => [e.id, e.title])).toEqual(before.slice(0, 2).map((e) => [e.id, base]));
          const cut = await occurrences(third.id);
          expect(cut).toHaveLength(4);
          expect(cut.map((e) => e.title)).toEqual(Array(4).fill(renamed));
          expect(cut.map((e) => (e.series as { id: number }).id)).toEqual(Array(4).fill(third.id));
          expect(cut.map((e) => e.start_date)).toEqual(before.slice(2).map((e) => e.start_date));
          expect(foreign).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('"Move to trash", then restore from the events list\'s trash', async () => {
        const event = await createEvent(t, users.admin.authorization, { title: `Trashable ${uid()}`, timezone: ZONE, status: 'publish' });
        const { context, page, foreign } = await editing(js);
        try {
          await goto(page, `/manage/events/${event.id}/`);
          await press(page, page.getByRole('button', { name: 'Move to trash', exact: true }));
          // Without script, the confirmation step may be a page that asks with the same button.
          const confirm = await firstPresent(page.getByRole('button', { name: 'Move to trash', exact: true }));
          if (confirm && new URL(page.url()).pathname !== `/manage/events/${event.id}/`) await press(page, confirm);
          const trashed = await http(t, users.admin.authorization).get(`${API}/events/${event.id}`);
          expect({ status: trashed.status, code: trashed.body.code }).toEqual({ status: 403, code: 'event-no-longer-available' });

          await goto(page, '/manage/events/');
          await press(page, page.getByRole('link', { name: /^Trash\b/ }).first());
          const row = page.locator('tr, li').filter({ hasText: event.title }).last();
          await visible(row);
          const direct = await firstPresent(row.getByRole('button', { name: /^Restore\b/ }), row.getByRole('link', { name: /^Restore\b/ }));
          if (direct) {
            await press(page, direct);
          } else {
            // A bulk action: the row's checkbox, then Restore.
            await row.getByRole('checkbox').first().check();
            const action = await firstPresent(page.getByRole('button', { name: /^Restore\b/ }));
            if (action) await press(page, action);
            else {
              await choose(page, 'Bulk action', /restore/i);
              await press(page, page.getByRole('button', { name: /^Apply$/ }));
            }
          }
          const back = await api(event.id);
          expect(back.status).not.toBe('trash');
          expect(back.title).toBe(event.title);
          expect(foreign).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('"Sign out" ends the session: the editing pages ask to sign in again', async () => {
        const { context, page, foreign } = await editing(js);
        try {
          await goto(page, '/manage/');
          await page.getByRole('button', { name: 'Sign out', exact: true }).click();
          await atSignIn(page);
          await visible(page.getByText(/signed out/i));
          await page.goto(`${origin}/manage/`);
          await atSignIn(page, '/manage/');
          expect(foreign).toEqual([]);
        } finally {
          await context.close();
        }
      });
    });
  }

  it('every editing page: axe-core finds nothing serious or critical, no sideways scrolling, nothing from another origin (375 and 1280 px; screenshots saved)', async () => {
    const problems: string[] = [];
    const check = async (page: Page, where: string) => {
      problems.push(...(await sidewaysOverflow(page)).map((el) => `${where}: wider than the viewport: ${el}`));
      problems.push(...describeViolations(where, await axeProblems(page)));
    };
    /** Opens `path`; a page that answers otherwise than `status` is a problem, and is not checked further. */
    const reach = async (page: Page, path: string, status = 200): Promise<boolean> => {
      const res = await page.goto(`${origin}${path}`);
      if (res?.status() === status) return true;
      problems.push(`${path}: answered ${res?.status()} instead of ${status}`);
      return false;
    };
    const conflictEvent = await createEvent(t, users.admin.authorization, { title: `Contested ${uid()}`, timezone: ZONE, status: 'publish' });

    for (const size of WIDTHS) {
      const opts = { viewport: size, bypassCSP: true };
      const at = `at ${size.width} px`;
      // Signed out: the sign-in form.
      const visitor = await open(opts);
      try {
        if (await reach(visitor.page, '/manage/login')) await check(visitor.page, `login ${at}`);
        // A subscriber signs in and is told the account has no editing rights.
        await signIn(visitor.page, users.subscriber);
        if (await reach(visitor.page, '/manage/', 403)) await check(visitor.page, `403 page ${at}`);
        problems.push(...visitor.foreign.map((url) => `visitor ${at}: a request left the origin: ${url}`));
      } finally {
        await visitor.context.close();
      }

      const admin = await editing(true, users.admin, opts);
      const { page } = admin;
      try {
        const pages: { kind: string; path: string; shot?: string }[] = [
          { kind: 'overview', path: '/manage/' },
          { kind: 'events list', path: '/manage/events/?search=canal', shot: 'manage-events' },
          { kind: 'events list, all', path: '/manage/events/' },
          { kind: 'events list, trash', path: '/manage/events/?status=trash' },
          { kind: 'new event form', path: '/manage/events/new' },
          { kind: 'event form', path: `/manage/events/${listed.id}/`, shot: 'manage-event-form' },
          { kind: 'venues list', path: '/manage/venues/' },
          { kind: 'venue form', path: `/manage/venues/${venue.id}/` },
          { kind: 'new venue form', path: '/manage/venues/new' },
          { kind: 'organizers list', path: '/manage/organizers/' },
          { kind: 'organizer form', path: `/manage/organizers/${organizer.id}/` },
          { kind: 'new organizer form', path: '/manage/organizers/new' },
          { kind: 'categories', path: '/manage/categories/' },
          { kind: 'category form', path: `/manage/categories/${jazz.id}/` },
          { kind: 'tags', path: '/manage/tags/' },
          { kind: 'users', path: '/manage/users/' },
          { kind: 'sources', path: '/manage/sources/' },
          { kind: 'new source form', path: '/manage/sources/new' },
        ];
        for (const p of pages) {
          if (!(await reach(page, p.path))) continue;
          if (p.shot) await shoot(page, `${p.shot}-${size.width}`, true);
          await check(page, `${p.kind} ${p.path} ${at}`);
        }

        // The event form with errors.
        if (await reach(page, '/manage/events/new')) {
          try {
            await fillEvent(page, { title: `Backwards ${uid()}`, start: ['2030-07-02', '18:00'], end: ['2030-07-01', '20:00'] });
            await save(page);
            await visible(page.getByRole('alert'));
            await shoot(page, `manage-event-form-errors-${size.width}`);
            await check(page, `event form with errors ${at}`);
          } catch (err) {
            problems.push(`event form with errors ${at}: ${(err as Error).message.split('\n')[0]}`);
          }
        }

        // The conflict page.
        const other = await editing(true, users.editor, opts);
        try {
          await makeConflict(other.page, page, conflictEvent.id, { first: `${conflictEvent.title} ${uid()}`, second: `${conflictEvent.title} ${uid()}` });
          await shoot(page, `manage-conflict-${size.width}`);
          await check(page, `conflict page ${at}`);
        } catch (err) {
          problems.push(`conflict page ${at}: ${(err as Error).message.split('\n')[0]}`);
        } finally {
          problems.push(...other.foreign.map((url) => `${at}: a request left the origin: ${url}`));
          await other.context.close();
        }
        problems.push(...admin.foreign.map((url) => `${at}: a request left the origin: ${url}`));
      } finally {
        await admin.context.close();
      }
    }
    if (problems.length) console.log(`Editing page problems:\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });

  it('keyboard alone: signing in, and Tab reaches every field and button of the event form with a visible focus', async () => {
    const { context, page, foreign } = await open({ viewport: WIDTHS[0] });
    try {
      await goto(page, '/manage/login');
      await page.keyboard.press('Tab'); // the skip link
      const stops: string[] = [];
      for (let i = 0; i < 10 && !stops.includes('BUTTON Sign in'); i += 1) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const el = document.activeElement as HTMLInputElement | null;
          return el ? `${el.tagName} ${el.labels?.[0]?.textContent?.trim() ?? el.textContent?.trim() ?? ''}` : '';
        });
        stops.push(focused);
        if (focused === 'INPUT Login') await page.keyboard.type(users.admin.login);
        if (focused === 'INPUT Password') await page.keyboard.type(passwordOf(users.admin));
      }
      // The header's links come first; then the form, in reading order.
      expect(stops.filter((stop) => !stop.startsWith('A '))).toEqual(['INPUT Login', 'INPUT Password', 'INPUT Keep me signed in', 'BUTTON Sign in']);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/manage/`);

      await goto(page, '/manage/events/new');
      const seen = new Map<string, boolean>();
      for (let i = 0; i < 150; i += 1) {
        await page.keyboard.press('Tab');
        const stop = await page.evaluate(() => {
          const el = document.activeElement as HTMLInputElement | null;
          if (!el || el === document.body) return null;
          const style = getComputedStyle(el);
          const name = el.labels?.[0]?.textContent?.trim() || el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName;
          return { name, visible: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none' };
        });
        if (!stop) break;
        if (seen.has(stop.name)) continue;
        seen.set(stop.name, stop.visible);
      }
      // (A group of radios is one Tab stop, its choices taken with the arrows: "New venue" may be one of them.)
      const wanted = ['Title', 'Description', 'Start date', 'Start time', 'End date', 'End time', 'All day', 'Time zone', 'Tags', 'Cost', 'Website', 'Status'];
      expect(wanted.filter((name) => !seen.has(name))).toEqual([]);
      expect([...seen.keys()].some((name) => SAVE.test(name))).toBe(true);
      expect([...seen.entries()].filter(([, shown]) => !shown).map(([name]) => name)).toEqual([]);
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the accessibility check does check: an input without a label is reported critical', async () => {
    const { context, page } = await open();
    try {
      await page.setContent('<!doctype html><html lang="en"><title>Probe</title><main><form><input type="text" name="title"></form></main></html>');
      expect((await axeProblems(page)).map((v) => `${v.impact} ${v.id}`)).toEqual(['critical label']);
    } finally {
      await context.close();
    }
  });

  /**
   * A full-page artefact; with UPDATE_SCREENSHOTS=1 and `docs`, the same for the README, cut to
   * the top 1,400 px and then to the viewport when it would weigh over DOCS_MAX_BYTES.
   */
  async function shoot(page: Page, name: string, docs = false) {
    const png = await page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });
    if (docs && UPDATE_DOCS) {
      const width = page.viewportSize()!.width;
      let small = png;
      if (small.length > DOCS_MAX_BYTES) small = await page.screenshot({ fullPage: true, clip: { x: 0, y: 0, width, height: 1400 } });
      if (small.length > DOCS_MAX_BYTES) small = await page.screenshot();
      if (small.length > DOCS_MAX_BYTES) throw new Error(`${name}.png weighs ${small.length} bytes, over ${DOCS_MAX_BYTES}`);
      writeFileSync(join(DOCS, `${name}.png`), small);
    }
  }
});
