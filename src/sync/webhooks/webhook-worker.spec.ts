import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { ReadModel } from '../../common/cache/read-model';
import type { Metrics } from '../../common/metrics';
import { loadConfig } from '../../config/app-config';
import type { ChangesService } from '../changes.service';
import { WebhookMetrics } from './webhook-metrics';
import type { WebhookOutbox } from './webhook-outbox';
import { WebhookWorker } from './webhook-worker';

const HOUR_MS = 3_600_000;

/**
 * A WebhookWorker on fakes: a database whose count of pending deliveries is `pending` and whose
 * purge removes `purged` rows (noting its cut-off), an outbox that keeps who listens, and the
 * real WebhookMetrics on a registry of its own. The worker is off unless `env` switches it on.
 */
function workerOn({ pending = 4, purged = 3, env = { CALENDAR_WEBHOOK_WORKER: 'off' } as Record<string, string> } = {}) {
  const cutoffs: string[] = [];
  const deleteQuery = {
    delete: () => deleteQuery,
    from: () => deleteQuery,
    where: (_sql: string, { before }: { before: string }) => {
      cutoffs.push(before);
      return deleteQuery;
    },
    execute: async () => ({ affected: purged }),
  };
  const db = { query: jest.fn(async () => [{ n: String(pending) }]), createQueryBuilder: jest.fn(() => deleteQuery) };
  const listeners: (() => void)[] = [];
  const outbox = { onQueued: jest.fn((fn: () => void) => listeners.push(fn)) };
  const registry = new Registry();
  const metrics = new WebhookMetrics({ registry } as Metrics);
  const worker = new WebhookWorker(
    db as unknown as DataSource,
    loadConfig(env),
    outbox as unknown as WebhookOutbox,
    {} as ChangesService,
    metrics,
    {} as ReadModel,
  );
  return { worker, db, outbox, registry, cutoffs };
}

describe('WebhookWorker', () => {
  it('counts the pending deliveries into the queue depth at each scrape, on every instance', async () => {
    const { worker, registry, db } = workerOn({ pending: 4 });
    worker.onApplicationBootstrap();
    expect(db.query).not.toHaveBeenCalled();
    const gauge = await registry.getSingleMetric('calendar_webhook_queue_depth')!.get();
    expect(gauge.values[0].value).toBe(4);
    expect(db.query).toHaveBeenCalledWith(expect.stringContaining("status = 'pending'"));
  });

  it('does not send on an instance whose worker is off (another instance sends)', async () => {
    const { worker, outbox, db } = workerOn();
    worker.onApplicationBootstrap();
    expect(outbox.onQueued).not.toHaveBeenCalled();
    worker.wake();
    await worker.onModuleDestroy();
    expect(db.createQueryBuilder).not.toHaveBeenCalled();
  });

  it('purges the deliveries ended before the retention, at most once an hour', async () => {
    const { worker, cutoffs } = workerOn({ purged: 3 });
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(await worker.purgeWhenDue(now)).toBe(3);
    // CALENDAR_SYNC_RETENTION_DAYS' default, counted back from now.
    const days = loadConfig({}).syncRetentionDays;
    expect(cutoffs).toHaveLength(1);
    expect(Date.parse(`${cutoffs[0].replace(' ', 'T')}Z`)).toBe(now - days * 24 * HOUR_MS);
    expect(await worker.purgeWhenDue(now + HOUR_MS - 1)).toBe(0);
    expect(await worker.purgeWhenDue(now + HOUR_MS)).toBe(3);
    expect(cutoffs).toHaveLength(2);
  });
});
