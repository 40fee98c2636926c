// The SQL each list runs, per dialect, kept in test/e2e/list-sql/<dialect>.json (issue 12,
// item 5): a change to a list query (an index it can no longer use, a planner threshold, a new
// join) shows in review as a diff of that file. `npm test` checks sqlite.json, the MariaDB runs
// of .ci/run check mysql.json. After an intended change, write both anew:
//   UPDATE_SQL_SNAPSHOTS=1 npx jest test/e2e/list-sql
//   UPDATE_SQL_SNAPSHOTS=1 TEST_DATABASE_URL=mysql://root@127.0.0.1:3306/calendar_e2e npx jest test/e2e/list-sql
// (Files of our own rather than Jest snapshots: with CI set, Jest fails a run on the other
// dialect's entries as obsolete.)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createCategory, createEvent, createTag, createVenue, makeUsers } from '../support/api';
import { API, http } from '../support/http';
import { captureStatements, TIMER_STATEMENTS } from '../support/statements';
import { createTestApp, EXTENSIONS_OFF, TestApp } from '../support/test-app';

describe('the SQL of every list', () => {
  let t: TestApp;
  let dialect: string;
  const captured: string[] = [];
  let ids: { category: number; tag: number; venue: number };
  const updating = process.env.UPDATE_SQL_SNAPSHOTS === '1';
  let file: string;
  let expected: Record<string, string[]> = {};
  const written: Record<string, string[]> = {};

  beforeAll(async () => {
    // The core's own statements: an extension that is on adds its own (the geo extension reads a
    // page's coordinates), which are its business, not this snapshot's.
    t = await createTestApp(EXTENSIONS_OFF);
    const ds = t.app.get(DataSource);
    dialect = ds.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
    file = join(__dirname, 'list-sql', `${dialect}.json`);
    if (existsSync(file)) expected = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
    const { admin } = await makeUsers(t);
    const category = await createCategory(t, admin.authorization, { name: 'Snapshot Category' });
    const tag = await createTag(t, admin.authorization, { name: 'snapshot tag' });
    const venue = await createVenue(t, admin.authorization, { venue: 'Snapshot Hall' });
    for (let i = 0; i < 3; i++) {
      await createEvent(t, admin.authorization, {
        title: `Snapshot ${i}`,
        start_date: '2031-03-0' + (i + 1) + ' 10:00',
        end_date: '2031-03-0' + (i + 1) + ' 11:00',
        categories: [category.id],
        tags: [tag.id],
        venue: venue.id,
      });
    }
    ids = { category: category.id, tag: tag.id, venue: venue.id };
    // From here on every statement is captured as it is sent.
    captureStatements(ds, captured);
  });
  afterAll(async () => {
    if (updating) writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
    await t?.close();
  });

  /** The statements one request sent, in order. */
  async function sqlOf(path: string): Promise<string[]> {
    captured.length = 0;
    const res = await http(t).get(`${API}${path}`);
    expect(res.status).toBe(200);
    return (
      captured
        // What runs on timers, not because of this request: the data-version poll, the webhook
        // worker (its claims and its pruning of the delivery log) and the scheduled-events poll.
        .filter((q) => !TIMER_STATEMENTS.some((pattern) => pattern.test(q)))
        // Ids written into the SQL differ between runs and engines (a cluster leaves gaps).
        .map((q) =>
          q
            .replace(/\s+/g, ' ')
            .replace(/IN \(\d+(?:, ?\d+)*\)/g, 'IN (<ids>)')
            .trim(),
        )
    );
  }

  const lists: [string, (i: typeof ids) => string][] = [
    ['events, default window', () => '/events'],
    ['events, 50 a page', () => '/events?per_page=50&start_date=2031-01-01&end_date=2031-12-31'],
    ['events of a category', (i) => `/events?categories=${i.category}&start_date=2031-01-01&end_date=2031-12-31`],
    ['events of a tag', (i) => `/events?tags=${i.tag}&start_date=2031-01-01&end_date=2031-12-31`],
    ['events at a venue', (i) => `/events?venue=${i.venue}&start_date=2031-01-01&end_date=2031-12-31`],
    ['events, a search word', () => '/events?search=snapshot&start_date=2031-01-01&end_date=2031-12-31'],
    ['events, page 2', () => '/events?per_page=1&page=2&start_date=2031-01-01&end_date=2031-12-31'],
    ['venues', () => '/venues'],
    ['venues, a search word', () => '/venues?search=hall'],
    ['organizers', () => '/organizers'],
    ['categories', () => '/categories?hide_empty=false'],
    ['tags', () => '/tags?hide_empty=false&orderby=count&order=desc'],
  ];

  it.each(lists)('%s', async (name, path) => {
    const sql = await sqlOf(path(ids));
    expect(sql.length).toBeGreaterThan(0);
    if (updating) written[name] = sql;
    else expect({ [name]: sql }).toEqual({ [name]: expected[name] ?? 'missing: run with UPDATE_SQL_SNAPSHOTS=1 (see the top of this file)' });
  });
});
