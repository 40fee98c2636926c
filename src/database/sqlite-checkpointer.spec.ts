import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SqliteCheckpointer } from './sqlite-checkpointer';

describe('SqliteCheckpointer', () => {
  let dir: string;
  let ds: DataSource;
  let checkpointer: SqliteCheckpointer;
  const file = () => join(dir, 'db.sqlite');

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
    ds = await new DataSource({
      type: 'better-sqlite3',
      database: file(),
      prepareDatabase: (conn: { pragma(s: string): unknown }) => void conn.pragma('journal_mode = WAL'),
    }).initialize();
    checkpointer = new SqliteCheckpointer(ds);
  });
  afterEach(async () => {
    await checkpointer.onApplicationShutdown();
    if (ds.isInitialized) await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed WAL pages into the database file from its own thread, and stops with the application', async () => {
    await checkpointer.onApplicationBootstrap();
    expect(checkpointer.threaded).toBe(true);
    // The serving connection no longer checkpoints by itself…
    expect(await ds.query('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 0 }]);
    const before = statSync(file()).size;
    await ds.query('CREATE TABLE t (v TEXT)');
    await ds.query(
      'INSERT INTO t SELECT hex(randomblob(500)) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT i FROM n)',
    );
    // …so the rows are in the WAL only, until the thread's checkpoint copies them.
    expect(statSync(file()).size).toBe(before);
    while (statSync(file()).size <= before) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statSync(file()).size).toBeGreaterThan(1_000_000);
    // The thread's connection is closed at shutdown: the file then has one connection, the serving one.
    await checkpointer.onApplicationShutdown();
    expect(checkpointer.threaded).toBe(false);
    expect(await ds.query('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 2000 }]);
  });

  it('does nothing for an in-memory database', async () => {
    const memory = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    const idle = new SqliteCheckpointer(memory);
    await idle.onApplicationBootstrap();
    expect(await memory.query('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 1000 }]);
    await idle.onApplicationShutdown();
    await memory.destroy();
  });
});
