// migration:check compares entities and migrations in a scratch database and only reads the
// database it checks: on a SQLite file, or on a fresh MariaDB database with
// TEST_DATABASE_URL.
import { existsSync } from 'node:fs';
import { createConnection } from 'mysql2/promise';
import { DataSource, MigrationInterface } from 'typeorm';
import { parseDatabaseUrl } from '../../../src/config/app-config';
import { withScratchDatabase } from '../../../src/database/scratch-database';
import { schemaDataSourceOptions } from '../../../src/schema';
import { cliDatabase, runCli } from '../../support/cli';

// Spawns real processes, and the first one may compile the project first.
jest.setTimeout(180_000);

/** The tables of the database at `url` (none when a SQLite file does not exist). */
async function tablesOf(url: string): Promise<string[]> {
  const db = parseDatabaseUrl(url)!;
  if (db.kind === 'sqlite') {
    if (!existsSync(db.file)) return [];
    const conn = await new DataSource({ type: 'better-sqlite3', database: db.file, readonly: true }).initialize();
    try {
      return ((await conn.query("SELECT name FROM sqlite_master WHERE type = 'table'")) as { name: string }[]).map((r) => r.name);
    } finally {
      await conn.destroy();
    }
  }
  const parsed = new URL(db.url.replace(/^mariadb:/, 'mysql:'));
  const name = parsed.pathname.slice(1);
  parsed.pathname = '';
  const conn = await createConnection({ uri: parsed.toString() });
  try {
    const [rows] = await conn.query('SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [name]);
    return (rows as { name: string }[]).map((r) => r.name);
  } finally {
    await conn.end();
  }
}

/** The check's scratch databases on the MariaDB server of TEST_DATABASE_URL ([] on SQLite). */
async function scratchDatabases(): Promise<string[]> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server || !/^(mysql|mariadb):\/\//.test(server)) return [];
  const parsed = new URL(server.replace(/^mariadb:/, 'mysql:'));
  parsed.pathname = '';
  const conn = await createConnection({ uri: parsed.toString() });
  try {
    const [rows] = await conn.query("SHOW DATABASES LIKE 'calendar\\_check\\_%'");
    return (rows as Record<string, string>[]).map((r) => Object.values(r)[0]);
  } finally {
    await conn.end();
  }
}

/** The names of this engine's migrations, in the order they apply. */
function migrationNames(url: string): string[] {
  const classes = schemaDataSourceOptions({ database: parseDatabaseUrl(url)! }).migrations as (new () => MigrationInterface)[];
  return classes.map((M) => new M().name!);
}

describe('migration:check', () => {
  let db: Awaited<ReturnType<typeof cliDatabase>>;
  beforeEach(async () => (db = await cliDatabase()));
  afterEach(async () => db.remove());

  it('leaves a fresh database empty, reports every migration pending there and exits 3', async () => {
    const scratchBefore = await scratchDatabases();
    const checked = await runCli(['migration:check'], { DATABASE_URL: db.url });
    expect(await tablesOf(db.url)).toEqual([]);
    const names = migrationNames(db.url);
    expect(checked.code).toBe(3);
    expect(checked.stdout).toContain('Entities and migrations agree.');
    expect(checked.stdout).toContain(`${names.length} migrations are not applied to this database`);
    for (const name of names) expect(checked.stdout).toContain(`  ${name}\n`);
    // The scratch database of the comparison is gone again.
    expect((await scratchDatabases()).filter((name) => !scratchBefore.includes(name))).toEqual([]);
  });

  it('says the database is up to date after migration:run, and names the one pending after migration:revert', async () => {
    expect((await runCli(['migration:run'], { DATABASE_URL: db.url })).code).toBe(0);
    const upToDate = await runCli(['migration:check'], { DATABASE_URL: db.url });
    expect(upToDate).toMatchObject({ code: 0, stderr: '' });
    expect(upToDate.stdout).toBe('Entities and migrations agree.\nThe database is up to date: every migration is applied.\n');

    expect((await runCli(['migration:revert'], { DATABASE_URL: db.url })).code).toBe(0);
    const tables = (await tablesOf(db.url)).sort();
    const names = migrationNames(db.url);
    const behind = await runCli(['migration:check'], { DATABASE_URL: db.url });
    expect(behind.code).toBe(3);
    expect(behind.stdout).toContain(`1 migration is not applied to this database (npm run cli -- migration:run applies it):\n  ${names[names.length - 1]}\n`);
    // The check applied nothing: the reverted migration is still pending, the tables are those after the revert.
    expect((await runCli(['migration:check'], { DATABASE_URL: db.url })).code).toBe(3);
    expect((await tablesOf(db.url)).sort()).toEqual(tables);
  });

  it('drops the scratch database when the comparison fails, and leaves the checked one alone', async () => {
    // The CLI's own start opens the checked database without creating it; here it is created empty.
    const checked = await new DataSource(schemaDataSourceOptions({ database: parseDatabaseUrl(db.url)! })).initialize();
    const scratchBefore = await scratchDatabases();
    let seen: string[] = [];
    try {
      const failed = withScratchDatabase(checked, async (scratch) => {
        await scratch.runMigrations();
        seen = (await scratchDatabases()).filter((name) => !scratchBefore.includes(name));
        throw new Error('the comparison failed');
      });
      await expect(failed).rejects.toThrow('the comparison failed');
    } finally {
      await checked.destroy();
    }
    // On MariaDB the scratch database existed while the work ran, and is gone after it failed.
    if (process.env.TEST_DATABASE_URL) expect(seen).toHaveLength(1);
    expect((await scratchDatabases()).filter((name) => !scratchBefore.includes(name))).toEqual([]);
    expect(await tablesOf(db.url)).toEqual([]);
  });
});
