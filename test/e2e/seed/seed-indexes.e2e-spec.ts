import { DataSource } from 'typeorm';
import { cliDatabase, runCli } from '../../support/cli';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

// Spawns the built CLI (the first run may compile the project first).
jest.setTimeout(240_000);

/** Every seeded event lies inside this window. */
const ALL_DATES = 'start_date=2000-01-01&end_date=2100-12-31';

/** Every index of the database as its engine describes it (name, table, columns, kind), sorted. */
async function indexesOf(db: DataSource): Promise<string[]> {
  const rows: Record<string, unknown>[] =
    db.options.type === 'better-sqlite3'
      ? await db.query(`SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%'`)
      : await db.query(
          `SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE, INDEX_TYPE, SUB_PART, COLLATION
             FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()`,
        );
  return rows.map((r) => JSON.stringify(r)).sort();
}

describe('seed of an empty calendar: the indexes dropped for the load are built again', () => {
  const made: { remove: () => Promise<void> }[] = [];
  let migrated: TestApp;
  let seeded: TestApp;
  beforeAll(async () => {
    const [plain, loaded] = [await cliDatabase(), await cliDatabase()];
    made.push(plain, loaded);
    const run = await runCli(['migration:run'], { DATABASE_URL: plain.url });
    expect(run.code).toBe(0);
    const seed = await runCli(['seed', '--events', '400', '--seed', '5', '--today', '2026-01-15'], { DATABASE_URL: loaded.url });
    expect(seed.stderr).not.toMatch(/Error/);
    expect(seed.code).toBe(0);
    // `sharing`: the app opens these databases themselves (not a new one on their server).
    migrated = await createTestApp({}, { sharing: { databaseUrl: plain.url } });
    seeded = await createTestApp({}, { sharing: { databaseUrl: loaded.url } });
  });
  afterAll(async () => {
    await seeded?.close();
    await migrated?.close();
    for (const db of made) await db.remove();
  });

  it('leaves the same indexes as the migrations make', async () => {
    const want = await indexesOf(migrated.app.get(DataSource));
    expect(want.some((line) => line.includes('ix_event_terms_listing'))).toBe(true);
    expect(await indexesOf(seeded.app.get(DataSource))).toEqual(want);
  });

  it('finds seeded events by words of their titles (their search documents were written)', async () => {
    const page = (await http(seeded).get(`${API}/events?${ALL_DATES}&per_page=5`)).body as { events: { id: number; title: string }[] };
    expect(page.events.length).toBeGreaterThan(0);
    let asked = 0;
    for (const event of page.events) {
      const word = event.title.split(/\s+/).find((w) => /^[A-Za-z]{4,}$/.test(w));
      if (word === undefined) continue;
      const found = (await http(seeded).get(`${API}/events?${ALL_DATES}&per_page=50&search=${encodeURIComponent(word)}`)).body as {
        events: { id: number }[];
        total: number;
      };
      asked++;
      expect(found.total).toBeGreaterThan(0);
      const ids: number[] = [];
      for (let p = 1; p <= Math.ceil(found.total / 50); p++) {
        ids.push(
          ...(
            (await http(seeded).get(`${API}/events?${ALL_DATES}&per_page=50&page=${p}&search=${encodeURIComponent(word)}`)).body as { events: { id: number }[] }
          ).events.map((e) => e.id),
        );
      }
      expect(ids).toContain(event.id);
    }
    expect(asked).toBeGreaterThan(0);
  });
});
