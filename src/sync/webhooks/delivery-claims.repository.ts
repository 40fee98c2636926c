import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { placeholders } from '../../database/sql';

/** A due delivery as a claim first sees it: which item of which subscription it is about. */
export interface DueDelivery {
  id: string;
  webhookId: number;
  type: string;
  itemId: number;
}

/** A claimed delivery: what sending it needs. */
export interface ClaimedDelivery extends DueDelivery {
  event: string;
  seq: number;
  /** What the enqueueing write stored of the change (the row's `body`: for deletes, which kind). */
  known: string;
  attempts: number;
  nextAttemptUtc: string;
  createdUtc: string;
}

/** A subscription's row as the worker sends to it: its URL and its sealed secret. */
export interface TargetRow {
  id: number;
  url: string;
  secret: string;
}

/**
 * The delivery worker's queries on the outbox (webhook_deliveries) and the subscriptions
 * (webhooks): which deliveries are due, their leases (taken, renewed, let go), their outcomes,
 * and the purge of ended ones. Times are the outbox's (outboxTime: UTC with milliseconds, which
 * sort as text on both engines); `instance` is the worker's own id, the holder of its leases.
 */
@Injectable()
export class DeliveryClaimsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** How many deliveries wait to be sent (the queue depth). */
  async pendingCount(): Promise<number> {
    const [row] = (await this.db.query("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'pending'")) as { n: number | string }[];
    return Number(row?.n ?? 0);
  }

  /**
   * Up to `limit` deliveries due at `now` and free, in seq order, of active subscriptions: of
   * each item whose oldest pending delivery (its head) is due and not leased, every pending one.
   */
  async due(now: string, limit: number): Promise<DueDelivery[]> {
    const rows = (await this.db.query(
      `SELECT d.id, d.webhook_id, d.type, d.item_id FROM webhook_deliveries d
       WHERE d.status = 'pending' AND d.next_attempt_utc <= ? AND (d.lease_until IS NULL OR d.lease_until < ?)
         AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.active = 1)
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries h WHERE h.webhook_id = d.webhook_id AND h.type = d.type AND h.item_id = d.item_id
           AND h.status = 'pending' AND (h.next_attempt_utc > ? OR h.lease_until >= ?)
           AND h.seq = (SELECT MIN(o.seq) FROM webhook_deliveries o WHERE o.webhook_id = d.webhook_id AND o.type = d.type AND o.item_id = d.item_id AND o.status = 'pending'))
       ORDER BY d.seq, d.id LIMIT ${Number(limit)}`,
      [now, now, now, now],
    )) as { id: string; webhook_id: number | string; type: string; item_id: number | string }[];
    return rows.map((r) => ({ id: r.id, webhookId: Number(r.webhook_id), type: r.type, itemId: Number(r.item_id) }));
  }

  /**
   * Leases those of `ids` still pending and free to `instance` until `until` (an UPDATE only
   * one instance can win for a row), and answers the rows this lease got.
   */
  async lease(ids: string[], instance: string, until: string, now: string): Promise<ClaimedDelivery[]> {
    await this.db.query(
      `UPDATE webhook_deliveries SET leased_by = ?, lease_until = ? WHERE id IN (${placeholders(ids)})
       AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)`,
      [instance, until, ...ids, now],
    );
    const rows = (await this.db.query(
      `SELECT id, webhook_id, event, type, item_id, seq, body, attempts, next_attempt_utc, created_utc FROM webhook_deliveries
       WHERE id IN (${placeholders(ids)}) AND leased_by = ? AND lease_until = ?`,
      [...ids, instance, until],
    )) as Record<string, string | number>[];
    return rows.map(claimed);
  }

  /** Extends to `until` the lease of those of `ids` that `instance` still holds and that are still pending. */
  async renew(ids: string[], instance: string, until: string): Promise<void> {
    await this.db.query(`UPDATE webhook_deliveries SET lease_until = ? WHERE id IN (${placeholders(ids)}) AND leased_by = ? AND status = 'pending'`, [
      until,
      ...ids,
      instance,
    ]);
  }

  /** Lets leased deliveries go untried: pending as they were, free for the next round of any instance. */
  async release(ids: string[], instance: string): Promise<void> {
    await this.db.query(`UPDATE webhook_deliveries SET leased_by = NULL, lease_until = NULL WHERE id IN (${placeholders(ids)}) AND leased_by = ?`, [
      ...ids,
      instance,
    ]);
  }

  /** The subscriptions of these ids (a deleted one is absent). */
  async targets(webhookIds: number[]): Promise<TargetRow[]> {
    const rows = (await this.db.query(`SELECT id, url, secret FROM webhooks WHERE id IN (${placeholders(webhookIds)})`, webhookIds)) as {
      id: number | string;
      url: string;
      secret: string;
    }[];
    return rows.map((h) => ({ id: Number(h.id), url: h.url, secret: h.secret }));
  }

  /** Deliveries `instance` sent that got `status` (a 2xx), in one statement: delivered, their lease let go. */
  async markDelivered(ids: string[], status: number | null, instance: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, response_status = ?, last_error = NULL,
       leased_by = NULL, lease_until = NULL WHERE id IN (${placeholders(ids)}) AND leased_by = ?`,
      [status, ...ids, instance],
    );
  }

  /** A failed attempt of `instance`: pending again from `nextAttemptUtc`, or failed for good; its lease let go. */
  async markFailed(
    id: string,
    attempt: { status: 'pending' | 'failed'; attempts: number; nextAttemptUtc: string; responseStatus: number | null; error: string },
    instance: string,
  ): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_utc = ?, response_status = ?, last_error = ?,
       leased_by = NULL, lease_until = NULL WHERE id = ? AND leased_by = ?`,
      [attempt.status, attempt.attempts, attempt.nextAttemptUtc, attempt.responseStatus, attempt.error, id, instance],
    );
  }

  /** Removes the deliveries that ended (delivered or failed) before `before`; the number removed. */
  async purgeEnded(before: string): Promise<number> {
    const removed = (await this.db
      .createQueryBuilder()
      .delete()
      .from('webhook_deliveries')
      .where("status IN ('delivered', 'failed') AND created_utc < :before", { before })
      .execute()) as { affected?: number | null };
    return removed.affected ?? 0;
  }
}

/** An outbox row as the worker holds it. */
function claimed(r: Record<string, string | number>): ClaimedDelivery {
  return {
    id: String(r.id),
    webhookId: Number(r.webhook_id),
    event: String(r.event),
    type: String(r.type),
    itemId: Number(r.item_id),
    seq: Number(r.seq),
    known: String(r.body),
    attempts: Number(r.attempts),
    nextAttemptUtc: String(r.next_attempt_utc),
    createdUtc: String(r.created_utc),
  };
}
