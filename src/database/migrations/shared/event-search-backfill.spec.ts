import { DataSource } from 'typeorm';
import { eventRow } from '../../../../test/support/rows';
import { EventEntity } from '../../../events/entities/event.entity';
import { searchTokens } from '../../../events/search-grams';
import { Dialect } from '../../dialect';
import { memoryDataSource } from '../../testing/memory-data-source';
import { SCHEMA } from '../../../schema';
import { backfillEventSearch } from './event-search-backfill';

describe('backfillEventSearch (migration EventSearch)', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await memoryDataSource(SCHEMA);
  });
  afterAll(async () => ds.destroy());

  it('writes the search document of every stored event, over several batches', async () => {
    // Rows written straight to the table, as a database migrated before the search index has them.
    const rows = Array.from({ length: 2300 }, (_, i) => eventRow(i + 1, { title: `Event ${i + 1}`, description: i % 1000 === 7 ? 'A quokka visit' : '' }));
    for (let i = 0; i < rows.length; i += 500) await ds.getRepository(EventEntity).insert(rows.slice(i, i + 500));
    const dialect = Dialect.of(ds);
    const find = (words: string[]) =>
      ds
        .query(`${dialect.searchCandidates('?')} ORDER BY 1`, [dialect.searchExpression(searchTokens(words))])
        .then((r: { rowid: number }[]) => r.map((x) => x.rowid));
    expect(await find(['quokka'])).toEqual([]);

    const runner = ds.createQueryRunner();
    try {
      await backfillEventSearch(runner, 'sqlite');
    } finally {
      await runner.release();
    }
    expect(await find(['quokka'])).toEqual([8, 1008, 2008]);
    expect(await find(['event 2300'])).toEqual([2300]);
    const [{ n }] = await ds.query('SELECT count(*) AS n FROM event_search');
    expect(n).toBe(2300);
  });
});
