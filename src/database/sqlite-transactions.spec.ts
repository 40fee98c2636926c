import { DataSource, EntityManager } from 'typeorm';
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

  /**
   * A transaction that inserts `first`, then (once a reader has been let in) waits and runs
   * `rest`; `inside` resolves right after the first insert.
   */
  const openWrite = (first: string, rest: (tx: EntityManager) => Promise<void>) => {
    let signal!: () => void;
    const inside = new Promise<void>((resolve) => (signal = resolve));
    const done = ds.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (?)', [first]);
      signal();
      await pause(10);
      await rest(tx);
    });
    done.catch(() => undefined); // asserted by the test; never an unhandled rejection when an earlier expect fails
    return { inside, done };
  };

  it('never shows a reader rows of a transaction still open', async () => {
    const write = openWrite('pending', async () => {
      throw new Error('rolled back');
    });
    await write.inside;
    expect(await rows()).toEqual([]);
    await expect(write.done).rejects.toThrow('rolled back');
  });

  it("nests a transaction begun on a transaction's manager as a savepoint of it", async () => {
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
    const write = openWrite('a', async (tx) => {
      await tx.query("INSERT INTO t VALUES ('b')");
    });
    await write.inside;
    expect(await rows()).toEqual(['a', 'b']); // never just 'a'
    await write.done;
  });
});
