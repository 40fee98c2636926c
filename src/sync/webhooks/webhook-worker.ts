import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { version } from '../../../package.json';
import { currentLinks } from '../../common/http/api-links';
import { Metrics } from '../../common/metrics';
import { outboundPost } from '../../common/net/outbound';
import { AppConfig } from '../../config/app-config';
import { outboxTime, WebhookOutbox } from '../../database/webhook-outbox';
import { ChangesService, SYNC_TYPES, SyncType } from '../changes.service';
import { encodeSyncToken } from '../sync-token';
import { WebhookDeliveryEntity } from './webhook.entity';
import { retryDelayMs, signDelivery } from './webhook-signature';

/** How often the worker looks for due deliveries when nothing wakes it. */
const POLL_MS = 500;
/** Deliveries claimed (and sent in parallel) per round. */
const BATCH = 20;
/** sync.md: any 2xx within 10 s is success. */
const TIMEOUT_MS = 10_000;

type Outcome = 'delivered' | 'retry' | 'failed';

/**
 * Sends the outbox (sync.md "Webhooks"). Every POLL_MS, and right after a local commit that
 * queued deliveries, it claims due ones with a lease (an UPDATE that only succeeds on rows
 * nobody else holds, so each delivery is sent by one instance at a time; a dead instance's
 * lease runs out and another, or the restarted one, takes the delivery up), sends them, and
 * records the outcome. A delivery is claimed only when no older delivery of the same item to
 * the same subscription is still pending, so one item's deliveries go out in seq order.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly instance = randomUUID();
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: WebhookOutbox,
    private readonly changes: ChangesService,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.outbox.onQueued(() => this.wake());
    this.metrics.countWebhookQueue(async () => {
      const [row] = (await this.db.query("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'")) as { n: number | string }[];
      return Number(row?.n ?? 0);
    });
    this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Runs a round now (or right after the current one). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.wake();
      this.schedule();
    }, POLL_MS);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      const claimed = await this.claim();
      await Promise.all(claimed.map((d) => this.deliver(d)));
      if (claimed.length === BATCH) this.again = true;
    } catch (err) {
      if (!this.stopped) this.logger.error(`webhook round failed: ${(err as Error).message}`);
    }
  }

  /** Leases up to BATCH due deliveries for this instance and returns those it got. */
  private async claim(): Promise<WebhookDeliveryEntity[]> {
    const now = outboxTime();
    const due = (await this.db.query(
      `SELECT d.id FROM webhook_deliveries d
       WHERE d.status = 'pending' AND d.next_attempt_utc <= ? AND (d.lease_until IS NULL OR d.lease_until < ?)
         AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.active = 1)
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.webhook_id = d.webhook_id AND o.type = d.type
                         AND o.item_id = d.item_id AND o.status = 'pending' AND o.seq < d.seq)
       ORDER BY d.next_attempt_utc, d.seq, d.id LIMIT ${BATCH}`,
      [now, now],
    )) as { id: string }[];
    if (due.length === 0) return [];
    const ids = due.map((r) => r.id);
    const until = outboxTime(new Date(Date.now() + this.config.webhookLeaseSeconds * 1000));
    await this.db.query(
      `UPDATE webhook_deliveries SET leased_by = ?, lease_until = ? WHERE id IN (${ids.map(() => '?').join(', ')})
       AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)`,
      [this.instance, until, ...ids, now],
    );
    return this.db.getRepository(WebhookDeliveryEntity).find({ where: ids.map((id) => ({ id, leasedBy: this.instance, leaseUntil: until })) });
  }

  private async deliver(d: WebhookDeliveryEntity): Promise<void> {
    const hook = (await this.db.query('SELECT url, secret FROM webhooks WHERE id = ?', [d.webhookId])) as { url: string; secret: string }[];
    if (hook.length === 0) return; // deleted meanwhile: its deliveries go with it
    const body = await this.body(d);
    const timestamp = Math.floor(Date.now() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      ({ status } = await outboundPost(
        hook[0].url,
        body,
        {
          'content-type': 'application/json',
          'user-agent': `calendar-events/${version}`,
          'x-calendar-event': d.event,
          'x-calendar-delivery': d.id,
          'x-calendar-timestamp': String(timestamp),
          'x-calendar-signature': signDelivery(hook[0].secret, timestamp, body),
        },
        { allowPrivate: this.config.webhookAllowPrivate, signal: AbortSignal.timeout(TIMEOUT_MS) },
      ));
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (err) {
      error = ((err as Error).message || String(err)).slice(0, 500);
    }
    await this.record(d, status, error);
  }

  /** The delivery's JSON (sync.md), built now so that `data.item` is the item's current public state. */
  private async body(d: WebhookDeliveryEntity): Promise<string> {
    const created = d.createdUtc.slice(0, 19);
    if (d.type === 'ping') return JSON.stringify({ id: d.id, event: 'ping', created_utc: created, data: { webhook_id: d.webhookId } });
    const type = d.type as SyncType;
    const known = parseKnown(d.body);
    const data: Record<string, unknown> = { type, id: d.itemId, rest_url: currentLinks(this.config.baseUrl).href(`/${SYNC_TYPES[type]}/${d.itemId}`) };
    if (known.deleted) data.deleted = known.deleted;
    else {
      const item = await this.changes.item(null, { type, id: d.itemId });
      if (item !== undefined) data.item = item;
    }
    return JSON.stringify({ id: d.id, event: d.event, created_utc: created, sync_token: encodeSyncToken(Number(d.seq)), data });
  }

  private async record(d: WebhookDeliveryEntity, status: number | null, error: string | null): Promise<void> {
    const attempts = d.attempts + 1;
    const outcome: Outcome = error === null ? 'delivered' : attempts >= this.config.webhookMaxAttempts ? 'failed' : 'retry';
    const next = outcome === 'retry' ? outboxTime(new Date(Date.now() + retryDelayMs(attempts, this.config.webhookRetryBaseSeconds))) : d.nextAttemptUtc;
    await this.db.query(
      `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_utc = ?, response_status = ?, last_error = ?,
       leased_by = NULL, lease_until = NULL WHERE id = ? AND leased_by = ?`,
      [outcome === 'retry' ? 'pending' : outcome, attempts, next, status, error, d.id, this.instance],
    );
    this.metrics.webhookDeliveries.inc({ outcome });
  }
}

/** What the enqueueing write stored: for deletes, which kind. */
function parseKnown(text: string): { deleted?: string } {
  try {
    const value = JSON.parse(text) as { deleted?: unknown };
    return typeof value.deleted === 'string' ? { deleted: value.deleted } : {};
  } catch {
    return {};
  }
}
