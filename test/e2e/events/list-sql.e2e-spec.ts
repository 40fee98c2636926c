// The SQL each list runs, per dialect, kept in test/e2e/events/list-sql/<dialect>.json,
// each SELECT with its plan as the engine chooses it here (SQLite's EXPLAIN
// QUERY PLAN lines, MariaDB's EXPLAIN rows as table, access type, key and Extra, without the row
// estimate, which moves; for `ref` look-ups the compared columns instead of the key's name: see keyOf): a change to a list query (an index it can no longer use, a planner
// threshold, a new join) shows in review as a diff of that file. `npm test` checks sqlite.json, the MariaDB runs
// of .ci/run check mysql.json. After an intended change, write both anew:
//   UPDATE_SQL_SNAPSHOTS=1 npx jest test/e2e/events/list-sql
//   UPDATE_SQL_SNAPSHOTS=1 TEST_DATABASE_URL=mysql://root@127.0.0.1:3306/calendar_e2e npx jest test/e2e/events/list-sql
// (Files of our own rather than Jest snapshots: with CI set, Jest fails a run on the other
// dialect's entries as obsolete.)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { FEATURES } from '../../../src/features';
import { createCategory, createEvent, createTag, createVenue, makeUsers } from '../../support/api';
import { API, http } from '../../support/http';
import { captureQueries, LoggedQuery, sentByTimer } from '../../support/sql-log';
import { createTestApp, EXTENSIONS_OFF, TestApp } from '../../support/test-app';

/** A statement as the snapshot keeps it: its text (ids written into it masked) and, for a SELECT, its plan. */
interface Statement {
  sql: string;
  plan: string[];
}

/** A statement's text as the snapshot keeps it: one line, the ids written into it (which differ between runs and engines: a cluster leaves gaps) masked. */
const normalised = (query: string): string =>
  query
    .replace(/\s+/g, ' ')
    .replace(/IN \(\d+(?:, ?\d+)*\)/g, 'IN (<ids>)')
    .trim();

/** Whether a statement names `table` (quoted as either engine quotes it, or bare). */
const namesTable = (query: string, table: string): boolean => new RegExp(`[\\s\`"(,.]${table}[\\s\`",)]`).test(query);

describe('the SQL of every list', () => {
  let t: TestApp;
  let ds: DataSource;
  let dialect: string;
  let captured: LoggedQuery[] = [];
  let ids: { category: number; tag: number; venue: number };
  /** The tables of the installed features that are not the core's (a team's extension, TEST_EXTENSION_MODULES=on). */
  let extensionTables: string[] = [];
  const updating = process.env.UPDATE_SQL_SNAPSHOTS === '1';
  let file: string;
  let expected: Record<string, Statement[]> = {};
  const written: Record<string, Statement[]> = {};

  beforeAll(async () => {
    // The core's own statements: an extension that is on adds its own (the geo extension reads a
    // page's coordinates), which are its business, not this snapshot's.
    t = await createTestApp(EXTENSIONS_OFF);
    ds = t.app.get(DataSource);
    extensionTables = (t.features.filter((f) => !FEATURES.includes(f)).flatMap((f) => f.entities ?? []) as (new () => unknown)[]).map(
      (entity) => ds.getMetadata(entity).tableName,
    );
    dialect = ds.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql';
    file = join(__dirname, 'list-sql', `${dialect}.json`);
    if (existsSync(file)) expected = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Statement[]>;
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
    if (dialect === 'mysql') {
      // Statistics taken now, not whenever InnoDB's background recount gets to the new rows: between
      // two indexes that cost the same (terms' two by taxonomy) the choice followed their timing.
      const tables = (await ds.query('SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()')) as { name: string }[];
      await ds.query(`ANALYZE TABLE ${tables.map((table) => `\`${table.name}\``).join(', ')}`);
    }
    // From here on every statement is captured as it is sent.
    captured = captureQueries(ds);
  });
  afterAll(async () => {
    if (updating) writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
    await t?.close();
  });

  /** The statements one request sent, in order, each SELECT with its plan. */
  async function sqlOf(path: string): Promise<Statement[]> {
    captured.length = 0;
    const res = await http(t).get(`${API}${path}`);
    expect(res.status).toBe(200);
    // A statement naming an installed extension's table is the extension's: the snapshot keeps the
    // core's, which must stay as they are with the extension installed.
    const sent = captured.filter((q) => !sentByTimer(q) && !extensionTables.some((table) => namesTable(q.query, table)));
    const statements: Statement[] = [];
    // One at a time, after the request: the plans' own statements are not the request's.
    for (const q of sent) statements.push({ sql: normalised(q.query), plan: /^\s*(SELECT|WITH)\b/i.test(q.query) ? await planOf(q) : [] });
    return statements;
  }

  /**
   * The plan of a statement with its parameters. SQLite: the EXPLAIN QUERY PLAN lines, indented
   * by their depth in the plan's tree. MariaDB: per EXPLAIN row its table, access type, key and
   * Extra (its `rows` is an estimate that moves with the statistics).
   */
  async function planOf(q: LoggedQuery): Promise<string[]> {
    if (dialect === 'sqlite') {
      const rows = (await ds.query(`EXPLAIN QUERY PLAN ${q.query}`, q.parameters)) as { id: number; parent: number; detail: string }[];
      const depth = new Map<number, number>([[0, 0]]);
      return rows.map((row) => {
        const level = (depth.get(row.parent) ?? 0) + 1;
        depth.set(row.id, level);
        return `${'  '.repeat(level - 1)}${row.detail}`;
      });
    }
    const rows = (await ds.query(`EXPLAIN ${q.query}`, q.parameters)) as Record<string, string | number | null>[];
    const lines: string[] = [];
    for (const row of rows) lines.push([row.table, row.type, await keyOf(row), row.Extra].map((v) => (v === null || v === '' ? '-' : v)).join(' | '));
    return lines;
  }

  /**
   * The key of a MariaDB plan row. For a `ref` look-up, the columns it compares, after the
   * index's name (`ix_terms_taxonomy_parent(taxonomy)`): when two indexes start with those
   * columns and cover the query, they cost the same and MariaDB's choice between them was not
   * the same from one fresh database to the next, even after ANALYZE TABLE. So for `ref` rows
   * the snapshot keeps the compared columns and masks the name (`*(taxonomy)`); other access
   * types keep the name. Index names are unique in this schema (ix_<table>_…); PRIMARY is kept.
   */
  async function keyOf(row: Record<string, string | number | null>): Promise<string | number | null> {
    if (row.type !== 'ref' || typeof row.key !== 'string' || row.key === 'PRIMARY' || typeof row.ref !== 'string') return row.key;
    const columns = (await ds.query(
      'SELECT COLUMN_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME = ? ORDER BY SEQ_IN_INDEX',
      [row.key],
    )) as { name: string }[];
    const compared = row.ref.split(',').length;
    return `*(${columns
      .slice(0, compared)
      .map((c) => c.name)
      .join(', ')})`;
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
