import { DataSource } from 'typeorm';
import { serializeSqliteTransactions } from './sqlite-transactions';

const pause = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serializeSqliteTransactions', () => {
  let ds: DataSource;
  const rows = async () => ((await ds.query('SELECT v FROM t ORDER BY v')) as { v: string }[]).map((r) => r.v);

  beforeEach(async () => {
    ds = serializeSqliteTransactions(await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize());
    await ds.query('CREATE TABLE t (v TEXT)');
  });
  afterEach(() => ds.destroy());

  it('keeps a committed transaction when a concurrent one fails', async () => {
    const a = ds.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES ('a')");
      await pause();
    });
    const b = ds.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES ('b')");
      await pause(10);
      throw new Error('b fails');
    });
    const [ra, rb] = await Promise.allSettled([a, b]);
    expect(ra.status).toBe('fulfilled');
    expect(rb).toMatchObject({ status: 'rejected', reason: { message: 'b fails' } });
    expect(await rows()).toEqual(['a']);
  });

  it('commits every one of many concurrent transactions', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ds.transaction(async (tx) => {
          await pause(i % 3);
          await tx.query('INSERT INTO t VALUES (?)', [`v${String(i).padStart(2, '0')}`]);
          await pause(i % 2);
        }),
      ),
    );
    expect(await rows()).toHaveLength(20);
  });

  it('never shows a reader rows of a transaction still open', async () => {
    let written!: () => void;
    const insideWrite = new Promise<void>((resolve) => (written = resolve));
    const write = ds.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES ('pending')");
      written();
      await pause(20);
      throw new Error('rolled back');
    });
    await insideWrite;
    expect(await rows()).toEqual([]);
    await expect(write).rejects.toThrow('rolled back');
  });

  it('nests a transaction begun on a transaction\'s manager as a savepoint of it', async () => {
    await ds.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES ('outer')");
      await expect(
        tx.transaction(async (inner) => {
          await inner.query("INSERT INTO t VALUES ('inner')");
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
    });
    expect(await rows()).toEqual(['outer']);
  });

  it('makes a reader that comes while a transaction is open wait for its commit', async () => {
    let written!: () => void;
    const insideWrite = new Promise<void>((resolve) => (written = resolve));
    const write = ds.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES ('a')");
      written();
      await pause(10);
      await tx.query("INSERT INTO t VALUES ('b')");
    });
    await insideWrite;
    expect(await rows()).toEqual(['a', 'b']); // never just 'a'
    await write;
  });
});
