import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ChangeLogOutbox, ChangeSet, ItemStates, NumberedChange } from '../../database/change-log';
import { BULK } from '../../database/change-kinds';
import { Hook } from '../../common/feature/hooks';
import { type WriteParticipant, WRITE_PARTICIPANTS } from '../../database/write-participants';
import { type QueuedDelivery, WebhooksRepository } from './webhooks.repository';

/** An active webhook subscription as the outbox needs it: its id and event patterns. */
export interface Subscription {
  id: number;
  patterns: string[];
}

/** What a change did to its item, as webhooks name it (sync.md: `{type}.created|updated|deleted`). */
export type ChangeAction = 'created' | 'updated' | 'deleted';

/** Does a subscription's pattern list take `{type}.{action}`? `*`, `{type}.*` or the exact name. */
export function subscribes(patterns: readonly string[], type: string, action: string): boolean {
  return patterns.some((p) => p === '*' || p === `${type}.*` || p === `${type}.${action}`);
}

/** The change_counter row that versions the subscriptions: every change of one raises it. */
const VERSION_COUNTER = 'webhooks';

/** UTC now with milliseconds, `YYYY-MM-DD HH:MM:SS.mmm`: the outbox's times (they sort as text on both engines). */
export function outboxTime(at = new Date()): string {
  return at.toISOString().replace('T', ' ').slice(0, 23);
}

/**
 * The webhook outbox's writing side (sync.md "Webhooks": at least once). Inside every write's
 * transaction, just before its change rows are written, it adds one delivery row per active
 * subscription and change the subscription asks for; the rows commit or roll back with the
 * write. The active subscriptions are kept in memory with their version: the `webhooks` row of
 * change_counter, which every change of a subscription raises (`changed`) and which every
 * write reads anyway with the change log's counter. So a write costs nothing more while there
 * are no subscriptions, and reads them again exactly when some instance changed them: a write
 * that begins after a subscription's answer is delivered to it, whichever instance takes it.
 * The delivery worker (webhook-worker.ts) sends the rows; it listens here to be woken right
 * after such a commit.
 *
 * It joins every write as a write participant (`@Hook(WRITE_PARTICIPANTS)`, database/write-participants.ts):
 * the unit of work knows no outbox, only the participants' change-log listeners.
 */
@Hook(WRITE_PARTICIPANTS)
@Injectable()
export class WebhookOutbox implements WriteParticipant {
  private cached: Subscription[] = [];
  private version = -1;
  private readonly listeners: (() => void)[] = [];
  /** Deliveries each write's change set queued (its last attempt's), for afterCommit. */
  private readonly queuedBy = new WeakMap<ChangeSet, number>();

  constructor(private readonly hooks: WebhooksRepository) {}

  /** A subscription was created, changed or removed: in its transaction, raise the version every write compares. */
  async changed(tx: EntityManager): Promise<void> {
    await this.hooks.raiseVersion(tx, VERSION_COUNTER);
  }

  /** The active subscriptions at `version`, read again inside the write's transaction when it moved. */
  private async subscriptions(tx: EntityManager, version: number): Promise<Subscription[]> {
    if (version === this.version) return this.cached;
    this.cached = (await this.hooks.active(tx)).map((r) => ({ id: r.id, patterns: parsePatterns(r.events) }));
    this.version = version;
    return this.cached;
  }

  /** `fn` runs after each commit that queued deliveries (the worker's wake-up). */
  onQueued(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** Deliveries were queued (a ping): the worker is woken. */
  queued(): void {
    for (const fn of this.listeners) fn();
  }

  /** A write committed: when it queued deliveries, the worker is woken. */
  afterCommit(changes: ChangeSet): void {
    if ((this.queuedBy.get(changes) ?? 0) > 0) this.queued();
  }

  /**
   * The outbox of one write, for appendChanges to drive inside `tx`: it reads the subscriptions
   * at the version the write read (the items' states come with their `logged` flags), and
   * just before the change rows are upserted writes one delivery row per subscription × change
   * it asks for, counting them for afterCommit.
   */
  changeLog(tx: EntityManager, changes: ChangeSet): ChangeLogOutbox {
    let subs: Subscription[] = [];
    this.queuedBy.set(changes, 0);
    return {
      counter: VERSION_COUNTER,
      atVersion: async (version) => {
        subs = await this.subscriptions(tx, version);
      },
      enqueue: async (numbered, states) => {
        const rows = deliveriesOf(subs, numbered, states);
        if (rows.length > 0) await this.hooks.insertDeliveries(tx, rows);
        this.queuedBy.set(changes, rows.length);
      },
    };
  }
}

/**
 * One delivery row per subscription × change it asks for, to write inside the write's
 * transaction. `states` are the items' states at this commit, as appendChanges read them, with
 * whether the log had a row of each before this write (`logged`: else the change is a `created`).
 */
function deliveriesOf(subs: Subscription[], changes: NumberedChange[], states: ItemStates): QueuedDelivery[] {
  if (subs.length === 0) return [];
  const items = changes.filter((c) => c.type !== BULK);
  if (items.length === 0) return [];
  const now = outboxTime();
  const rows: QueuedDelivery[] = [];
  for (const c of items) {
    const state = states.get(`${c.type}:${c.id}`);
    // What the change did: gone for good, into the trash, or else new when the log had no row of it.
    const deleted = state === undefined ? 'permanent' : state.status === 'trash' ? 'trash' : undefined;
    const action: ChangeAction = deleted ? 'deleted' : state?.logged ? 'updated' : 'created';
    const body = JSON.stringify(deleted ? { deleted } : {});
    for (const sub of subs) {
      if (subscribes(sub.patterns, c.type, action)) rows.push([deliveryId(), sub.id, `${c.type}.${action}`, c.type, c.id, c.seq, body, 'pending', now, now]);
    }
  }
  return rows;
}

/**
 * A delivery id: a UUID of version 7 (RFC 9562: the time in milliseconds, then random bits).
 * Receivers de-duplicate by it like any UUID; it grows with time, so the outbox's primary key
 * takes new rows at its end instead of at random places.
 */
export function deliveryId(at = Date.now()): string {
  // The random bits of a version 4 UUID (Node draws them from a pooled buffer: no system call per
  // id), with the time and the version put in: 12 + 62 random bits, as version 7 has.
  const random = randomUUID();
  const time = at.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

/** The stored pattern list; a row that does not parse subscribes to nothing (it was validated when written). */
function parsePatterns(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
