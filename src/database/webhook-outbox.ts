import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { STATUS_TABLES, type ChangeType } from './change-log';

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

/** How long an instance trusts its copy of the subscriptions (others' webhook writes reach it this late). */
const REFRESH_MS = 2000;
/** Rows per INSERT (10 placeholders each; MySQL takes at most 65,535 in one statement). */
const CHUNK = 500;

/** Where each kind's rows are: the status tables, and terms. */
const ITEM_TABLES: Partial<Record<ChangeType, string>> = { ...STATUS_TABLES, category: 'terms', tag: 'terms' };

/** UTC now with milliseconds, `YYYY-MM-DD HH:MM:SS.mmm`: the outbox's times (they sort as text on both engines). */
export function outboxTime(at = new Date()): string {
  return at.toISOString().replace('T', ' ').slice(0, 23);
}

/**
 * The webhook outbox's writing side (sync.md "Webhooks": at least once): the unit of work asks
 * it for the active subscriptions before a write's transaction (a copy kept in memory, so a
 * write costs nothing more while there are none), and inside the transaction, just before the
 * change rows are written, it adds one delivery row per subscription and change the
 * subscription asks for. The rows commit or roll back with the write. The delivery worker
 * (src/sync/webhooks) sends them; it listens here to be woken right after such a commit.
 */
@Injectable()
export class WebhookOutbox {
  private cached: Subscription[] = [];
  private loadedAt = -Infinity;
  private readonly listeners: (() => void)[] = [];

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The active subscriptions, from memory when fresh. Call it outside any transaction. */
  async subscriptions(): Promise<Subscription[]> {
    if (Date.now() - this.loadedAt < REFRESH_MS) return this.cached;
    const rows = (await this.db.query('SELECT id, events FROM webhooks WHERE active = 1')) as { id: number | string; events: string }[];
    this.cached = rows.map((r) => ({ id: Number(r.id), patterns: parsePatterns(r.events) }));
    this.loadedAt = Date.now();
    return this.cached;
  }

  /** This instance changed a subscription: the next write reads them again. */
  forget(): void {
    this.loadedAt = -Infinity;
  }

  /** `fn` runs after each commit that queued deliveries (the worker's wake-up). */
  onQueued(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** A write that queued deliveries committed. */
  queued(): void {
    for (const fn of this.listeners) fn();
  }

  /**
   * Inside the write's transaction, before its change rows are upserted (so that "no row yet"
   * still means `created`): one delivery row per subscription × change it asks for. Returns
   * the number of rows written.
   */
  async enqueue(tx: EntityManager, subs: Subscription[], changes: { type: ChangeType; id: number; seq: number }[]): Promise<number> {
    const items = changes.filter((c) => c.type !== 'bulk');
    if (subs.length === 0 || items.length === 0) return 0;
    const actions = await actionsOf(tx, items);
    const now = outboxTime();
    const rows: unknown[][] = [];
    for (const c of items) {
      const { action, deleted } = actions.get(`${c.type}:${c.id}`)!;
      for (const sub of subs) {
        if (!subscribes(sub.patterns, c.type, action)) continue;
        const body = JSON.stringify(deleted ? { deleted } : {});
        rows.push([randomUUID(), sub.id, `${c.type}.${action}`, c.type, c.id, c.seq, body, 'pending', now, now]);
      }
    }
    for (let at = 0; at < rows.length; at += CHUNK) {
      const chunk = rows.slice(at, at + CHUNK);
      await tx.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event, type, item_id, seq, body, status, next_attempt_utc, created_utc) VALUES ${chunk
          .map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
          .join(', ')}`,
        chunk.flat(),
      );
    }
    return rows.length;
  }
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

/**
 * What each change did: `created` when its item had no change row before this write, `deleted`
 * when the row is gone (`permanent`) or in the trash (`trash`) now, else `updated`.
 */
async function actionsOf(
  tx: EntityManager,
  items: { type: ChangeType; id: number }[],
): Promise<Map<string, { action: ChangeAction; deleted?: 'trash' | 'permanent' }>> {
  const known = new Set<string>();
  const states = new Map<string, string>();
  for (const type of new Set(items.map((i) => i.type))) {
    const ids = items.filter((i) => i.type === type).map((i) => i.id);
    for (let at = 0; at < ids.length; at += CHUNK) {
      const chunk = ids.slice(at, at + CHUNK);
      const marks = chunk.map(() => '?').join(', ');
      const logged = (await tx.query(`SELECT item_id FROM change_log WHERE type = ? AND item_id IN (${marks})`, [type, ...chunk])) as {
        item_id: number | string;
      }[];
      for (const r of logged) known.add(`${type}:${Number(r.item_id)}`);
      const table = ITEM_TABLES[type]!;
      const status = table === 'terms' ? "'publish'" : 'status';
      const found = (await tx.query(`SELECT id, ${status} AS status FROM ${table} WHERE id IN (${marks})`, chunk)) as { id: number | string; status: string }[];
      for (const r of found) states.set(`${type}:${Number(r.id)}`, r.status);
    }
  }
  const out = new Map<string, { action: ChangeAction; deleted?: 'trash' | 'permanent' }>();
  for (const i of items) {
    const key = `${i.type}:${i.id}`;
    const status = states.get(key);
    if (status === undefined) out.set(key, { action: 'deleted', deleted: 'permanent' });
    else if (status === 'trash') out.set(key, { action: 'deleted', deleted: 'trash' });
    else out.set(key, { action: known.has(key) ? 'updated' : 'created' });
  }
  return out;
}
