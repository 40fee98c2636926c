import { Column, Entity, EntityManager, Index, PrimaryColumn } from 'typeorm';
import type { DialectKind } from './dialect';
import { placeholders } from './sql';

/** What a change is about: the kinds of sync.md, or `bulk` for a write that may touch anything (seed, recount). */
export type ChangeType = 'event' | 'venue' | 'organizer' | 'category' | 'tag' | 'bulk';

/**
 * The change log (sync.md): the latest change of every item, one row per item (a later change
 * of the item takes its row over: latest wins), with `seq` in commit order across every
 * instance sharing the database. Written by the unit of work of every write, in its own
 * transaction, as its last statements. It is the change feed (`GET /changes`), the seam of
 * webhooks, and what instances sharing the database watch to know that their read caches are
 * out of date (DataVersion). Rows of removed items are the feed's tombstones; they are purged
 * after CALENDAR_SYNC_RETENTION_DAYS.
 */
@Entity({ name: 'change_log' })
@Index('ux_change_log_seq', ['seq'], { unique: true })
export class ChangeEntity {
  @PrimaryColumn({ name: 'type', type: 'varchar', length: 16 })
  type: string;

  @PrimaryColumn({ name: 'item_id', type: 'int' })
  itemId: number;

  /** When the item last changed, in commit order (see ChangeCounterEntity). */
  @Column({ name: 'seq', type: 'bigint' })
  seq: number;

  /** The seq of the item's first change: a reader whose token is older cannot have seen the item. */
  @Column({ name: 'first_seq', type: 'bigint' })
  firstSeq: number;

  /** Was the item ever published (readable by anyone)? Decides who is told of its removal. */
  @Column({ name: 'was_public', type: 'boolean', default: false })
  wasPublic: boolean;

  @Column({ name: 'changed_utc', type: 'varchar', length: 19 })
  changedUtc: string;

  /*
   * The item's state as of this change (its commit), what the feed needs to decide who sees it
   * and to show its modified time without reading the item's row: null status when the item is
   * gone (a tombstone); terms have `publish` and nulls. Read after the counter is taken, so no
   * later commit can slip in between (appendChanges).
   */
  @Column({ name: 'author_id', type: 'int', nullable: true })
  authorId: number | null;

  @Column({ name: 'status', type: 'varchar', length: 20, nullable: true })
  status: string | null;

  @Column({ name: 'date_utc', type: 'varchar', length: 19, nullable: true })
  dateUtc: string | null;

  @Column({ name: 'modified_utc', type: 'varchar', length: 19, nullable: true })
  modifiedUtc: string | null;
}

/**
 * The change log's counter: one row, `log`. A write raises it as the last statement before its
 * COMMIT and numbers its changes from it; the row stays locked until the commit, so the next
 * writer numbers after it and commits after it: seq order is commit order, on one server and
 * (by certification, a conflicting writer starts over) on a Galera cluster. `purged_seq` is the
 * highest seq of a tombstone purged after the retention: a token below it may have missed a removal.
 */
@Entity({ name: 'change_counter' })
export class ChangeCounterEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 16 })
  name: string;

  @Column({ name: 'seq', type: 'bigint', default: 0 })
  seq: number;

  @Column({ name: 'purged_seq', type: 'bigint', default: 0 })
  purgedSeq: number;
}

/**
 * The items one write changed, collected while it runs and written just before its commit
 * (appendChanges). What a change of one item does to others' representations is added there:
 * an event embeds its venue, organizers and terms, so a venue, organizer or term recorded here
 * brings every event linked to it (for links a write removes, see recordLinkedEvents).
 */
export class ChangeSet {
  private readonly items = new Map<string, { type: ChangeType; id: number }>();
  /** Terms whose count moved: their type is looked up when the rows are written. */
  private readonly counted = new Set<number>();

  /** `id` of `type` was created, changed or removed by this write. */
  record(type: ChangeType, id: number): void {
    this.items.set(`${type}:${id}`, { type, id });
  }

  /**
   * These terms' counts moved. The terms change (their `count`), the events that embed them
   * do not count as changed for it (that would be every event of a category on every event
   * write; docs/sync.md says what a mirror does about embedded counts).
   */
  recordCounts(termIds: Iterable<number>): void {
    for (const id of termIds) this.counted.add(id);
  }

  /** The events linked to `kind` `id` now: call it before a write removes those links (trash, delete). */
  async recordLinkedEvents(tx: EntityManager, kind: 'venue' | 'organizer' | 'term', id: number): Promise<void> {
    for (const eventId of await linkedEvents(tx, kind, [id])) this.record('event', eventId);
  }

  /** The recorded items; a write that named none counts as a `bulk` change. */
  entries(): { type: ChangeType; id: number }[] {
    return this.items.size > 0 ? [...this.items.values()] : [{ type: 'bulk', id: 0 }];
  }

  /** Adds the events linked to recorded venues, organizers and terms, and the counted terms by their type. */
  async complete(tx: EntityManager): Promise<void> {
    const of = (type: ChangeType) => [...this.items.values()].filter((i) => i.type === type).map((i) => i.id);
    const terms = [...of('category'), ...of('tag')];
    for (const [kind, ids] of [
      ['venue', of('venue')],
      ['organizer', of('organizer')],
      ['term', terms],
    ] as const) {
      if (ids.length > 0) for (const eventId of await linkedEvents(tx, kind, ids)) this.record('event', eventId);
    }
    const counted = [...this.counted].filter((id) => !this.items.has(`category:${id}`) && !this.items.has(`tag:${id}`));
    for (let at = 0; at < counted.length; at += CHUNK) {
      const chunk = counted.slice(at, at + CHUNK);
      const rows = (await tx.query(`SELECT id, taxonomy FROM terms WHERE id IN (${placeholders(chunk)})`, chunk)) as {
        id: number | string;
        taxonomy: string;
      }[];
      for (const row of rows) this.record(row.taxonomy === 'category' ? 'category' : 'tag', Number(row.id));
    }
  }
}

/** Where each kind's links to events are kept. */
const LINKS: Record<'venue' | 'organizer' | 'term', string> = {
  venue: 'SELECT id FROM events WHERE venue_id IN',
  organizer: 'SELECT event_id AS id FROM event_organizers WHERE organizer_id IN',
  term: 'SELECT event_id AS id FROM event_terms WHERE term_id IN',
};

async function linkedEvents(tx: EntityManager, kind: 'venue' | 'organizer' | 'term', ids: number[]): Promise<number[]> {
  const out: number[] = [];
  for (let at = 0; at < ids.length; at += CHUNK) {
    const chunk = ids.slice(at, at + CHUNK);
    const rows = (await tx.query(`${LINKS[kind]} (${placeholders(chunk)})`, chunk)) as { id: number | string }[];
    for (const row of rows) out.push(Number(row.id));
  }
  return out;
}

const current = new WeakMap<object, ChangeSet>();

/** Makes `changes` the change set of `tx` for the rest of the write (the unit of work's). */
export function attachChanges(tx: EntityManager, changes: ChangeSet): void {
  current.set(tx, changes);
}

/**
 * The change set of the write `tx` belongs to: for repositories that change what other items
 * show (links, counts) without being handed the set. Undefined outside a unit of work (bulk loads).
 */
export function changesOf(tx: EntityManager): ChangeSet | undefined {
  return current.get(tx);
}

/** Rows per statement (MySQL takes at most 65,535 placeholders in one). */
const CHUNK = 1000;

/** Item kinds whose rows have a status (the others are always public: terms; or nothing: bulk). */
export const STATUS_TABLES: Partial<Record<ChangeType, string>> = { event: 'events', venue: 'venues', organizer: 'organizers' };

/** A change with the seq the counter gave it. */
export type NumberedChange = { type: ChangeType; id: number; seq: number };

/**
 * Writes the change rows of `changes` inside `tx`, as the transaction's last statements: the
 * counter raised by their number — which locks its row until the commit (ChangeCounterEntity) —
 * then the items' states, and the rows upserted with the seqs the counter gave and the states;
 * `outbox` (the webhook outbox) says, once the subscriptions' version is read, whether it needs
 * to know which items the log had before (read with the states, `ItemState.logged`), and runs
 * just before the upsert, in the same transaction. Returns the highest seq (the write's sync
 * token).
 *
 * The states are read after the counter is taken, so they are the items' states at this
 * write's commit: every write that changed one of them and committed before has committed (on
 * MySQL a READ COMMITTED statement sees it), and every later one needs the counter, so it
 * commits after this one with a higher seq and its own states. Read before the counter, a
 * write that records an item it did not change itself (an event of a renamed venue) could
 * write back a status another write had just changed.
 */
export async function appendChanges(tx: EntityManager, kind: DialectKind, changes: ChangeSet, changedUtc: string, outbox?: ChangeLogOutbox): Promise<number> {
  await changes.complete(tx);
  const rows = changes.entries();
  await tx.query("UPDATE change_counter SET seq = seq + ? WHERE name = 'log'", [rows.length]);
  // With the subscriptions' version (raised by every change of a webhook), in the same statement.
  const counters = (await tx.query("SELECT name, seq FROM change_counter WHERE name IN ('log', 'webhooks')")) as { name: string; seq: number | string }[];
  const top = Number(counters.find((c) => c.name === 'log')!.seq);
  const first = top - rows.length + 1;
  const wantsLogged = outbox ? await outbox.wantsLogged(Number(counters.find((c) => c.name === 'webhooks')?.seq ?? 0)) : false;
  const states = await statesOf(tx, rows, wantsLogged);
  // The webhook outbox, while the log still shows what existed before this write.
  if (outbox)
    await outbox.enqueue(
      rows.map((r, i) => ({ ...r, seq: first + i })),
      states,
    );
  const upsert =
    kind === 'mysql'
      ? `ON DUPLICATE KEY UPDATE seq = VALUES(seq), changed_utc = VALUES(changed_utc), was_public = GREATEST(was_public, VALUES(was_public)), ${STATE_COLUMNS.map((c) => `${c} = VALUES(${c})`).join(', ')}`
      : `ON CONFLICT (type, item_id) DO UPDATE SET seq = excluded.seq, changed_utc = excluded.changed_utc, was_public = MAX(was_public, excluded.was_public), ${STATE_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  for (let at = 0; at < rows.length; at += CHUNK) {
    const chunk = rows.slice(at, at + CHUNK);
    await tx.query(
      `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc, ${STATE_COLUMNS.join(', ')}) VALUES ${chunk
        .map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .join(', ')} ${upsert}`,
      chunk.flatMap((r, i) => {
        const seq = first + at + i;
        const state = states.get(`${r.type}:${r.id}`);
        const published = r.type === 'category' || r.type === 'tag' || state?.status === 'publish';
        return [
          r.type,
          r.id,
          seq,
          seq,
          published ? 1 : 0,
          changedUtc,
          state?.authorId ?? null,
          state?.status ?? null,
          state?.dateUtc ?? null,
          state?.modifiedUtc ?? null,
        ];
      }),
    );
  }
  return top;
}

/** What the change log keeps of an item's state (ChangeEntity); terms have only their status, `publish`. */
export interface ItemState {
  authorId: number | null;
  status: string;
  dateUtc: string | null;
  modifiedUtc: string | null;
  /** Had the log a row of the item before this write (read only when asked: statesOf's `logged`)? */
  logged?: boolean;
}

/** The webhook outbox as appendChanges drives it (database/webhook-outbox.ts), inside the write's transaction. */
export interface ChangeLogOutbox {
  /** At this subscriptions' version: are there any, so that the states are read with `logged`? */
  wantsLogged(webhooksVersion: number): Promise<boolean>;
  /** Just before the change rows are upserted: the changes with their seqs, and the items' states. */
  enqueue(numbered: NumberedChange[], states: ItemStates): Promise<void>;
}

/** The state of each recorded item that exists now, by `type:id`; absent: gone. */
export type ItemStates = Map<string, ItemState>;

/** The change log's columns of an item's state. */
const STATE_COLUMNS = ['author_id', 'status', 'date_utc', 'modified_utc'] as const;

/** Where each kind's rows are (as `t`), and the SQL of their state: STATE_COLUMNS, in order. */
const STATE_SQL: Partial<Record<ChangeType, { table: string; columns: readonly string[]; where: string }>> = {
  ...Object.fromEntries(
    Object.entries(STATUS_TABLES).map(([type, table]) => [type, { table: table!, columns: STATE_COLUMNS.map((c) => `t.${c}`), where: '' }]),
  ),
  category: { table: 'terms', columns: ['NULL', "'publish'", 'NULL', 'NULL'], where: "t.taxonomy = 'category' AND " },
  tag: { table: 'terms', columns: ['NULL', "'publish'", 'NULL', 'NULL'], where: "t.taxonomy = 'tag' AND " },
};

const stateKinds = () => Object.entries(STATE_SQL) as [ChangeType, { table: string; columns: readonly string[]; where: string }][];

/** The states of the recorded items, one query per kind and chunk. */
export async function statesOf(tx: Runner, rows: { type: ChangeType; id: number }[], logged = false): Promise<ItemStates> {
  const out: ItemStates = new Map();
  for (const [type, sql] of stateKinds()) {
    const ids = rows.filter((r) => r.type === type).map((r) => r.id);
    const select =
      sql.columns.map((c, i) => `${c} AS ${STATE_COLUMNS[i]}`).join(', ') +
      (logged ? `, EXISTS (SELECT 1 FROM change_log c WHERE c.type = '${type}' AND c.item_id = t.id) AS logged` : '');
    for (let at = 0; at < ids.length; at += CHUNK) {
      const chunk = ids.slice(at, at + CHUNK);
      const found = (await tx.query(`SELECT t.id, ${select} FROM ${sql.table} t WHERE ${sql.where}t.id IN (${placeholders(chunk)})`, chunk)) as {
        id: number | string;
        author_id: number | string | null;
        status: string;
        date_utc: string | null;
        modified_utc: string | null;
        logged?: number | string | boolean;
      }[];
      for (const r of found) {
        out.set(`${type}:${Number(r.id)}`, {
          authorId: r.author_id === null ? null : Number(r.author_id),
          status: r.status,
          dateUtc: r.date_utc,
          modifiedUtc: r.modified_utc,
          ...(logged ? { logged: Number(r.logged) === 1 || r.logged === true } : {}),
        });
      }
    }
  }
  return out;
}

type Runner = Pick<EntityManager, 'query'>;

/** The tables whose items the change log names, with the SQL of their `was_public` value. */
export const ITEM_TABLES: { type: string; from: string; isPublic: string }[] = Object.entries(STATUS_TABLES).map(([type, from]) => ({
  type,
  from: from!,
  isPublic: "CASE WHEN t.status = 'publish' THEN 1 ELSE 0 END",
}));

/**
 * Gives every item that has no change row one (sync.md: a client without a token gets every
 * item it can read, from the log) after a bulk load (`seed`) that writes items without change
 * rows. (The migration that made the log latest-wins did the same without the state columns;
 * it keeps its own frozen copy, migrations/shared/frozen-change-log.ts.) The new rows are numbered
 * after the counter, in a block per kind (events, venues and organizers share the post id
 * space; terms come after the highest post id), and the counter is moved past them. Returns the
 * counter's new value. Runs inside the caller's transaction, which must hold the counter
 * (it raises it first, as every write does).
 */
export async function backfillChangeLog(db: Runner, changedUtc: string): Promise<number> {
  await db.query("UPDATE change_counter SET seq = seq + 0 WHERE name = 'log'");
  const [{ top }] = (await db.query("SELECT seq AS top FROM change_counter WHERE name = 'log'")) as { top: number | string }[];
  const base = Number(top);
  const [{ posts }] = (await db.query('SELECT MAX(id) AS posts FROM posts')) as { posts: number | string | null }[];
  const postSpan = Number(posts ?? 0);
  for (const t of ITEM_TABLES) {
    await db.query(
      `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc${STATE_COLUMNS.map((c) => `, ${c}`).join('')})
       SELECT '${t.type}', t.id, ${base} + t.id, ${base} + t.id, ${t.isPublic}, ?${STATE_COLUMNS.map((c) => `, t.${c}`).join('')} FROM ${t.from} t
       WHERE NOT EXISTS (SELECT 1 FROM change_log c WHERE c.type = '${t.type}' AND c.item_id = t.id)`,
      [changedUtc],
    );
  }
  await db.query(
    `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc, status)
     SELECT CASE WHEN t.taxonomy = 'category' THEN 'category' ELSE 'tag' END, t.id, ${base + postSpan} + t.id, ${base + postSpan} + t.id, 1, ?, 'publish' FROM terms t
     WHERE NOT EXISTS (SELECT 1 FROM change_log c WHERE c.type = CASE WHEN t.taxonomy = 'category' THEN 'category' ELSE 'tag' END AND c.item_id = t.id)`,
    [changedUtc],
  );
  const [{ highest }] = (await db.query('SELECT MAX(seq) AS highest FROM change_log')) as { highest: number | string | null }[];
  const next = Math.max(base, Number(highest ?? 0));
  await db.query("UPDATE change_counter SET seq = ? WHERE name = 'log'", [next]);
  return next;
}
