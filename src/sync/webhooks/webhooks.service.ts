import { randomBytes } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Actor, assertCan } from '../../common/auth';
import { nowUtcSql } from '../../common/datetime/clock';
import { invalidParam, WpError } from '../../common/errors';
import { checkOutboundUrl, OutboundUnresolved } from '../../common/net/outbound';
import { AppConfig } from '../../config/app-config';
import { ChangeKinds } from '../../database/change-kinds';
import { UnitOfWork } from '../../database/unit-of-work';
import { EVENTS_MESSAGE, isEventPattern } from './dto/webhook.dto';
import { deliveryId, outboxTime, WebhookOutbox } from './webhook-outbox';
import { isSealed, sealSecret } from '../../common/crypto/secret-box';
import type { WebhookEntity } from './webhook.entity';
import { WebhooksRepository } from './webhooks.repository';

/** A subscription as the API shows it (the secret only in the create answer). */
export interface WebhookJson {
  id: number;
  url: string;
  events: string[];
  active: boolean;
  created_utc: string;
  secret?: string;
}

export interface WebhookInput {
  url?: string;
  events?: string[];
  secret?: string;
  active?: boolean;
}

/** How many deliveries the log answers (sync.md: the last 100). */
const LOG_SIZE = 100;

export const webhookNotFound = (id: number) => invalidParam('id', `No webhook exists with id ${id}.`);

/**
 * The webhook routes of sync.md, administrators only (auth.md §2 "manage webhooks"): the
 * subscriptions, their delivery log and `ping`. Target URLs are checked here (and again by the
 * worker at each send, since a name may resolve elsewhere later).
 */
@Injectable()
export class WebhooksService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly hooks: WebhooksRepository,
    private readonly config: AppConfig,
    private readonly outbox: WebhookOutbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly kinds: ChangeKinds,
  ) {}

  /**
   * The event names of a write name registered change kinds (the DTO checked their form). First,
   * as the DTO's checks come before the caller's rights.
   */
  private checkEvents(events: readonly string[] | undefined): void {
    if (events !== undefined && !events.every((p) => isEventPattern(p, (type) => this.kinds.has(type)))) throw invalidParam('events', EVENTS_MESSAGE);
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      const sealed = await this.sealStoredSecrets();
      if (sealed > 0) this.logger.log(`stored ${sealed} webhook secret(s) encrypted with CALENDAR_WEBHOOK_KEY`);
    } catch (err) {
      this.logger.warn(`webhook secrets not encrypted at start: ${(err as Error).message}`);
    }
  }

  /**
   * With CALENDAR_WEBHOOK_KEY set, the secrets stored before it (as given) are stored encrypted:
   * at every start, so setting the key and restarting is all it takes. Each row only while it
   * still holds what was read (another instance may do the same at the same time). Returns how
   * many this instance encrypted.
   */
  async sealStoredSecrets(): Promise<number> {
    const key = this.config.webhookKey;
    if (key === undefined) return 0;
    let sealed = 0;
    for (const { id, secret } of await this.hooks.secrets()) {
      if (isSealed(secret)) continue;
      sealed += await this.hooks.replaceSecret(id, secret, sealSecret(secret, key));
    }
    return sealed;
  }

  async create(actor: Actor | null, input: WebhookInput & { url: string; events: string[] }): Promise<WebhookJson> {
    this.checkEvents(input.events);
    assertCan(actor, 'manage_webhooks');
    await this.checkUrl(input.url);
    const secret = input.secret ?? randomBytes(32).toString('hex');
    const row = await this.unitOfWork.runUnlogged(async (tx) => {
      const saved = await this.hooks.insert(tx, {
        url: input.url,
        events: JSON.stringify(input.events),
        secret: sealSecret(secret, this.config.webhookKey),
        active: input.active ?? true,
        createdUtc: nowUtcSql(),
      });
      await this.outbox.changed(tx);
      return saved;
    });
    return { ...present(row), secret };
  }

  async list(actor: Actor | null): Promise<{ webhooks: WebhookJson[] }> {
    assertCan(actor, 'manage_webhooks');
    return { webhooks: (await this.hooks.all()).map(present) };
  }

  async get(actor: Actor | null, id: number): Promise<WebhookJson> {
    assertCan(actor, 'manage_webhooks');
    return present(await this.find(id));
  }

  async update(actor: Actor | null, id: number, input: WebhookInput): Promise<WebhookJson> {
    this.checkEvents(input.events);
    assertCan(actor, 'manage_webhooks');
    const row = await this.find(id);
    if (input.url !== undefined) {
      await this.checkUrl(input.url);
      row.url = input.url;
    }
    if (input.events !== undefined) row.events = JSON.stringify(input.events);
    if (input.secret !== undefined) row.secret = sealSecret(input.secret, this.config.webhookKey);
    if (input.active !== undefined) row.active = input.active;
    await this.unitOfWork.runUnlogged(async (tx) => {
      await this.hooks.save(tx, row);
      await this.outbox.changed(tx);
    });
    return present(row);
  }

  async remove(actor: Actor | null, id: number): Promise<{ deleted: true; previous: WebhookJson }> {
    assertCan(actor, 'manage_webhooks');
    const row = await this.find(id);
    await this.unitOfWork.runUnlogged(async (tx) => {
      await this.hooks.remove(tx, id);
      await this.outbox.changed(tx);
    });
    return { deleted: true, previous: present(row) };
  }

  async deliveryLog(actor: Actor | null, id: number): Promise<{ deliveries: Record<string, unknown>[] }> {
    assertCan(actor, 'manage_webhooks');
    await this.find(id);
    const rows = await this.hooks.deliveryLog(id, LOG_SIZE);
    return {
      deliveries: rows.map((d) => ({
        id: d.id,
        event: d.event,
        status: d.status,
        attempts: d.attempts,
        response_status: d.responseStatus,
        last_error: d.lastError,
        next_attempt_utc: d.status === 'pending' ? d.nextAttemptUtc.slice(0, 19) : null,
      })),
    };
  }

  /** Queues a `ping` delivery: sent like any other (a paused subscription keeps it until resumed). */
  async ping(actor: Actor | null, id: number): Promise<{ id: string; event: 'ping'; status: 'pending' }> {
    assertCan(actor, 'manage_webhooks');
    await this.find(id);
    const now = outboxTime();
    const delivery = {
      id: deliveryId(),
      webhookId: id,
      event: 'ping',
      type: 'ping',
      itemId: 0,
      seq: 0,
      body: '{}',
      status: 'pending',
      attempts: 0,
      nextAttemptUtc: now,
      createdUtc: now,
    };
    await this.hooks.insertDelivery(delivery);
    this.outbox.queued();
    return { id: delivery.id, event: 'ping', status: 'pending' };
  }

  private async find(id: number): Promise<WebhookEntity> {
    const row = await this.hooks.find(id);
    if (row === null) throw webhookNotFound(id);
    return row;
  }

  /**
   * sync.md: http/https only; loopback, private, link-local and metadata addresses refused unless
   * CALENDAR_WEBHOOK_ALLOW_PRIVATE=on. A host name that does not resolve is refused too (no
   * address to check), saying so: offline, the private-address message sent operators astray.
   */
  private async checkUrl(url: string): Promise<void> {
    try {
      await checkOutboundUrl(url, { allowPrivate: this.config.webhookAllowPrivate });
    } catch (err) {
      if (err instanceof WpError) throw err;
      if (err instanceof OutboundUnresolved) {
        throw invalidParam('url', `The host name ${err.host} does not resolve (${err.code}): check the name, or this server's DNS and network.`);
      }
      throw invalidParam('url', 'Must be an http or https URL of a public address.');
    }
  }
}

function present(row: WebhookEntity): WebhookJson {
  return { id: row.id, url: row.url, events: JSON.parse(row.events) as string[], active: Boolean(row.active), created_utc: row.createdUtc };
}
