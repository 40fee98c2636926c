// Read-only SQL for the e2e checks the API cannot show: rows no response reads (what a delete for
// good must leave behind, a search document, the state a refused write must not have touched).
// E2e tests create and change their data through HTTP (api.ts); this helper only reads, and
// refuses any statement that is not a SELECT, so it cannot become a back door for seeding.
import { DataSource } from 'typeorm';
import type { TestApp } from './test-app';

type Row = Record<string, unknown>;

/** The rows a SELECT answers, on the app's own connection (so on either engine). */
export async function selectRows(t: TestApp, sql: string, params: unknown[] = []): Promise<Row[]> {
  if (!/^\s*SELECT\s/i.test(sql) || sql.includes(';')) throw new Error(`test/support/sql.ts reads only, one SELECT at a time: ${sql}`);
  return (await t.app.get(DataSource).query(sql, params)) as Row[];
}

/** `SELECT COUNT(*) AS n …` as a number (MariaDB answers a string, SQLite a number). */
export async function countRows(t: TestApp, sql: string, params: unknown[] = []): Promise<number> {
  return Number((await selectRows(t, sql, params))[0].n);
}

/**
 * Every row of every table the app maps to an entity, except `skip`, by table, each row as a
 * JSON line, in primary-key order: a fingerprint of the stored state to compare before and after
 * a request. The tables come from the connection's metadata, so a table added later is included.
 */
export async function tableRows(t: TestApp, skip: ReadonlySet<string> = new Set()): Promise<Map<string, string[]>> {
  const ds = t.app.get(DataSource);
  const tables = new Map<string, string[]>();
  for (const meta of ds.entityMetadatas) {
    if (skip.has(meta.tableName)) continue;
    const order = meta.primaryColumns.map((c) => ds.driver.escape(c.databaseName)).join(', ');
    const rows = await selectRows(t, `SELECT * FROM ${ds.driver.escape(meta.tableName)}${order ? ` ORDER BY ${order}` : ''}`);
    tables.set(
      meta.tableName,
      rows.map((r) => JSON.stringify(r)),
    );
  }
  return tables;
}
