import { Column, Entity, EntityManager, Index, PrimaryColumn } from 'typeorm';
import type { ChangeKind } from '../common/feature/feature';
import { BULK, ChangeKinds } from './change-kinds';
import type { DialectKind } from './dialect';
import { placeholders } from './sql';

/** What a change is about: a registered change kind (ChangeKinds), or `bulk` for a write that may touch anything (seed, recount). */
export type ChangeKindName = string;

/**
 * The change log (sync.md): the latest change of every item, one row per item (a later change
 * of the item takes its row over: latest wins), with `seq` in commit order across every
 * instance sharing the database. Written by the unit of work of every write, in its own
 * transaction, as its last statements. It is the change feed (`GET /changes`), the source of
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
 * an event embeds its venue, organizers and terms, so an item of a kind with `linkedEvents`
 * recorded here brings every event linked to it (for links a write removes, see
 * recordLinkedEvents). `kinds`: the registered change kinds (none: a set that is only
 * collected, as service specs do).
 */
export class ChangeSet {
  private readonly items = new Map<string, { type: ChangeKindName; id: number }>();
  /** Items whose kind is one of some kinds sharing a table (terms whose count moved): looked up when the rows are written. */
  private readonly among: { types: readonly string[]; ids: number[] }[] = [];

  constructor(readonly kinds: ChangeKinds = new ChangeKinds([])) {}

  /** `id` of `type` was created, changed or removed by this write. */
  record(type: ChangeKindName, id: number): void {
    this.items.set(`${type}:${id}`, { type, id });
  }

  /**
   * Items of one of `types` (kinds that share a table: categories and tags) changed, without
   * their kind being at hand: it is looked up when the rows are written. For term counts that
   * moved: the terms change (their `count`), the events that embed them do not count as
   * changed for it (that would be every event of a category on every event write;
   * docs/sync.md says what a mirror does about embedded counts).
   */
  recordAmong(types: readonly string[], ids: Iterable<number>): void {
    this.among.push({ types, ids: [...ids] });
  }

  /** The events linked now to the item `id` of kind `type`: call it before a write removes those links (trash, delete). */
  async recordLinkedEvents(tx: EntityManager, type: ChangeKindName, id: number): Promise<void> {
    const kind = this.kindOf(type);
    if (kind.linkedEvents) for (const eventId of await linkedEvents(tx, kind.linkedEvents.sql, [id])) this.record(kind.linkedEvents.type, eventId);
  }

  /** The recorded items; a write that named none counts as a `bulk` change. */
  entries(): { type: ChangeKindName; id: number }[] {
    return this.items.size > 0 ? [...this.items.values()] : [{ type: BULK, id: 0 }];
  }

  /**
   * Adds the events linked to recorded items of kinds with `linkedEvents`, and the items
   * recorded among kinds by their kind: every look-up in one statement (a UNION ALL of them).
   */
  async complete(tx: EntityManager): Promise<void> {
    const recorded = [...this.items.values()];
    const lookups: Lookup[] = [];
    for (const kind of this.kinds.all()) {
      if (!kind.linkedEvents) continue;
      const { type, sql } = kind.linkedEvents;
      const ids = recorded.filter((i) => i.type === kind.type).map((i) => i.id);
      if (ids.length > 0) lookups.push({ type, ids, from: (list) => `FROM (${sql} ${list}) t` });
    }
    for (const { types, ids } of this.among.splice(0)) {
      const open = ids.filter((id) => !types.some((type) => this.items.has(`${type}:${id}`)));
      if (open.length === 0) continue;
      for (const type of types) {
        const { table, where } = this.kindOf(type).state;
        lookups.push({ type, ids: open, from: (list) => `FROM ${table} t WHERE ${where ? `${where} AND ` : ''}t.id IN ${list}` });
      }
    }
    for (const { sql, params } of unionInChunks(lookups, (l, list) => `SELECT ? AS type, t.id ${l.from(list)}`)) {
      const rows = (await tx.query(sql, params)) as { part: number | string; type: string; id: number | string }[];
      // In the order of the look-ups, as they were made one by one: the order of the change rows' seqs.
      for (const row of byPart(rows)) this.record(row.type, Number(row.id));
    }
  }

  private kindOf(type: ChangeKindName): ChangeKind {
    const kind = this.kinds.get(type);
    if (!kind) throw new Error(`change log: no feature declares the change kind "${type}"`);
    return kind;
  }
}

/** The ids of the events linked to `ids`, by a kind's `linkedEvents` SQL. */
async function linkedEvents(tx: EntityManager, sql: string, ids: number[]): Promise<number[]> {
  const out: number[] = [];
  for (let at = 0; at < ids.length; at += CHUNK) {
    const chunk = ids.slice(at, at + CHUNK);
    const rows = (await tx.query(`${sql} (${placeholders(chunk)})`, chunk)) as { id: number | string }[];
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

/** One look-up of a UNION ALL (unionInChunks): rows of `type` among `ids`. */
interface Lookup {
  type: string;
  ids: number[];
  /** The part's parameters before the ids (default: the type, for `? AS type`). */
  head?: unknown[];
  /** The look-up's FROM … WHERE on `t`, given the id list in parentheses. */
  from: (list: string) => string;
}

/**
 * Look-ups as few statements: each a UNION ALL of `select(lookup, list)` parts of at most
 * CHUNK ids in all, with the type as the first parameter of each part; every part is numbered
 * (`part`) so that the rows can be put back in the look-ups' order (byPart).
 */
function unionInChunks(lookups: Lookup[], select: (lookup: Lookup, list: string) => string): { sql: string; params: unknown[] }[] {
  const out: { sql: string; params: unknown[] }[] = [];
  let parts: string[] = [];
  let params: unknown[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length > 0) out.push({ sql: parts.join(' UNION ALL '), params });
    parts = [];
    params = [];
    size = 0;
  };
  let part = 0;
  for (const lookup of lookups) {
    for (let at = 0; at < lookup.ids.length; at += CHUNK) {
      const chunk = lookup.ids.slice(at, at + CHUNK);
      if (size + chunk.length > CHUNK) flush();
      parts.push(select(lookup, `(${placeholders(chunk)})`).replace(/^SELECT /, `SELECT ${part++} AS part, `));
      params.push(...(lookup.head ?? [lookup.type]), ...chunk);
      size += chunk.length;
    }
  }
  flush();
  return out;
}

/** Rows of a UNION ALL from unionInChunks in the order of its parts (within a part, as they came). */
function byPart<R extends { part: number | string }>(rows: R[]): R[] {
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => Number(a.row.part) - Number(b.row.part) || a.i - b.i)
    .map((x) => x.row);
}

/** A change with the seq the counter gave it. */
export type NumberedChange = { type: ChangeKindName; id: number; seq: number };

/**
 * Writes the change rows of `changes` inside `tx`, as the transaction's last statements: the
 * counter raised by their number — which locks its row until the commit (ChangeCounterEntity) —
 * then the items' states, and the rows upserted with the seqs the counter gave and the states.
 * Each of `outboxes` (the webhook outbox, src/sync) says, once the version of its own counter
 * row is read, whether it needs to know which items the log had before (read with the states,
 * `ItemState.logged`), and runs just before the upsert, in the same transaction. Returns the
 * highest seq (the write's sync token).
 *
 * The states are read after the counter is taken, so they are the items' states at this
 * write's commit: every write that changed one of them and committed before has committed (on
 * MySQL a READ COMMITTED statement sees it), and every later one needs the counter, so it
 * commits after this one with a higher seq and its own states. Read before the counter, a
 * write that records an item it did not change itself (an event of a renamed venue) could
 * write back a status another write had just changed.
 */
export async function appendChanges(
  tx: EntityManager,
  kind: DialectKind,
  changes: ChangeSet,
  changedUtc: string,
  outboxes: readonly ChangeLogOutbox[] = [],
): Promise<number> {
  await changes.complete(tx);
  const rows = changes.entries();
  await tx.query(`UPDATE change_counter SET seq = seq + ? WHERE name = '${LOG}'`, [rows.length]);
  // The counters (the log's and the versions the outboxes follow) in the statement that reads the states.
  const names = [LOG, ...outboxes.map((o) => o.counter)];
  const { states, counters } = await statesOf(tx, changes.kinds, rows, outboxes.length > 0, names);
  const seqOf = (name: string) => counters.get(name) ?? 0;
  const top = seqOf(LOG);
  const first = top - rows.length + 1;
  for (const outbox of outboxes) await outbox.atVersion(seqOf(outbox.counter));
  // The outboxes, while the log still shows what existed before this write.
  const numbered = rows.map((r, i) => ({ ...r, seq: first + i }));
  for (const outbox of outboxes) await outbox.enqueue(numbered, states);
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
        const published = changes.kinds.alwaysPublic(r.type) || state?.status === 'publish';
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

/** The change_counter row of the change log itself (other rows are versions that listeners keep: ChangeLogOutbox.counter). */
const LOG = 'log';

/** The change log's counter: the seq of the last change numbered (every write raises it in its transaction). */
export async function logCounter(db: Runner): Promise<string> {
  const rows = (await db.query(`SELECT seq FROM change_counter WHERE name = '${LOG}'`)) as { seq: number | string }[];
  return String(rows[0]?.seq ?? 0);
}

/** What the change log keeps of an item's state (ChangeEntity); a kind without status has only its status, `publish`. */
export interface ItemState {
  authorId: number | null;
  status: string;
  dateUtc: string | null;
  modifiedUtc: string | null;
  /** Had the log a row of the item before this write (read only when asked: statesOf's `logged`)? */
  logged?: boolean;
}

/**
 * A listener that joins the writing of the change rows inside the write's transaction (the
 * webhook outbox, src/sync/webhooks): made for one write by a WriteParticipant's `changeLog`.
 */
export interface ChangeLogOutbox {
  /** The change_counter row whose seq is the version it follows (read with the log's counter, and given to atVersion). */
  readonly counter: string;
  /** The version of its counter this write read (with the states, which then carry `logged`): before enqueue. */
  atVersion(version: number): Promise<void>;
  /** Just before the change rows are upserted: the changes with their seqs, and the items' states. */
  enqueue(numbered: NumberedChange[], states: ItemStates): Promise<void>;
}

/** The state of each recorded item that exists now, by `type:id`; absent: gone. */
export type ItemStates = Map<string, ItemState>;

/** The change log's columns of an item's state. */
const STATE_COLUMNS = ['author_id', 'status', 'date_utc', 'modified_utc'] as const;

/** The SQL of a kind's state columns on its row `t` (STATE_COLUMNS, in order): its own, else the row's columns of those names. */
const stateColumns = (kind: ChangeKind): readonly string[] => kind.state.columns ?? STATE_COLUMNS.map((c) => `t.${c}`);

/** A kind's condition on its row `t`, followed by AND (empty when it has none). */
const whereAnd = (kind: ChangeKind): string => (kind.state.where ? `${kind.state.where} AND ` : '');

/**
 * The states of the recorded items, by `type:id`, with whether the log had a row of each
 * (`logged`, when asked), and the seqs of the change_counter rows `counters` names: one
 * statement (a UNION ALL of a part per kind, and the counters) per CHUNK items.
 */
export async function statesOf(
  tx: Runner,
  kinds: ChangeKinds,
  rows: { type: ChangeKindName; id: number }[],
  logged = false,
  counters: readonly string[] = [],
): Promise<{ states: ItemStates; counters: Map<string, number> }> {
  const lookups: Lookup[] = [];
  for (const kind of kinds.all()) {
    const ids = rows.filter((r) => r.type === kind.type).map((r) => r.id);
    if (ids.length > 0) lookups.push({ type: kind.type, ids, head: logged ? [kind.type, kind.type] : [kind.type], from: () => '' });
  }
  const kindOf = new Map(kinds.all().map((k) => [k.type, k]));
  const select = (lookup: Lookup, list: string) => {
    const kind = kindOf.get(lookup.type)!;
    const columns = stateColumns(kind).map((c, i) => `${c} AS ${STATE_COLUMNS[i]}`);
    const existed = logged ? ', EXISTS (SELECT 1 FROM change_log c WHERE c.type = ? AND c.item_id = t.id) AS logged' : '';
    return `SELECT ? AS type, t.id, ${columns.join(', ')}${existed} FROM ${kind.state.table} t WHERE ${whereAnd(kind)}t.id IN ${list}`;
  };
  const statements = unionInChunks(lookups, select);
  if (counters.length > 0) {
    // The counters as one more part of the first statement: type '' (no kind has it), the seq as id, the name as status.
    const part = `SELECT -1 AS part, '' AS type, seq AS id, NULL AS author_id, name AS status, NULL AS date_utc, NULL AS modified_utc${logged ? ', 0 AS logged' : ''} FROM change_counter WHERE name IN (${placeholders(counters)})`;
    if (statements.length === 0) statements.push({ sql: part, params: [...counters] });
    else statements[0] = { sql: `${part} UNION ALL ${statements[0].sql}`, params: [...counters, ...statements[0].params] };
  }
  const states: ItemStates = new Map();
  const seqs = new Map<string, number>();
  for (const { sql, params } of statements) {
    const found = (await tx.query(sql, params)) as {
      type: string;
      id: number | string;
      author_id: number | string | null;
      status: string;
      date_utc: string | null;
      modified_utc: string | null;
      logged?: number | string | boolean;
    }[];
    for (const r of found) {
      if (r.type === '') {
        seqs.set(r.status, Number(r.id));
        continue;
      }
      states.set(`${r.type}:${Number(r.id)}`, {
        authorId: r.author_id === null ? null : Number(r.author_id),
        status: r.status,
        dateUtc: r.date_utc,
        modifiedUtc: r.modified_utc,
        ...(logged ? { logged: Number(r.logged) === 1 || r.logged === true } : {}),
      });
    }
  }
  return { states, counters: seqs };
}

type Runner = Pick<EntityManager, 'query'>;

/**
 * Gives every item that has no change row one (sync.md: a client without a token gets every
 * item it can read, from the log) after a bulk load (`seed`) that writes items without change
 * rows. (The migration that made the log latest-wins did the same without the state columns;
 * it keeps its own frozen copy, migrations/shared/frozen-change-log.ts.) The new rows are numbered
 * after the counter, in a block per kind (in the order of `kinds`; a kind's block spans its
 * highest id), and the counter is moved past them. Returns the counter's new value. Runs
 * inside the caller's transaction, which must hold the counter (it raises it first, as every
 * write does).
 */
export async function backfillChangeLog(db: Runner, kinds: ChangeKinds, changedUtc: string): Promise<number> {
  await db.query(`UPDATE change_counter SET seq = seq + 0 WHERE name = '${LOG}'`);
  const [{ top }] = (await db.query(`SELECT seq AS top FROM change_counter WHERE name = '${LOG}'`)) as { top: number | string }[];
  let base = Number(top);
  for (const kind of kinds.all()) {
    const from = `FROM ${kind.state.table} t WHERE ${whereAnd(kind)}`;
    const isPublic = kind.hasStatus ? `CASE WHEN ${stateColumns(kind)[1]} = 'publish' THEN 1 ELSE 0 END` : '1';
    await db.query(
      `INSERT INTO change_log (type, item_id, seq, first_seq, was_public, changed_utc${STATE_COLUMNS.map((c) => `, ${c}`).join('')})
       SELECT ?, t.id, ${base} + t.id, ${base} + t.id, ${isPublic}, ?, ${stateColumns(kind).join(', ')} ${from}
       NOT EXISTS (SELECT 1 FROM change_log c WHERE c.type = ? AND c.item_id = t.id)`,
      [kind.type, changedUtc, kind.type],
    );
    const [{ span }] = (await db.query(`SELECT MAX(t.id) AS span ${from}1 = 1`)) as { span: number | string | null }[];
    base += Number(span ?? 0);
  }
  const [{ highest }] = (await db.query('SELECT MAX(seq) AS highest FROM change_log')) as { highest: number | string | null }[];
  const next = Math.max(Number(top), Number(highest ?? 0));
  await db.query(`UPDATE change_counter SET seq = ? WHERE name = '${LOG}'`, [next]);
  return next;
}
