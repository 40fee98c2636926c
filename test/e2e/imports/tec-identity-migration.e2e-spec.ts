// The migration that moves TEC mappings from `tec <API root>` to the origin's identity
// (sources.md §4), on rows as the earlier import:tec wrote them, on the real database.
import { DataSource } from 'typeorm';
import { tecIdentityByOrigin } from '../../../src/imports/migrations/shared/tec-identity-by-origin';
import { createTestApp, TestApp } from '../../support/test-app';

describe('TecIdentityByOrigin migration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('keeps one mapping per global id (the oldest), under `tec`, and drops term mappings by source id', async () => {
    const db = t.app.get(DataSource);
    const rows: [string, string, string, number][] = [
      ['tec http://proxy/wp-json/tribe/events/v1', 'event', 'Site.Example?id=1', 10],
      ['tec http://site.example/wp-json/tribe/events/v1', 'event', 'site.example?id=1', 11],
      ['tec http://site.example/wp-json/tribe/events/v1', 'venue', 'site.example?id=2', 12],
      ['tec http://site.example/wp-json/tribe/events/v1', 'category', '5', 13],
      ['ics', 'event', 'uid-1@x', 14],
    ];
    for (const [source, kind, key, local] of rows) {
      await db.query(
        "INSERT INTO imported_records (source, kind, source_key, local_id, source_version, imported_at) VALUES (?, ?, ?, ?, 'v', '2026-01-01 00:00:00')",
        [source, kind, key, local],
      );
    }
    const runner = db.createQueryRunner();
    try {
      await tecIdentityByOrigin(runner);
    } finally {
      await runner.release();
    }
    const after = (await db.query('SELECT source, kind, source_key, local_id FROM imported_records ORDER BY local_id')) as Record<string, unknown>[];
    expect(after.map((r) => [r.source, r.kind, r.source_key, Number(r.local_id)])).toEqual([
      ['tec', 'event', 'site.example?id=1', 10],
      ['tec', 'venue', 'site.example?id=2', 12],
      ['ics', 'event', 'uid-1@x', 14],
    ]);
  });
});
