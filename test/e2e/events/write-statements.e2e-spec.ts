// What one event write sends to the database: the change rows of a write
// in one statement, and on SQLite, statements the connection has prepared before (the write
// path's SQL text carries no ids or values, so TypeORM's prepared-statement cache holds it).
import { DataSource } from 'typeorm';
import { createCategory, createEvent, makeUsers } from '../../support/api';
import { captureQueries, LoggedQuery, sentByTimer } from '../../support/sql-log';
import { createTestApp, EXTENSIONS_OFF, TestApp } from '../../support/test-app';

describe('the statements of an event write', () => {
  let t: TestApp;
  let ds: DataSource;
  let admin: { authorization: string };
  let categories: number[];
  let captured: LoggedQuery[] = [];
  let n = 0;

  /** The body of POST /events with a nested venue (new each time) and two categories. */
  const body = () => {
    n += 1;
    return {
      title: `Write statements ${n}`,
      start_date: '2031-05-01 10:00',
      end_date: '2031-05-01 11:00',
      categories,
      venue: { venue: `Write Statements Hall ${n}`, city: 'Lyon' },
      cost: '$10',
    };
  };

  beforeAll(async () => {
    t = await createTestApp(EXTENSIONS_OFF);
    ds = t.app.get(DataSource);
    ({ admin } = await makeUsers(t));
    categories = [
      (await createCategory(t, admin.authorization, { name: 'Write A' })).id,
      (await createCategory(t, admin.authorization, { name: 'Write B' })).id,
    ];
    captured = captureQueries(ds);
  }, 60_000); // a fresh app (migrations) and users with scrypt-hashed passwords: slow on a busy machine
  afterAll(() => t?.close());

  /** The statements sent while one POST ran (timers' among them). */
  async function statementsOf(): Promise<string[]> {
    captured.length = 0;
    await createEvent(t, admin.authorization, body());
    return captured.map((q) => q.query);
  }

  it('writes the change rows of the write (event, venue, two categories) in one INSERT, after one read of their states', async () => {
    const sql = await statementsOf();
    expect(sql.filter((q) => /^INSERT INTO [`"]?change_log\b/.test(q))).toHaveLength(1);
    // The states of the event, the venue and the categories, with the counters: one SELECT.
    const states = sql.filter((q) => /\bFROM events t\b/.test(q));
    expect(states).toHaveLength(1);
    expect(states[0]).toMatch(/FROM change_counter WHERE/);
    expect(states[0]).toMatch(/FROM venues t/);
    expect(states[0]).toMatch(/FROM terms t/);
  });

  it('looks a nested venue up by name through the name_key index, not a scan of the venues', async () => {
    const sql = (await statementsOf()).filter((q) => /FROM [`"]?venues[`"]? [`"]?\w+[`"]? WHERE .*name_key/i.test(q));
    const lookup = captured.find((q) => q.query === sql[0]);
    expect(lookup).toBeDefined();
    const sqlite = ds.options.type === 'better-sqlite3';
    const plan = (await ds.query(`${sqlite ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN'} ${lookup!.query}`, lookup!.parameters)) as Record<string, unknown>[];
    const text = JSON.stringify(plan);
    expect(text).toContain('ix_venues_name_key');
    if (sqlite) expect(text).not.toMatch(/SCAN [`"]?(venues|\w+)[`"]?(?! USING)/);
  });

  it('still reuses a venue whose name differs only in case (the name decides, the key only narrows)', async () => {
    const first = await createEvent(t, admin.authorization, { ...body(), venue: { venue: 'Salle Pleyel Name Key', city: 'Paris' } });
    const second = await createEvent(t, admin.authorization, { ...body(), venue: { venue: 'SALLE pleyel name KEY', city: 'Paris' } });
    expect((second.venue as { id: number }).id).toBe((first.venue as { id: number }).id);
  });

  (process.env.TEST_DATABASE_URL ? it.skip : it)('prepares no statement anew for a second write of the same shape (SQLite)', async () => {
    await statementsOf();
    const connection = (ds.driver as unknown as { databaseConnection: { prepare(sql: string): unknown } }).databaseConnection;
    const prepared: string[] = [];
    const prepare = connection.prepare.bind(connection);
    connection.prepare = (sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    };
    try {
      await statementsOf();
    } finally {
      connection.prepare = prepare;
    }
    expect(prepared.filter((query) => !sentByTimer({ query, parameters: [] }))).toEqual([]);
  });
});
