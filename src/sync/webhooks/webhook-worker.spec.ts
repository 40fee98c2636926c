import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Registry } from 'prom-client';
import { sealSecret } from '../../common/crypto/secret-box';
import type { Metrics } from '../../common/metrics';
import { AppConfig, loadConfig } from '../../config/app-config';
import { newTestService } from '../../../test/support/new-test-service';
import { DeliveryBodies } from './delivery-bodies';
import { type ClaimedDelivery, DeliveryClaimsRepository, type DueDelivery } from './delivery-claims.repository';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookOutbox } from './webhook-outbox';
import { WebhookWorker } from './webhook-worker';

const HOUR_MS = 3_600_000;

/**
 * A WebhookWorker on fakes: the outbox's queries (DeliveryClaimsRepository, every method a
 * jest.fn), bodies that need no read, an outbox that keeps who listens, and the real
 * WebhookMetrics on a registry of its own. The worker is off unless `env` switches it on.
 */
function workerOn({ pending = 4, purged = 3, env = { CALENDAR_WEBHOOK_WORKER: 'off' } as Record<string, string> } = {}) {
  const registry = new Registry();
  const { sut: worker, mocks } = newTestService(WebhookWorker, [
    { provide: AppConfig, useValue: loadConfig(env) },
    { provide: WebhookMetrics, useValue: new WebhookMetrics({ registry } as Metrics) },
  ]);
  const deliveries = mocks.get(DeliveryClaimsRepository);
  deliveries.pendingCount.mockResolvedValue(pending);
  deliveries.purgeEnded.mockResolvedValue(purged);
  mocks.get(DeliveryBodies).of.mockImplementation(async (claimed) => new Map(claimed.map((d) => [d.id, new Uint8Array()])));
  return { worker, deliveries, outbox: mocks.get(WebhookOutbox), registry };
}

/** A claimed delivery of item `event:itemId` for subscription 1. */
const delivery = (id: string, seq: number, itemId = 10): ClaimedDelivery => ({
  id,
  webhookId: 1,
  type: 'event',
  itemId,
  event: 'event.updated',
  seq,
  known: '{}',
  attempts: 0,
  nextAttemptUtc: '2026-01-01 00:00:00.000',
  createdUtc: '2026-01-01 00:00:00.000',
});
const due = ({ id, webhookId, type, itemId }: ClaimedDelivery): DueDelivery => ({ id, webhookId, type, itemId });

/** Runs one round of a worker that sends, and waits for it. */
async function round(worker: WebhookWorker): Promise<void> {
  worker.wake();
  await worker.onModuleDestroy();
}

describe('WebhookWorker', () => {
  // An unreadable secret is logged once per subscription and round: not this spec's output.
  beforeEach(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('counts the pending deliveries into the queue depth at each scrape, on every instance', async () => {
    const { worker, registry, deliveries } = workerOn({ pending: 4 });
    worker.onApplicationBootstrap();
    expect(deliveries.pendingCount).not.toHaveBeenCalled();
    const gauge = await registry.getSingleMetric('calendar_webhook_queue_depth')!.get();
    expect(gauge.values[0].value).toBe(4);
    expect(deliveries.pendingCount).toHaveBeenCalledTimes(1);
  });

  it('does not send on an instance whose worker is off (another instance sends)', async () => {
    const { worker, outbox, deliveries } = workerOn();
    worker.onApplicationBootstrap();
    expect(outbox.onQueued).not.toHaveBeenCalled();
    worker.wake();
    await worker.onModuleDestroy();
    expect(deliveries.purgeEnded).not.toHaveBeenCalled();
    expect(deliveries.due).not.toHaveBeenCalled();
  });

  it('purges the deliveries ended before the retention, at most once an hour', async () => {
    const { worker, deliveries } = workerOn({ purged: 3 });
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(await worker.purgeWhenDue(now)).toBe(3);
    // CALENDAR_SYNC_RETENTION_DAYS' default, counted back from now.
    const days = loadConfig({}).syncRetentionDays;
    expect(deliveries.purgeEnded).toHaveBeenCalledTimes(1);
    const cutoff = deliveries.purgeEnded.mock.calls[0][0];
    expect(Date.parse(`${cutoff.replace(' ', 'T')}Z`)).toBe(now - days * 24 * HOUR_MS);
    expect(await worker.purgeWhenDue(now + HOUR_MS - 1)).toBe(0);
    expect(await worker.purgeWhenDue(now + HOUR_MS)).toBe(3);
    expect(deliveries.purgeEnded).toHaveBeenCalledTimes(2);
  });

  it('lets an item go whole when its lease got only some of its deliveries (another instance took the head)', async () => {
    const { worker, deliveries } = workerOn({ env: { CALENDAR_WEBHOOK_WORKER: 'on' } });
    const [a, b] = [delivery('a', 1), delivery('b', 2)];
    deliveries.due.mockResolvedValue([due(a), due(b)]);
    deliveries.lease.mockResolvedValue([b]);
    await round(worker);
    expect(deliveries.lease).toHaveBeenCalledWith(['a', 'b'], expect.any(String), expect.any(String), expect.any(String));
    const instance = deliveries.lease.mock.calls[0][1];
    expect(deliveries.release).toHaveBeenCalledWith(['b'], instance);
    expect(deliveries.targets).not.toHaveBeenCalled();
    expect(deliveries.markFailed).not.toHaveBeenCalled();
  });

  it('retries with backoff a delivery whose secret this instance cannot read, and lets the later ones of its item wait', async () => {
    const { worker, deliveries } = workerOn({ env: { CALENDAR_WEBHOOK_WORKER: 'on' } });
    const [a, b] = [delivery('a', 1), delivery('b', 2)];
    deliveries.due.mockResolvedValue([due(a), due(b)]);
    deliveries.lease.mockResolvedValue([b, a]);
    // Sealed with a key this instance is not configured with.
    deliveries.targets.mockResolvedValue([{ id: 1, url: 'http://127.0.0.1:9/hook', secret: sealSecret('s', randomBytes(32)) }]);
    const before = Date.now();
    await round(worker);
    const instance = deliveries.lease.mock.calls[0][1];
    expect(deliveries.markDelivered).not.toHaveBeenCalled();
    expect(deliveries.markFailed).toHaveBeenCalledTimes(1);
    const [id, attempt, by] = deliveries.markFailed.mock.calls[0];
    expect({ id, by }).toEqual({ id: 'a', by: instance });
    expect(attempt).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null, error: expect.stringContaining('CALENDAR_WEBHOOK_KEY') });
    expect(Date.parse(`${attempt.nextAttemptUtc.replace(' ', 'T')}Z`)).toBeGreaterThan(before);
    expect(deliveries.release).toHaveBeenCalledWith(['b'], instance);
  });

  it('fails a delivery for good at its last attempt, keeping its due time', async () => {
    const { worker, deliveries } = workerOn({ env: { CALENDAR_WEBHOOK_WORKER: 'on', CALENDAR_WEBHOOK_MAX_ATTEMPTS: '3' } });
    const last = { ...delivery('a', 1), attempts: 2 };
    deliveries.due.mockResolvedValue([due(last)]);
    deliveries.lease.mockResolvedValue([last]);
    deliveries.targets.mockResolvedValue([{ id: 1, url: 'http://127.0.0.1:9/hook', secret: sealSecret('s', randomBytes(32)) }]);
    await round(worker);
    expect(deliveries.markFailed.mock.calls[0][1]).toMatchObject({ status: 'failed', attempts: 3, nextAttemptUtc: last.nextAttemptUtc });
  });
});
