import type { DataSource } from 'typeorm';
import { EventTermEntity } from '../taxonomies/entities/event-term.entity';
import { PostEntity } from '../posts/post.entity';
import { insertInChunks } from './bulk-insert';
import { memoryDataSource } from './testing/memory-data-source';
import { SCHEMA } from '../schema';

describe('insertInChunks', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await memoryDataSource(SCHEMA);
  });
  afterAll(() => ds.destroy());

  it('writes every row, generated keys left to the database', async () => {
    await ds.transaction((tx) =>
      insertInChunks(
        tx,
        PostEntity,
        Array.from({ length: 2500 }, (_, i) => ({ type: i % 2 ? 'venue' : 'event' })),
      ),
    );
    const rows: { type: string; n: number }[] = await ds.query('SELECT type, COUNT(*) AS n FROM posts GROUP BY type ORDER BY type');
    expect(rows.map((r) => [r.type, Number(r.n)])).toEqual([
      ['event', 1250],
      ['venue', 1250],
    ]);
  });

  it('converts values as the ORM does (booleans) and reads back the same', async () => {
    await ds.transaction((tx) =>
      insertInChunks(tx, EventTermEntity, [
        { eventId: 1, termId: 10, published: true },
        { eventId: 1, termId: 11, published: false },
      ]),
    );
    const back = await ds.getRepository(EventTermEntity).find({ where: { eventId: 1 }, order: { termId: 'ASC' } });
    expect(back.map((r) => [r.termId, r.published])).toEqual([
      [10, true],
      [11, false],
    ]);
  });

  it('rows setting different columns still all arrive (the query builder fills the defaults)', async () => {
    await ds.transaction((tx) =>
      insertInChunks(tx, EventTermEntity, [
        { eventId: 2, termId: 20, published: true },
        { eventId: 2, termId: 21 },
      ]),
    );
    const back = await ds.getRepository(EventTermEntity).find({ where: { eventId: 2 }, order: { termId: 'ASC' } });
    expect(back.map((r) => r.termId)).toEqual([20, 21]);
  });
});
