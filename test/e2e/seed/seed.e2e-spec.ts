import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { resolveSeedOptions, SeedPlan } from '../../../src/seed/seed-plan';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

const run = promisify(execFile);
// Spawns the built CLI (the first run may compile the project first).
jest.setTimeout(180_000);
const ROOT = join(__dirname, '..', '..', '..');
const START = join(ROOT, 'scripts', 'start.js');
const SEED = ['seed', '--events', '300', '--seed', '7', '--today', '2026-01-15'];
/** Every seeded event lies inside this window. */
const ALL_DATES = 'start_date=2000-01-01&end_date=2100-12-31';

async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [START, '--cli', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** What the plan says the database should hold: per status, and per term name the published events carrying it. */
function expected() {
  const plan = new SeedPlan(resolveSeedOptions({ events: 300, seed: 7, today: '2026-01-15' }));
  const categories = plan.categories();
  const tags = plan.tags();
  const counts = new Map<string, number>();
  const listed = { publish: 0, draft: 0, trash: 0, featured: 0 };
  const all = { publish: 0, draft: 0, trash: 0 };
  for (const e of plan.events()) {
    all[e.status]++;
    if (e.status === 'publish') {
      for (const c of e.categories) counts.set(`category/${categories[c].name}`, (counts.get(`category/${categories[c].name}`) ?? 0) + 1);
      for (const t of e.tags) counts.set(`tag/${tags[t].name}`, (counts.get(`tag/${tags[t].name}`) ?? 0) + 1);
    }
    if (e.hideFromListings) continue;
    listed[e.status]++;
    if (e.status === 'publish' && e.featured) listed.featured++;
  }
  return { counts, all, listed, venues: plan.options.venues, organizers: plan.options.organizers };
}

describe('npm run cli -- seed', () => {
  let dir: string;
  const url = (name: string) => `sqlite:${join(dir, `${name}.sqlite`)}`;
  let first: { code: number; stdout: string; stderr: string };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-seed-'));
    first = await cli(SEED, { DATABASE_URL: url('a'), LOG_LEVEL: 'silent' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints a summary, and refuses a database that has events unless --force', async () => {
    expect(first.stderr).not.toMatch(/Error/);
    expect(first.code).toBe(0);
    const want = expected();
    expect(first.stdout).toMatch(/^Seeded in \d+\.\d s \(--seed 7 --today 2026-01-15\), authored by calendar-seed:/);
    expect(first.stdout).toContain(`events            300  (${want.all.publish} published, ${want.all.draft} draft, ${want.all.trash} trash;`);
    expect(first.stdout).toMatch(/venues +10\n/);
    expect(first.stdout).toMatch(/categories +100\n/);
    expect(first.stdout).toMatch(/tags +300\n/);
    // non-TTY stderr: a progress line every 10%
    expect(first.stderr).toMatch(/events: 100% \(300\/300\)/);

    const again = await cli(SEED, { DATABASE_URL: url('a'), LOG_LEVEL: 'silent' });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The database already has 300 events; seed adds to them only with --force.');
    const usage = await cli(['seed', '--events', 'many'], { DATABASE_URL: url('a'), LOG_LEVEL: 'silent' });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--events must be a whole number');
  });

  describe('the seeded database, read over HTTP', () => {
    let t: TestApp;
    let admin: string;
    const want = expected();
    beforeAll(async () => {
      t = await createTestApp({ DATABASE_URL: url('a') });
      admin = (await t.userHeader('boss', 'administrator')).authorization;
    });
    afterAll(() => t.close());

    const total = async (path: string, auth?: string) => {
      const res = await http(t, auth).get(`${API}${path}`);
      expect(res.status).toBe(200);
      return Number(res.headers['x-tec-total']);
    };

    it('has the venues, organizers, categories and tags asked for', async () => {
      expect(await total('/venues')).toBe(want.venues);
      expect(await total('/organizers')).toBe(want.organizers);
      expect(await total('/categories?hide_empty=false')).toBe(100);
      expect(await total('/tags?hide_empty=false')).toBe(300);
    });

    it('lists the published events, and the drafts and trashed ones to an administrator', async () => {
      expect(await total(`/events?${ALL_DATES}`)).toBe(want.listed.publish);
      expect(await total(`/events?${ALL_DATES}&featured=true`)).toBe(want.listed.featured);
      expect(await total(`/events?${ALL_DATES}&status=draft`, admin)).toBe(want.listed.draft);
      const trash = await http(t, admin).get(`${API}/events?${ALL_DATES}&status=trash&per_page=50`);
      expect(Number(trash.headers['x-tec-total'])).toBe(want.listed.trash);
      for (const e of trash.body.events as { status: string; slug: string }[]) {
        expect(e.status).toBe('trash');
        expect(e.slug).toMatch(/__trashed$/);
      }
      expect(await total(`/events?${ALL_DATES}&status=publish,draft,trash`, admin)).toBe(want.listed.publish + want.listed.draft + want.listed.trash);
    });

    it('keeps every term count equal to its published events', async () => {
      for (const [taxonomy, collection] of [
        ['category', 'categories'],
        ['tag', 'tags'],
      ] as const) {
        for (let page = 1; ; page++) {
          const res = await http(t).get(`${API}/${collection}?hide_empty=false&per_page=50&page=${page}`);
          const terms = res.body[collection] as { name: string; count: number }[] | undefined;
          if (res.status !== 200 || !terms || terms.length === 0) break;
          for (const term of terms) expect([term.name, term.count]).toEqual([term.name, want.counts.get(`${taxonomy}/${term.name}`) ?? 0]);
        }
      }
      // a used tag filters the list to its listed events
      const [name] = [...want.counts.entries()].filter(([k]) => k.startsWith('tag/')).sort((a, b) => b[1] - a[1])[0];
      const tags = await http(t).get(`${API}/tags?hide_empty=false&search=${encodeURIComponent(name.slice(4))}&per_page=50`);
      const tag = (tags.body.tags as { id: number; name: string; count: number }[]).find((x) => x.name === name.slice(4)) as { id: number; count: number };
      const listed = await total(`/events?${ALL_DATES}&tags=${tag.id}`);
      expect(listed).toBeGreaterThan(0);
      expect(listed).toBeLessThanOrEqual(tag.count);
    });

    it('serves a seeded event whole: venue, organizers, terms, cost, zone', async () => {
      const list = await http(t).get(`${API}/events?${ALL_DATES}&per_page=50`);
      const withAll = (list.body.events as Record<string, unknown>[]).find(
        (e) => !Array.isArray(e.venue) && (e.organizer as unknown[]).length > 0 && (e.categories as unknown[]).length > 0 && e.cost !== '',
      ) as Record<string, unknown>;
      expect(withAll).toBeDefined();
      const one = await http(t).get(`${API}/events/${withAll.id as number}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: withAll.id, status: 'publish', author: expect.any(String), timezone: expect.any(String) });
      expect(one.body.json_ld).toMatchObject({ '@type': 'Event' });
      expect(one.body.start_date <= one.body.end_date).toBe(true);
    });
  });

  it('reproduces the same data with the same --seed (and --today)', async () => {
    const second = await cli(SEED, { DATABASE_URL: url('b'), LOG_LEVEL: 'silent' });
    expect(second.code).toBe(0);
    const firstPage = async (name: string) => {
      const t = await createTestApp({ DATABASE_URL: url(name) });
      try {
        const res = await http(t).get(`${API}/events?${ALL_DATES}&per_page=20`);
        expect(res.status).toBe(200);
        return res.body as { events: unknown[] };
      } finally {
        await t.close();
      }
    };
    const a = await firstPage('a');
    expect(a.events).toHaveLength(20);
    expect(await firstPage('b')).toEqual(a);
  });

  it('adds to a seeded database with --force, reusing its categories and tags', async () => {
    const more = await cli(['seed', '--events', '50', '--seed', '8', '--force'], { DATABASE_URL: url('b'), LOG_LEVEL: 'silent' });
    expect(more.code).toBe(0);
    expect(more.stdout).toMatch(/categories +100 +\(100 existing reused\)/);
    const t = await createTestApp({ DATABASE_URL: url('b') });
    try {
      const events = await http(t).get(`${API}/events?${ALL_DATES}`);
      expect(Number(events.headers['x-tec-total'])).toBeGreaterThan(expected().listed.publish);
      expect(Number((await http(t).get(`${API}/categories?hide_empty=false`)).headers['x-tec-total'])).toBe(100);
      expect(Number((await http(t).get(`${API}/venues`)).headers['x-tec-total'])).toBe(20);
    } finally {
      await t.close();
    }
  });
});
