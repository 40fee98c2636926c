import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity';

/** Rows per INSERT of insertDeliveries (10 placeholders each; MySQL takes at most 65,535 in one statement). */
const CHUNK = 500;

/** A delivery row as the outbox queues it, in the column order of insertDeliveries. */
export type QueuedDelivery = [
  id: string,
  webhookId: number,
  event: string,
  type: string,
  itemId: number,
  seq: number,
  body: string,
  status: string,
  nextAttemptUtc: string,
  createdUtc: string,
];

/**
 * The subscriptions (`webhooks`), the deliveries the outbox and `ping` queue
 * (`webhook_deliveries`) with the log the API shows of them, and the subscriptions' version
 * (a row of `change_counter`, which the outbox follows).
 */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private get hooks() {
    return this.db.getRepository(WebhookEntity);
  }

  all(): Promise<WebhookEntity[]> {
    return this.hooks.find({ order: { id: 'ASC' } });
  }

  find(id: number): Promise<WebhookEntity | null> {
    return this.hooks.findOneBy({ id });
  }

  insert(tx: EntityManager, values: Omit<WebhookEntity, 'id'>): Promise<WebhookEntity> {
    return tx.save(tx.create(WebhookEntity, values));
  }

  async save(tx: EntityManager, row: WebhookEntity): Promise<void> {
    await tx.save(row);
  }

  /** The subscription and its deliveries. */
  async remove(tx: EntityManager, id: number): Promise<void> {
    await tx.delete(WebhookDeliveryEntity, { webhookId: id });
    await tx.delete(WebhookEntity, { id });
  }

  /** Every subscription's id and stored secret. */
  async secrets(): Promise<{ id: number; secret: string }[]> {
    const rows = (await this.db.query('SELECT id, secret FROM webhooks')) as { id: number | string; secret: string }[];
    return rows.map((r) => ({ id: Number(r.id), secret: r.secret }));
  }

  /** Stores `sealed` as the secret while the row still holds `secret`; answers how many rows changed (0 or 1). */
  async replaceSecret(id: number, secret: string, sealed: string): Promise<number> {
    const done = await this.hooks.createQueryBuilder().update().set({ secret: sealed }).where('id = :id AND secret = :secret', { id, secret }).execute();
    return done.affected ?? 0;
  }

  /** The active subscriptions' ids and stored pattern lists, inside the write's transaction. */
  async active(tx: EntityManager): Promise<{ id: number; events: string }[]> {
    const rows = (await tx.query('SELECT id, events FROM webhooks WHERE active = 1')) as { id: number | string; events: string }[];
    return rows.map((r) => ({ id: Number(r.id), events: r.events }));
  }

  /** Raises the change_counter row `counter` (the subscriptions' version) in the transaction `tx`. */
  async raiseVersion(tx: EntityManager, counter: string): Promise<void> {
    await tx.query('UPDATE change_counter SET seq = seq + 1 WHERE name = ?', [counter]);
  }

  /** Writes the queued deliveries inside the write's transaction, CHUNK rows a statement. */
  async insertDeliveries(tx: EntityManager, rows: readonly QueuedDelivery[]): Promise<void> {
    for (let at = 0; at < rows.length; at += CHUNK) {
      const chunk = rows.slice(at, at + CHUNK);
      await tx.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event, type, item_id, seq, body, status, next_attempt_utc, created_utc) VALUES ${chunk
          .map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .join(', ')}`,
        chunk.flat(),
      );
    }
  }

  /** Queues one delivery outside any write (a ping). */
  async insertDelivery(row: Omit<WebhookDeliveryEntity, 'leaseUntil' | 'leasedBy' | 'responseStatus' | 'lastError'>): Promise<void> {
    await this.db.getRepository(WebhookDeliveryEntity).insert(row);
  }

  /** The subscription's latest `count` deliveries, newest first. */
  deliveryLog(webhookId: number, count: number): Promise<WebhookDeliveryEntity[]> {
    return this.db.getRepository(WebhookDeliveryEntity).find({ where: { webhookId }, order: { createdUtc: 'DESC', seq: 'DESC', id: 'ASC' }, take: count });
  }
}
