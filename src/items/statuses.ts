import { DateTime } from 'luxon';
import { Actor, can } from '../common/auth';

/** Statuses of events, venues and organizers (spec endpoints.md §3). */
export const ITEM_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** What a write may ask for; moving to trash is done only by DELETE (§3 rule 1, Adaptation). */
export const WRITE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

export const isWriteStatus = (s: unknown): s is string => typeof s === 'string' && (WRITE_STATUSES as readonly string[]).includes(s);

/**
 * The status an item gets from a write (spec endpoints.md §3 rules 2–4 and 6).
 * `requested` undefined: on create the caller's default, on update the current status.
 * `dateUtc` is the publication date the item will have (UTC, `YYYY-MM-DD HH:MM:SS`).
 */
export function resolveWriteStatus(actor: Actor | null, requested: string | undefined, current: string | undefined, dateUtc: string, now: DateTime): string {
  const mayPublish = can(actor, 'publish_items');
  let status: string;
  if (requested === undefined) {
    if (current !== undefined) return current; // rule 6 (Deviation): omitted status stays
    status = mayPublish ? 'publish' : 'draft';
  } else if (!mayPublish && (requested === 'publish' || requested === 'future' || requested === 'private')) {
    status = 'pending'; // rule 3
  } else {
    status = requested;
  }
  const inFuture = dateUtc > now.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
  if (status === 'publish' && inFuture) return 'future'; // rule 4
  if (status === 'future' && !inFuture) return 'publish';
  return status;
}

/** Rule 5: a scheduled item whose date has passed is reported and treated as published. */
export function effectiveStatus(status: string, dateUtc: string, nowUtcSql: string): string {
  return status === 'future' && dateUtc <= nowUtcSql ? 'publish' : status;
}

/**
 * "The effective status is one of `statuses`", written so that an index on (status, date)
 * can serve it (a CASE expression cannot): a scheduled item whose date has passed counts as
 * published, a scheduled one still ahead as future.
 */
export function effectiveStatusIn(alias: string, statuses: readonly string[], nowParam: string): string {
  const quoted = (list: string[]) => list.map((st) => `'${st.replace(/[^a-z]/g, '')}'`).join(', ');
  const plain = statuses.filter((st) => st !== 'future');
  const parts: string[] = [];
  if (plain.length > 0) parts.push(`${alias}.status IN (${quoted(plain)})`);
  if (statuses.includes('publish')) parts.push(`(${alias}.status = 'future' AND ${alias}.dateUtc <= :${nowParam})`);
  if (statuses.includes('future')) parts.push(`(${alias}.status = 'future' AND ${alias}.dateUtc > :${nowParam})`);
  return parts.length > 0 ? `(${parts.join(' OR ')})` : '1 = 0';
}
