import { Registry } from 'prom-client';
import { Logger } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import type { Metrics } from '../common/metrics';
import { loadConfig } from '../config/app-config';
import { fakeUnitOfWork } from '../database/testing/fake-unit-of-work';
import { SourceEntity, SourceRunEntity } from './source.entity';
import type { RunOutcome, SourceRunner } from './source-runner';
import type { SourceRunsRepository } from './source-runs.repository';
import type { SourcesRepository } from './sources.repository';
import type { SourcesService } from './sources.service';
import { SourceWorker } from './source-worker';

const source = (fields: Partial<SourceEntity> = {}): SourceEntity =>
  Object.assign(new SourceEntity(), { id: 7, kind: 'ics', enabled: true, intervalMinutes: 60, failures: 0, currentRunId: 30, lastRunId: null }, fields);
const run = (fields: Partial<SourceRunEntity> = {}): SourceRunEntity =>
  Object.assign(
    new SourceRunEntity(),
    {
      id: 30,
      sourceId: 7,
      status: 'queued',
      startedUtc: null,
      leasedBy: null,
      created: 0,
      updated: 0,
      unchanged: 0,
      keptLocal: 0,
      trashed: 0,
      failed: 0,
    },
    fields,
  );
const outcome = (fields: Partial<RunOutcome> = {}): RunOutcome => ({
  status: 'succeeded',
  counts: { created: 2, updated: 1, unchanged: 0, kept_local: 0, failed: 0, trashed: 0 },
  errors: [],
  ...fields,
});

/**
 * A SourceWorker on fakes: a sources table of `stored`, runs that `takeable` offers and that
 * `lease` grants when `leased`, a runner that answers `answer`, and a unit of work that runs
 * the work once. `updates` keeps what was written to the run; `released` what ended the source's run.
 */
function workerOn({ stored = [source()], offered = [run()], leased = true, answer = outcome() } = {}) {
  const updates: Partial<SourceRunEntity>[] = [];
  const released: Partial<SourceEntity>[] = [];
  const sources = {
    find: jest.fn(async (id: number) => stored.find((s) => s.id === id) ?? null),
    release: jest.fn(async (_tx: unknown, _id: number, _runId: number, changes: Partial<SourceEntity>) => void released.push(changes)),
    lastSuccesses: jest.fn(async () => []),
  };
  const runs = {
    takeable: jest.fn(async () => offered),
    lease: jest.fn(async () => leased),
    updateLeased: jest.fn(async (_id: number, _by: string, changes: Partial<SourceRunEntity>) => {
      updates.push(changes);
      return true;
    }),
    remove: jest.fn(async () => undefined),
  };
  const runner = { run: jest.fn(async () => answer) };
  const worker = new SourceWorker(
    sources as unknown as SourcesRepository,
    runs as unknown as SourceRunsRepository,
    loadConfig({}),
    {} as SourcesService,
    runner as unknown as SourceRunner,
    { registry: new Registry() } as Metrics,
    {} as HttpAdapterHost,
    fakeUnitOfWork(),
  );
  return { worker, sources, runs, runner, updates, released };
}

describe('SourceWorker', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('runs a run it leases, records its counts and ends it on the source with the next run due', async () => {
    const { worker, runs, runner, updates, released } = workerOn();
    const done = await worker.runHere(30, { write: () => undefined });
    expect(done?.status).toBe('succeeded');
    expect(runs.takeable).toHaveBeenCalledWith(expect.any(Number), 30);
    expect(runner.run).toHaveBeenCalledTimes(1);
    expect(updates.at(-1)).toMatchObject({ status: 'succeeded', created: 2, updated: 1, leasedBy: null, leaseUntil: null });
    expect(released).toHaveLength(1);
    expect(released[0]).toMatchObject({ lastRunId: 30, failures: 0 });
    expect(released[0].nextRunUtc).toEqual(expect.any(String));
    expect(released[0].lastSuccessUtc).toEqual(expect.any(String));
  });

  it('counts a failed run on the source and keeps its last success', async () => {
    const { worker, released } = workerOn({ stored: [source({ failures: 2 })], answer: outcome({ status: 'failed' }) });
    await worker.runHere(30, { write: () => undefined });
    expect(released[0]).toMatchObject({ failures: 3 });
    expect(released[0]).not.toHaveProperty('lastSuccessUtc');
  });

  it('runs nothing when another instance holds the run', async () => {
    const { worker, runner } = workerOn({ leased: false });
    expect(await worker.runHere(30, { write: () => undefined })).toBeNull();
    expect(runner.run).not.toHaveBeenCalled();
  });

  it('removes a run whose source is gone', async () => {
    const { worker, runs, runner } = workerOn({ stored: [] });
    expect(await worker.runHere(30, { write: () => undefined })).toBeNull();
    expect(runs.remove).toHaveBeenCalledWith(30);
    expect(runner.run).not.toHaveBeenCalled();
  });

  it('fails the run, said, when the runner throws (a fault of the service)', async () => {
    const { worker, runner, updates } = workerOn();
    runner.run.mockRejectedValueOnce(new Error('boom'));
    const done = await worker.runHere(30, { write: () => undefined });
    expect(done).toMatchObject({ status: 'failed', errors: [{ record: 'source 7', message: 'internal error: boom' }] });
    expect(updates.at(-1)).toMatchObject({ status: 'failed' });
  });
});
