import type { AppConfig } from '../config/app-config';
import { ChangeSet } from '../database/change-log';
import type { UnitOfWork } from '../database/unit-of-work';
import { HorizonExtender } from './horizon-extender';
import type { SeriesOccurrences } from './series-occurrences';
import type { SeriesRepository } from './series.repository';

// The extender's loop without a database or a timer: a fake repository that lists due series, fake
// occurrences that say how many each unit of work made, and a unit of work that runs the work once.

const TX = Symbol('tx');

function extender(due: number[][], made: Record<number, number[]>, pollSeconds = 0) {
  const batches = [...due];
  const repository = { dueSeriesIds: jest.fn(async (_horizon: string, _limit: number) => batches.shift() ?? []) };
  const left = Object.fromEntries(Object.entries(made).map(([id, counts]) => [id, [...counts]]));
  const occurrences = {
    limits: jest.fn(() => ({ max: 1000, horizon: '2030-01-01 00:00:00' })),
    extend: jest.fn(async (_tx: unknown, _changes: ChangeSet, id: number) => left[id]?.shift() ?? 0),
  };
  const unitOfWork = { run: jest.fn(async (work: (tx: unknown, changes: ChangeSet) => Promise<unknown>) => work(TX, new ChangeSet())) };
  const config = { recurrencePollSeconds: pollSeconds } as AppConfig;
  const ext = new HorizonExtender(
    repository as unknown as SeriesRepository,
    occurrences as unknown as SeriesOccurrences,
    unitOfWork as unknown as UnitOfWork,
    config,
  );
  return { ext, repository, occurrences, unitOfWork };
}

describe('HorizonExtender', () => {
  it('extends every due series in a unit of work of its own and answers how many occurrences it made', async () => {
    // Series 1 makes 3 and is due again (it may have more); 2 makes none and is not asked again.
    const { ext, repository, occurrences, unitOfWork } = extender(
      [
        [1, 2],
        [1, 2],
        [1, 2],
      ],
      { 1: [3, 0], 2: [0] },
    );
    expect(await ext.tick()).toBe(3);
    expect(repository.dueSeriesIds).toHaveBeenCalledWith('2030-01-01 00:00:00', 100);
    expect(occurrences.extend.mock.calls.map(([tx, , id]) => [tx, id])).toEqual([
      [TX, 1],
      [TX, 2],
      [TX, 1],
    ]);
    expect(unitOfWork.run).toHaveBeenCalledTimes(3);
  });

  it('stops when no series is due', async () => {
    const { ext, occurrences } = extender([[]], {});
    expect(await ext.tick()).toBe(0);
    expect(occurrences.extend).not.toHaveBeenCalled();
  });

  it('runs one tick at a time: a second waits for the first', async () => {
    const { ext, occurrences } = extender([[7], [], [7], []], { 7: [2, 0, 0] });
    const [a, b] = await Promise.all([ext.tick(), ext.tick()]);
    expect(a + b).toBe(2);
    expect(occurrences.extend.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('logs a failed run at start instead of failing the application, and sets no timer when polling is off', async () => {
    const { ext, unitOfWork } = extender([[5]], {});
    unitOfWork.run.mockRejectedValueOnce(new Error('database gone'));
    const error = jest.spyOn((ext as unknown as { logger: { error: (m: string) => void } }).logger, 'error').mockImplementation(() => undefined);
    await expect(ext.onApplicationBootstrap()).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledWith('extending series failed: database gone');
    await ext.onModuleDestroy();
  });
});
