import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { outsideRequestLinks } from '../../common/http/api-links';
import { openSecret, SecretUnreadable } from '../../common/crypto/secret-box';
import { AppConfig } from '../../config/app-config';
import { DeliveryBodies } from './delivery-bodies';
import { type ClaimedDelivery, DeliveryClaimsRepository, type DueDelivery, type TargetRow } from './delivery-claims.repository';
import { PostChain, postChain, PostResult } from './delivery-post';
import { PostThread } from './post-thread';
import { WebhookMetrics } from './webhook-metrics';
import { outboxTime, WebhookOutbox } from './webhook-outbox';
import { retryDelayMs } from './webhook-signature';

/** How often the worker looks for due deliveries when nothing wakes it. */
const POLL_MS = 500;
/**
 * How long after a commit that queued deliveries the worker starts its round: the commits of
 * that time share one round (one claim, one read of the items, one outcome statement), instead
 * of costing a round each while writes come in quickly.
 */
const GATHER_MS = 25;
/** Deliveries claimed (and sent in parallel) per round. */
const BATCH = 100;
/** How often an instance removes the deliveries past the retention. */
const PURGE_EVERY_MS = 60 * 60 * 1000;
/** sync.md: any 2xx within 10 s is success. */
const TIMEOUT_MS = 10_000;
/** How many times per lease the deliveries being sent have it renewed: a lease outlives two missed renewals. */
const RENEWALS_PER_LEASE = 3;

type Outcome = 'delivered' | 'retry' | 'failed';

/** A subscription's target: its URL, and its secret or why it cannot be read. */
interface Target {
  url: string;
  secret?: string;
  unreadable?: string;
}

/** What an attempt got: the receiver's status (null when none answered) and the error, if it failed. */
interface Attempt {
  delivery: ClaimedDelivery;
  status: number | null;
  error: string | null;
}

/**
 * Sends the outbox (sync.md "Webhooks"). Every POLL_MS, and GATHER_MS after a local commit
 * that queued deliveries, it claims due ones with a lease (an UPDATE that only succeeds on rows
 * nobody else holds, so each delivery is sent by one instance at a time), renews that lease
 * while it sends them (RENEWALS_PER_LEASE times a lease, however long the receivers take: a dead
 * instance's short lease runs out within seconds and another, or the restarted one, takes the
 * delivery up, while a live one keeps what it is sending), sends them, and
 * records the outcomes. One item's deliveries to one subscription go out in seq order: a round
 * claims an item's pending deliveries only from its oldest on (none older is waiting for a
 * retry or held by another instance), sends them one after another, and stops at the first
 * that fails; different items go in parallel. So an item that changes with every write (a
 * category whose count moves) is sent as fast as it changes, not one delivery per round.
 *
 * A round's work is per round, not per delivery, where it can be: the subscriptions' targets,
 * the items' current state (one batch per kind, as the change feed reads them: DeliveryBodies)
 * and the successful outcomes are each one statement (DeliveryClaimsRepository). On SQLite the
 * worker shares the one connection with the writes, so every statement it saves is one the
 * writes do not wait for. The POSTs and their signatures go to a thread of their own when the
 * service runs built (PostThread).
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly instance = randomUUID();
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private gathering: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private purgedAt = 0;
  private stopped = false;
  /** The thread that signs and POSTs (the built service); null: on this thread (from the sources, as in the tests). */
  private poster: PostThread | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly outbox: WebhookOutbox,
    private readonly deliveries: DeliveryClaimsRepository,
    private readonly bodies: DeliveryBodies,
    private readonly metrics: WebhookMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.countQueue(() => this.deliveries.pendingCount());
    // CALENDAR_WEBHOOK_WORKER=off: another instance sends what this one's writes queue.
    if (!this.config.webhookWorker) return;
    if (PostThread.available()) this.poster = new PostThread(this.logger);
    this.outbox.onQueued(() => this.soon());
    this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.gathering) clearTimeout(this.gathering);
    await this.running;
    await this.poster?.close();
  }

  /** Runs a round now (or right after the current one); nothing on an instance that does not send. */
  wake(): void {
    if (this.stopped || !this.config.webhookWorker) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // Outside any request's links: a delivery names items in our namespace, whichever path the write came by.
    this.running = outsideRequestLinks(() => this.round()).finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Runs a round GATHER_MS from now, with whatever else is queued by then. */
  private soon(): void {
    if (this.stopped || this.gathering) return;
    this.gathering = setTimeout(() => {
      this.gathering = null;
      this.wake();
    }, GATHER_MS);
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
      await this.purgeWhenDue();
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      const held = this.keepLeased(claimed.map((d) => d.id));
      try {
        await this.deliver(claimed);
      } finally {
        await held.stop();
      }
      if (claimed.length === BATCH) this.again = true;
    } catch (err) {
      if (!this.stopped) this.logger.error(`webhook round failed: ${(err as Error).message}`);
    }
  }

  /**
   * Leases up to BATCH due deliveries for this instance and returns those it got, in seq order:
   * of each item whose oldest pending delivery (its head) is due and free, its first pending
   * deliveries. Only the head can wait for a retry or be held by another instance: a later one
   * is tried only after every older one was delivered (deliver() stops an item at its first
   * failure), and leases are taken on such first deliveries. An item whose deliveries were not
   * all leased here (another instance took the head in between) is let go whole: had this lease
   * got the head, nobody else held an older one.
   */
  private async claim(): Promise<ClaimedDelivery[]> {
    const now = outboxTime();
    const due = await this.deliveries.due(now, BATCH);
    if (due.length === 0) return [];
    const ids = due.map((r) => r.id);
    const until = outboxTime(new Date(Date.now() + this.config.webhookLeaseSeconds * 1000));
    const leased = await this.deliveries.lease(ids, this.instance, until, now);
    const wanted = new Map<string, number>();
    for (const r of due) wanted.set(itemKey(r), (wanted.get(itemKey(r)) ?? 0) + 1);
    const out: ClaimedDelivery[] = [];
    const letGo: string[] = [];
    for (const [key, chain] of byItem(leased)) {
      if (wanted.get(key) === chain.length) out.push(...chain);
      else letGo.push(...chain.map((d) => d.id));
    }
    if (letGo.length > 0) await this.release(letGo);
    return out;
  }

  /**
   * Removes the deliveries that ended (delivered or failed) more than CALENDAR_SYNC_RETENTION_DAYS
   * ago, as the change feed removes its tombstones: without it the outbox would keep a row for
   * every change and subscription for ever. At most once per PURGE_EVERY_MS per instance (any
   * instance may do it). Returns the number removed.
   */
  async purgeWhenDue(now = Date.now()): Promise<number> {
    if (now - this.purgedAt < PURGE_EVERY_MS) return 0;
    this.purgedAt = now;
    const before = outboxTime(new Date(now - this.config.syncRetentionDays * 24 * 3600 * 1000));
    return this.deliveries.purgeEnded(before);
  }

  /**
   * Renews the lease of the deliveries being sent every 1/RENEWALS_PER_LEASE of a lease until
   * stop(): only rows this instance still holds and that are still pending, so a renewal that
   * lands after an outcome was recorded (the lease let go) changes nothing. A renewal that could
   * not be made before the lease ran out (the database or this process stalled for a lease) is
   * logged: another instance may then have taken those deliveries and send them again, as
   * at-least-once allows.
   */
  private keepLeased(ids: string[]): { stop: () => Promise<void> } {
    const leaseMs = this.config.webhookLeaseSeconds * 1000;
    let heldUntil = Date.now() + leaseMs;
    let renewing: Promise<void> | null = null;
    const renew = async () => {
      const now = Date.now();
      if (now > heldUntil) this.logger.warn(`the lease of ${ids.length} deliveries ran out before it was renewed; another instance may send them again`);
      const until = now + leaseMs;
      try {
        await this.deliveries.renew(ids, this.instance, outboxTime(new Date(until)));
        heldUntil = until;
      } catch (err) {
        if (!this.stopped) this.logger.error(`renewing the lease of ${ids.length} deliveries failed: ${(err as Error).message}`);
      }
    };
    const timer = setInterval(() => {
      // One renewal at a time: while one waits for the database, the next tick is skipped.
      renewing ??= renew().finally(() => (renewing = null));
    }, leaseMs / RENEWALS_PER_LEASE);
    timer.unref();
    return {
      stop: async () => {
        clearInterval(timer);
        await renewing;
      },
    };
  }

  /** Lets leased deliveries go untried: pending as they were, for the next round of any instance. */
  private async release(ids: string[]): Promise<void> {
    await this.deliveries.release(ids, this.instance);
  }

  /**
   * Sends the claimed deliveries and records what each got: each item's one after another in
   * seq order, the items in parallel. After a failure the item's later deliveries wait (let go
   * untried) until the failed one has been retried.
   */
  private async deliver(claimed: ClaimedDelivery[]): Promise<void> {
    const hookIds = [...new Set(claimed.map((d) => d.webhookId))];
    const hooks = new Map((await this.deliveries.targets(hookIds)).map((h) => [h.id, this.target(h)]));
    // Deliveries of a subscription deleted meanwhile go with it.
    const sendable = claimed.filter((d) => hooks.has(d.webhookId));
    const bodies = await this.bodies.of(sendable);
    const chains = byItem(sendable);
    const attempts: Attempt[] = [];
    const waiting: string[] = [];
    await Promise.all(
      [...chains.values()].map(async (chain) => {
        const results = await this.send(chain, hooks.get(chain[0].webhookId)!, bodies);
        results.forEach((result, i) => attempts.push({ delivery: chain[i], ...result }));
        waiting.push(...chain.slice(results.length).map((later) => later.id));
      }),
    );
    await this.record(attempts);
    if (waiting.length > 0) await this.release(waiting);
  }

  /** Where a subscription's deliveries go, and its secret; or why the secret cannot be read here. */
  private target(h: TargetRow): Target {
    try {
      return { url: h.url, secret: openSecret(h.secret, this.config.webhookKey) };
    } catch (err) {
      if (!(err instanceof SecretUnreadable)) throw err;
      // Once per subscription and round, not once per delivery.
      this.logger.error(`webhook ${h.id}: ${err.message}`);
      return { url: h.url, unreadable: err.message };
    }
  }

  /**
   * Sends one item's deliveries to one subscription (a chain, in seq order) one after another
   * until one fails (postChain): the attempts made, at least one.
   */
  private async send(chain: ClaimedDelivery[], hook: Target, bodies: Map<string, Uint8Array>): Promise<PostResult[]> {
    // Not sent unsigned: the attempt fails (and is retried) until the key is configured again.
    if (hook.secret === undefined) return [{ status: null, error: hook.unreadable ?? 'no secret' }];
    const job: PostChain = {
      target: { url: hook.url, secret: hook.secret, allowPrivate: this.config.webhookAllowPrivate, timeoutMs: TIMEOUT_MS },
      items: chain.map((d) => ({ body: bodies.get(d.id)!, event: d.event, deliveryId: d.id })),
    };
    return this.poster ? this.poster.post(job) : postChain(job);
  }

  /**
   * The outcomes: the successful ones in one statement per response status (mostly one), the
   * others (retry with backoff, or failed after the last attempt) one by one.
   */
  private async record(attempts: Attempt[]): Promise<void> {
    const delivered = new Map<number | null, string[]>();
    for (const { delivery: d, status, error } of attempts) {
      if (error !== null) continue;
      const ids = delivered.get(status);
      if (ids) ids.push(d.id);
      else delivered.set(status, [d.id]);
    }
    for (const [status, ids] of delivered) {
      await this.deliveries.markDelivered(ids, status, this.instance);
      this.metrics.deliveries.inc({ outcome: 'delivered' }, ids.length);
    }
    for (const { delivery: d, status, error } of attempts) {
      if (error === null) continue;
      const tries = d.attempts + 1;
      const outcome: Outcome = tries >= this.config.webhookMaxAttempts ? 'failed' : 'retry';
      const next = outcome === 'retry' ? outboxTime(new Date(Date.now() + retryDelayMs(tries, this.config.webhookRetryBaseSeconds))) : d.nextAttemptUtc;
      await this.deliveries.markFailed(
        d.id,
        { status: outcome === 'retry' ? 'pending' : 'failed', attempts: tries, nextAttemptUtc: next, responseStatus: status, error },
        this.instance,
      );
      this.metrics.deliveries.inc({ outcome });
    }
  }
}

/** The item a delivery is about, for one subscription: `webhook:type:id`. */
function itemKey(d: DueDelivery): string {
  return `${d.webhookId}:${d.type}:${d.itemId}`;
}

/** Deliveries by item (itemKey), each item's in seq order. */
function byItem(deliveries: ClaimedDelivery[]): Map<string, ClaimedDelivery[]> {
  const chains = new Map<string, ClaimedDelivery[]>();
  for (const d of [...deliveries].sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : 1))) {
    const key = itemKey(d);
    const chain = chains.get(key);
    if (chain) chain.push(d);
    else chains.set(key, [d]);
  }
  return chains;
}
