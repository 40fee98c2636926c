import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A webhook subscription (sync.md "Webhooks"): where to POST, which events, and the secret the
 * deliveries are signed with. The secret cannot be hashed like a password (the service signs
 * every delivery with it): it is stored encrypted with CALENDAR_WEBHOOK_KEY when that is set,
 * else as given (common/crypto/secret-box.ts, docs/security.md).
 */
@Entity({ name: 'webhooks' })
export class WebhookEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'url', type: 'varchar', length: 2000 })
  url: string;

  /** The event patterns, a JSON array of strings (`event.created`, `venue.*`, `*`). */
  @Column({ name: 'events', type: 'text' })
  events: string;

  /** As stored: sealSecret's form (space for a 255-character secret of any script, encrypted). */
  @Column({ name: 'secret', type: 'varchar', length: 2000 })
  secret: string;

  @Column({ name: 'active', type: 'boolean', default: true })
  active: boolean;

  @Column({ name: 'created_utc', type: 'varchar', length: 19 })
  createdUtc: string;
}

/**
 * The outbox: one row per delivery of one change (or ping) to one subscription, written in the
 * transaction of the write (sync/webhooks/webhook-outbox.ts), then sent by the delivery worker of
 * some instance holding its lease. The row is also the delivery log.
 */
@Entity({ name: 'webhook_deliveries' })
// The worker's claim reads these two for pending deliveries only: on SQLite they hold nothing
// else (partial indexes; MySQL and MariaDB have none and keep them whole).
@Index('ix_webhook_deliveries_due', ['status', 'seq'], { where: "status = 'pending'" })
@Index('ix_webhook_deliveries_item', ['webhookId', 'type', 'itemId', 'status', 'seq'], { where: "status = 'pending'" })
@Index('ix_webhook_deliveries_log', ['webhookId', 'createdUtc'])
export class WebhookDeliveryEntity {
  /** The delivery uuid: the receiver's de-duplication key, the same on every attempt. */
  @PrimaryColumn({ name: 'id', type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'webhook_id', type: 'int' })
  webhookId: number;

  /** `event.created`, `venue.deleted`, `ping`, … */
  @Column({ name: 'event', type: 'varchar', length: 40 })
  event: string;

  /** The item's kind, or `ping`. */
  @Column({ name: 'type', type: 'varchar', length: 16 })
  type: string;

  @Column({ name: 'item_id', type: 'int' })
  itemId: number;

  /** The change-log seq of the change (0 for a ping): the order of one item's deliveries. */
  @Column({ name: 'seq', type: 'bigint' })
  seq: number;

  /** What the enqueueing write knew (JSON: `{"deleted": "trash"|"permanent"}` for deletes); the sent body once built. */
  @Column({ name: 'body', type: 'text' })
  body: string;

  /** pending | delivered | failed */
  @Column({ name: 'status', type: 'varchar', length: 16 })
  status: string;

  @Column({ name: 'attempts', type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_utc', type: 'varchar', length: 23 })
  nextAttemptUtc: string;

  /** Until when the instance `leased_by` holds it (UTC, milliseconds): another may take it after. */
  @Column({ name: 'lease_until', type: 'varchar', length: 23, nullable: true, default: null })
  leaseUntil: string | null;

  @Column({ name: 'leased_by', type: 'varchar', length: 64, nullable: true, default: null })
  leasedBy: string | null;

  @Column({ name: 'response_status', type: 'int', nullable: true, default: null })
  responseStatus: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true, default: null })
  lastError: string | null;

  @Column({ name: 'created_utc', type: 'varchar', length: 23 })
  createdUtc: string;
}
