import { DataSource } from 'typeorm';
import { listedHooks } from '../../test/support/hooks';
import { DataVersion } from '../common/cache/data-version.service';
import { CacheShares } from '../common/cache/cache-shares';
import { NamedCache, ReadModel } from '../common/cache/read-model';
import { loadConfig } from '../config/app-config';
import { WpError } from '../common/errors';
import { FEATURES } from '../features';
import { SCHEMA } from '../schema';
import { ChangeKinds } from './change-kinds';
import type { ChangeSet } from './change-log';
import { ChangeLogVersion } from './change-log-version';
import { Dialect } from './dialect';
import { memoryDataSource } from './testing/memory-data-source';
import { UnitOfWork, WRITE_ATTEMPTS } from './unit-of-work';
import { type WriteParticipant, WRITE_PARTICIPANTS, WriteParticipants } from './write-participants';

/** What SQLite throws when another connection holds the write lock: a reason to run the write again. */
const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/**
 * The pauses between attempts at their shortest (0 ms) for the rest of a test: they are random,
 * up to half a second each, and a test that uses up every attempt would wait seconds for them.
 */
const withoutPauses = () => jest.spyOn(Math, 'random').mockReturnValue(0);
afterEach(() => jest.restoreAllMocks());

describe('UnitOfWork', () => {
  let ds: DataSource;
  let version: DataVersion;
  let unitOfWork: UnitOfWork;
  let readModel: ReadModel;
  /** A cache a write may empty (taken once: the read model refuses a name twice). */
  let totals: NamedCache<number>;

  beforeAll(async () => {
    ds = await memoryDataSource(SCHEMA);
    version = new DataVersion(new ChangeLogVersion(ds));
    await version.current();
    readModel = new ReadModel(version, loadConfig({}), CacheShares.of(FEATURES));
    unitOfWork = newUnitOfWork();
    totals = readModel.cache<number>('events.totals');
  });
  afterAll(async () => ds?.destroy());

  /** A unit of work over the database, with these participants of every write. */
  const newUnitOfWork = (...participants: WriteParticipant[]) =>
    new UnitOfWork(ds, Dialect.of(ds), readModel, ChangeKinds.of(FEATURES), new WriteParticipants(listedHooks(WRITE_PARTICIPANTS, ...participants)));

  const changeRows = async () => (await ds.query('SELECT type, item_id AS id FROM change_log ORDER BY seq')) as { type: string; id: number }[];
  const writes = async () => (await ds.query("SELECT name FROM write_locks WHERE name LIKE 'uow-%' ORDER BY name")) as { name: string }[];

  beforeEach(async () => {
    await ds.query('DELETE FROM change_log');
    await ds.query('DELETE FROM write_locks');
  });

  it('commits the work with the change rows it recorded, and moves the data version', async () => {
    const before = await version.current();
    const out = await unitOfWork.run(async (tx, changes) => {
      await tx.query("INSERT INTO write_locks (name) VALUES ('uow-a')");
      changes.record('event', 7);
      changes.record('venue', 3);
      changes.record('event', 7); // once per item
      return 'done';
    });
    expect(out).toBe('done');
    expect(await writes()).toEqual([{ name: 'uow-a' }]);
    expect(await changeRows()).toEqual([
      { type: 'event', id: 7 },
      { type: 'venue', id: 3 },
    ]);
    expect(await version.current()).not.toBe(before);
  });

  it('a write that names nothing still leaves a change (bulk), so other instances drop their caches', async () => {
    await unitOfWork.run(async (tx) => tx.query("INSERT INTO write_locks (name) VALUES ('uow-b')"));
    expect(await changeRows()).toEqual([{ type: 'bulk', id: 0 }]);
  });

  it('runs a write refused for a concurrency reason again from scratch: nothing of a failed attempt stays', async () => {
    let attempts = 0;
    const seen: number[] = [];
    await unitOfWork.run(async (tx, changes) => {
      attempts += 1;
      seen.push((await tx.query("SELECT COUNT(*) AS n FROM write_locks WHERE name LIKE 'uow-%'"))[0].n as number);
      await tx.query(`INSERT INTO write_locks (name) VALUES ('uow-try-${attempts}')`);
      changes.record('tag', attempts);
      if (attempts < 3) throw busy();
    });
    expect(attempts).toBe(3);
    expect(seen).toEqual([0, 0, 0]); // each attempt starts from the stored state
    expect(await writes()).toEqual([{ name: 'uow-try-3' }]);
    expect(await changeRows()).toEqual([{ type: 'tag', id: 3 }]); // a fresh ChangeSet per attempt
  });

  it(`after ${WRITE_ATTEMPTS} refused attempts answers 503 rest_write_conflict with Retry-After, and wrote nothing`, async () => {
    withoutPauses();
    let attempts = 0;
    const failure = await unitOfWork
      .run(async (tx) => {
        attempts += 1;
        await tx.query(`INSERT INTO write_locks (name) VALUES ('uow-never-${attempts}')`);
        throw busy();
      })
      .catch((err: unknown) => err);
    expect(attempts).toBe(WRITE_ATTEMPTS);
    expect(failure).toBeInstanceOf(WpError);
    expect(failure).toMatchObject({ code: 'rest_write_conflict', status: 503, headers: { 'retry-after': '1' } });
    expect(await writes()).toEqual([]);
    expect(await changeRows()).toEqual([]);
  });

  it('does not retry other failures: they reach the caller at once, rolled back', async () => {
    let attempts = 0;
    const refused = new WpError('rest_invalid_param', 'no', 400);
    await expect(
      unitOfWork.run(async (tx) => {
        attempts += 1;
        await tx.query("INSERT INTO write_locks (name) VALUES ('uow-refused')");
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(attempts).toBe(1);
    expect(await writes()).toEqual([]);
  });

  describe('and the read model', () => {
    beforeEach(() => totals.set('warm', 1));

    it('a committed write empties the caches, even one that needed several attempts', async () => {
      let attempts = 0;
      await unitOfWork.run(async (tx) => {
        attempts += 1;
        await tx.query(`INSERT INTO write_locks (name) VALUES ('uow-cache-${attempts}')`);
        if (attempts < 2) throw busy();
        // Still warm while the write runs: readers see the data as committed before it.
        expect(totals.get('warm')).toBe(1);
      });
      expect(attempts).toBe(2);
      expect(totals.get('warm')).toBeUndefined();
    });

    it('a write that failed leaves the caches as they were (nothing changed)', async () => {
      await expect(
        unitOfWork.run(async () => {
          throw new WpError('rest_invalid_param', 'no', 400);
        }),
      ).rejects.toBeInstanceOf(WpError);
      expect(totals.get('warm')).toBe(1);
    });
  });
  describe('and the participants of every write', () => {
    /** What the participants saw, in order; `refuse` makes the second one throw. */
    const log: string[] = [];
    let refuse = false;
    /** The unit of work with two participants of every write. */
    let unitOfWork: UnitOfWork;
    beforeAll(() => {
      const first: WriteParticipant = {
        beforeCommit: async (tx, changes) => {
          log.push(`first before ${changes.entries().length}`);
          await tx.query("INSERT INTO write_locks (name) VALUES ('uow-participant')");
          changes.record('venue', 9);
        },
        afterCommit: (changes) =>
          void log.push(
            `first after ${changes
              .entries()
              .map((e) => `${e.type}:${e.id}`)
              .join(',')}`,
          ),
      };
      const second: WriteParticipant = {
        beforeCommit: async (_tx, changes: ChangeSet) => {
          log.push(`second before ${changes.entries().length}`);
          if (refuse) throw new WpError('rest_invalid_param', 'refused by a participant', 400);
        },
        afterCommit: () => void log.push('second after'),
      };
      unitOfWork = newUnitOfWork(first, second);
    });
    beforeEach(() => {
      log.length = 0;
      refuse = false;
    });

    it('calls each before the change rows, in the hooks’ order, in the transaction (what it records is logged), then each after the commit', async () => {
      await unitOfWork.run(async (tx, changes) => {
        await tx.query("INSERT INTO write_locks (name) VALUES ('uow-work')");
        changes.record('event', 1);
        log.push('work');
      });
      expect(log).toEqual(['work', 'first before 1', 'second before 2', 'first after event:1,venue:9', 'second after']);
      expect(await writes()).toEqual([{ name: 'uow-participant' }, { name: 'uow-work' }]);
      expect(await changeRows()).toEqual([
        { type: 'event', id: 1 },
        { type: 'venue', id: 9 },
      ]);
    });

    it('a participant that throws refuses the write: nothing is kept, and no one is told of a commit', async () => {
      refuse = true;
      await expect(unitOfWork.run(async (tx) => tx.query("INSERT INTO write_locks (name) VALUES ('uow-work')"))).rejects.toMatchObject({
        message: 'refused by a participant',
      });
      expect(log).toEqual(['first before 1', 'second before 1']);
      expect(await writes()).toEqual([]);
      expect(await changeRows()).toEqual([]);
    });

    it('runs again from scratch with the work when an attempt is refused for a concurrency reason', async () => {
      let attempts = 0;
      await unitOfWork.run(async () => {
        attempts += 1;
        if (attempts < 2) throw busy();
      });
      expect(log).toEqual(['first before 1', 'second before 1', 'first after venue:9', 'second after']);
    });
  });

  describe('runUnlogged (rows no item holds: the webhook subscriptions)', () => {
    beforeEach(() => totals.set('warm', 1));

    it('commits with no change row, leaves the caches and the data version alone, and retries from scratch', async () => {
      const before = await version.current();
      let attempts = 0;
      const seen: number[] = [];
      const out = await unitOfWork.runUnlogged(async (tx) => {
        attempts += 1;
        seen.push((await tx.query("SELECT COUNT(*) AS n FROM write_locks WHERE name LIKE 'uow-%'"))[0].n as number);
        await tx.query(`INSERT INTO write_locks (name) VALUES ('uow-unlogged-${attempts}')`);
        if (attempts < 3) throw busy();
        return 'done';
      });
      expect(out).toBe('done');
      expect(attempts).toBe(3);
      expect(seen).toEqual([0, 0, 0]);
      expect(await writes()).toEqual([{ name: 'uow-unlogged-3' }]);
      expect(await changeRows()).toEqual([]); // run() would have written a bulk change
      expect(totals.get('warm')).toBe(1);
      expect(await version.current()).toBe(before);
    });

    it(`answers 503 rest_write_conflict after ${WRITE_ATTEMPTS} refused attempts, and passes other failures on at once`, async () => {
      withoutPauses();
      let attempts = 0;
      await expect(
        unitOfWork.runUnlogged(async () => {
          attempts += 1;
          throw busy();
        }),
      ).rejects.toMatchObject({ code: 'rest_write_conflict', status: 503 });
      expect(attempts).toBe(WRITE_ATTEMPTS);
      const refused = new WpError('rest_invalid_param', 'no', 400);
      await expect(unitOfWork.runUnlogged(() => Promise.reject(refused))).rejects.toBe(refused);
    });
  });
});
