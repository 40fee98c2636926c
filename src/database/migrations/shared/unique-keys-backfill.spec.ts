import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { schemaDataSourceOptions } from '../../../schema';
import { SQLITE_MIGRATIONS } from '../sqlite';
import { frozenShadowNameKey, frozenTermNameKey } from './frozen-term-name-key';

/**
 * Migration UniqueSlugsTermNames on a database that concurrent writers left with duplicates
 * (possible before the unique indexes existed): the migration makes the data fit, then indexes it.
 */
describe('migration UniqueSlugsTermNames on data with duplicates', () => {
  let folder: string;
  let ds: DataSource;
  const open = async (migrations: unknown[]) => {
    const options = schemaDataSourceOptions({ database: { kind: 'sqlite', file: join(folder, 'db.sqlite') } });
    return new DataSource({ ...options, migrations: migrations as never }).initialize();
  };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'calendar-migration-'));
    // Every migration before UniqueSlugsTermNames, the one under test.
    const before = await open(
      SQLITE_MIGRATIONS.slice(
        0,
        SQLITE_MIGRATIONS.findIndex((m) => m.name.startsWith('UniqueSlugsTermNames')),
      ),
    );
    await before.runMigrations();
    const event = (id: number, slug: string, status = 'publish') =>
      before.query(
        `INSERT INTO events (id, author_id, status, date_utc, modified_utc, title, description, excerpt, slug, start_date, end_date,
           start_date_utc, end_date_utc, timezone, all_day, cost, website, show_map, show_map_link, hide_from_listings, sticky, featured, parent_id)
         VALUES (?, 1, ?, '2025-01-01 00:00:00', '2025-01-01 00:00:00', 'Race', '', '', ?, '2030-01-01 10:00:00', '2030-01-01 11:00:00',
           '2030-01-01 10:00:00', '2030-01-01 11:00:00', 'UTC', 0, '[]', '', 0, 0, 0, 0, 0, 0)`,
        [id, status, slug],
      );
    await event(1, 'race');
    await event(2, 'race');
    await event(3, 'race', 'draft');
    await event(4, 'race__trashed', 'trash');
    await event(5, 'race__trashed', 'trash');
    await event(6, 'other');
    const term = (id: number, name: string, slug: string, parent = 0) =>
      before.query("INSERT INTO terms (id, taxonomy, name, slug, description, parent_id, count) VALUES (?, 'category', ?, ?, '', ?, 0)", [
        id,
        name,
        slug,
        parent,
      ]);
    await term(10, 'Jazz', 'jazz');
    await term(11, 'JAZZ', 'jazz-2');
    await term(12, 'Jazz', 'jazz-3', 10);
    await term(13, 'Blues', 'blues');
    await before.destroy();
    ds = await open(SQLITE_MIGRATIONS);
    await ds.runMigrations();
  });
  afterAll(async () => {
    await ds?.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps the slug on the oldest live item and gives later ones their id; trashed items keep theirs', async () => {
    const rows: { id: number; slug: string }[] = await ds.query('SELECT id, slug FROM events ORDER BY id');
    expect(rows.map((r) => r.slug)).toEqual(['race', 'race-2', 'race-3', 'race__trashed', 'race__trashed', 'other']);
  });

  it('keys term names by level; a later namesake at one level gets a shadow key', async () => {
    const rows: { id: number; name_key: string }[] = await ds.query('SELECT id, name_key FROM terms ORDER BY id');
    expect(rows).toEqual([
      { id: 10, name_key: frozenTermNameKey('Jazz') },
      { id: 11, name_key: frozenShadowNameKey('JAZZ', 11) },
      { id: 12, name_key: frozenTermNameKey('Jazz') },
      { id: 13, name_key: frozenTermNameKey('Blues') },
    ]);
  });

  it('then enforces both rules', async () => {
    await expect(ds.query("UPDATE events SET slug = 'race' WHERE id = 6")).rejects.toThrow(/UNIQUE/);
    // Trashed items may share a slug.
    await expect(ds.query("UPDATE events SET status = 'trash', slug = 'race__trashed' WHERE id = 6")).resolves.toBeDefined();
    await expect(ds.query('UPDATE terms SET name_key = ? WHERE id = 13', [frozenTermNameKey('Jazz')])).rejects.toThrow(/UNIQUE/);
  });
});
