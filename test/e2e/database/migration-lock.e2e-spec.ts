// Instances starting together on an empty database apply the migrations one at a time
// instead of racing each other. On a SQLite file, or on a fresh MariaDB database with TEST_DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';

type MigrationClass = new () => MigrationInterface;
import { parseDatabaseUrl } from '../../../src/config/app-config';
import { schemaDataSourceOptions as dataSourceOptions } from '../../../src/schema';
import { runMigrationsExclusively } from '../../../src/database/migration-lock';

describe('migrations under a lock', () => {
  let url: string;
  let cleanup: () => Promise<void>;
  const open: DataSource[] = [];

  beforeEach(async () => {
    const server = process.env.TEST_DATABASE_URL;
    if (server) {
      const parsed = new URL(server.replace(/^mariadb:/, 'mysql:'));
      const name = `calendar_lock_${process.pid}_${randomBytes(3).toString('hex')}`;
      parsed.pathname = '';
      const serverUri = parsed.toString();
      const admin = async (sql: string) => {
        const c = await createConnection({ uri: serverUri });
        await c.query(sql);
        await c.end();
      };
      await admin(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      parsed.pathname = `/${name}`;
      url = parsed.toString();
      cleanup = () => admin(`DROP DATABASE IF EXISTS \`${name}\``);
    } else {
      const folder = mkdtempSync(join(tmpdir(), 'calendar-lock-'));
      url = `sqlite:${join(folder, 'lock.sqlite')}`;
      cleanup = async () => rmSync(folder, { recursive: true, force: true });
    }
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((ds) => ds.destroy()));
    await cleanup();
  });

  const connect = async () => {
    const ds = await new DataSource(dataSourceOptions({ database: parseDatabaseUrl(url)! })).initialize();
    open.push(ds);
    return ds;
  };

  it('three instances at once: one applies every migration, the others wait and find none pending', async () => {
    const sources = await Promise.all([connect(), connect(), connect()]);
    const waited: string[] = [];
    const applied = await Promise.all(sources.map((ds) => runMigrationsExclusively(ds, { onWait: (holder) => waited.push(holder) })));
    const counts = applied.map((list) => list.length).sort((x, y) => x - y);
    const all = sources[0].migrations.length;
    expect(counts).toEqual([0, 0, all]);
    expect(await sources[1].showMigrations()).toBe(false); // nothing pending
    expect((await sources[0].query('SELECT COUNT(*) AS n FROM migration_lock'))[0].n).toBe(0); // released
    expect(waited.length).toBeGreaterThan(0);
  });

  it('a lock left by an instance that died is taken over once it has expired', async () => {
    const ds = await connect();
    await ds.query('CREATE TABLE IF NOT EXISTS migration_lock (id INT NOT NULL PRIMARY KEY, holder VARCHAR(100) NOT NULL, expires_at BIGINT NOT NULL)');
    await ds.query('INSERT INTO migration_lock (id, holder, expires_at) VALUES (1, ?, ?)', ['dead-host:1', Math.floor(Date.now() / 1000) - 1]);
    expect((await runMigrationsExclusively(ds)).length).toBe(ds.migrations.length);
  });

  it('a live lock is waited for, and the wait is bounded', async () => {
    const ds = await connect();
    await ds.query('CREATE TABLE IF NOT EXISTS migration_lock (id INT NOT NULL PRIMARY KEY, holder VARCHAR(100) NOT NULL, expires_at BIGINT NOT NULL)');
    await ds.query('INSERT INTO migration_lock (id, holder, expires_at) VALUES (1, ?, ?)', ['busy-host:2', Math.floor(Date.now() / 1000) + 600]);
    await expect(runMigrationsExclusively(ds, { waitMs: 600 })).rejects.toThrow(/another instance \(busy-host:2\) is still applying migrations/);
    expect(await ds.showMigrations()).toBe(true); // nothing was applied
  });

  // On SQLite one connection serves a process, and the renewal waits for the migration's
  // transaction (migration-lock.ts); the case that matters, instances on a shared server, is MySQL's.
  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    'a holder renews its lock while a migration outlasts the TTL, so no one else migrates meanwhile',
    async () => {
      /** A migration that runs for three TTLs (a large backfill). */
      class SlowBackfill9999999999999 implements MigrationInterface {
        name = 'SlowBackfill9999999999999';
        async up(): Promise<void> {
          await new Promise((resolve) => setTimeout(resolve, 3000));
        }
        async down(): Promise<void> {}
      }
      const withSlow = async () => {
        const options = dataSourceOptions({ database: parseDatabaseUrl(url)! });
        const ds = await new DataSource({
          ...options,
          migrations: [...(options.migrations as MigrationClass[]), SlowBackfill9999999999999],
        } as DataSourceOptions).initialize();
        open.push(ds);
        return ds;
      };
      const [first, second] = [await withSlow(), await withSlow()];
      const lock = { ttlSeconds: 1, renewMs: 200 };
      const firstRun = runMigrationsExclusively(first, lock);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the first holds the lock and is migrating
      const waited: string[] = [];
      const secondRun = runMigrationsExclusively(second, { ...lock, onWait: (holder) => waited.push(holder) });
      const [a, b] = await Promise.all([firstRun, secondRun]);
      expect(a.map((m) => m.name)).toContain('SlowBackfill9999999999999');
      expect(b).toEqual([]); // it waited for the renewed lock instead of taking it over after one second
      expect(waited).toHaveLength(1);
    },
    30_000,
  );
});
