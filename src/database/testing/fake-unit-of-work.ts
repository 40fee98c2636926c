import { ChangeSet } from '../change-log';
import type { UnitOfWork } from '../unit-of-work';

/**
 * A unit of work without a database, for service specs: the work runs once, gets
 * no transaction (the fakes it calls need none) and a fresh change set, which `recorded` keeps,
 * one per run (none: nothing was written). `runUnlogged` runs its work once and records nothing.
 */
export function fakeUnitOfWork(recorded: ChangeSet[] = []): UnitOfWork {
  return {
    run: async <T>(work: (tx: never, changes: ChangeSet) => Promise<T>): Promise<T> => {
      const changes = new ChangeSet();
      recorded.push(changes);
      return work(undefined as never, changes);
    },
    runUnlogged: async <T>(work: (tx: never) => Promise<T>): Promise<T> => work(undefined as never),
  } as unknown as UnitOfWork;
}
