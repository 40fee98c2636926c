import { DataSource, DataSourceOptions, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { sqliteQueue } from './sqlite-transactions';

/**
 * The ONLY place that knows whether we run on SQLite or MySQL/MariaDB. Everything dialect
 * specific hides behind these named functions.
 */
export type DialectKind = 'sqlite' | 'mysql';

/** What the database connections are doing, for /metrics (calendar_db_pool_*). */
export interface PoolUse {
  /** Connections the pool may open. */
  max: number;
  /** Connections lent out (running a query or a transaction). */
  used: number;
  /** Connections open and idle. */
  free: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

/** The few fields of mysql2's pool (lib/base/pool.js) that say how busy it is. */
interface Mysql2PoolState {
  config?: { connectionLimit?: number };
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/** SQLite's page cache during a bulk load, in KiB (withBulkLoadCache). */
const BULK_LOAD_CACHE_KIB = 256 * 1024;

export class Dialect {
  constructor(readonly kind: DialectKind) {}

  static of(source: DataSource | DataSourceOptions): Dialect {
    const type = source instanceof DataSource ? source.options.type : source.type;
    return new Dialect(type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite');
  }

  /**
   * The connection pool's use. MySQL: mysql2's pool (its counts are not public API, so read
   * defensively: zeros when a release renames them). SQLite: one connection, used while a
   * transaction holds it, with the transactions queued behind it as the waiting (reads outside
   * a transaction do not queue long enough to count).
   */
  poolUse(db: DataSource): PoolUse {
    if (this.kind === 'mysql') {
      const pool = (db.driver as unknown as { pool?: Mysql2PoolState }).pool;
      const all = pool?._allConnections?.length ?? 0;
      const free = pool?._freeConnections?.length ?? 0;
      return { max: pool?.config?.connectionLimit ?? 0, used: all - free, free, waiting: pool?._connectionQueue?.length ?? 0 };
    }
    const queue = sqliteQueue(db);
    const used = queue?.open ? 1 : 0;
    return { max: 1, used, free: 1 - used, waiting: queue?.waiting ?? 0 };
  }

  /**
   * `LOWER(expr) LIKE :param` matching `text` as a case-insensitive substring; returns the SQL
   * and the parameter value. `!` is the escape character on both engines (no backslash games).
   */
  containsInsensitive(expr: string, param: string, text: string): [string, Record<string, string>] {
    const escaped = text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`);
    return [`LOWER(${expr}) LIKE :${param} ESCAPE '!'`, { [param]: `%${escaped}%` }];
  }

  /**
   * A query selecting the ids of events whose search document (`event_search`, see
   * src/events/search-grams.ts) holds every token of the expression bound to `placeholder`
   * (`:name` in a query builder, `?` in a plain query).
   */
  searchCandidates(placeholder: string): string {
    return this.kind === 'mysql'
      ? `SELECT event_id FROM event_search WHERE MATCH(grams) AGAINST (${placeholder} IN BOOLEAN MODE)`
      : `SELECT rowid FROM event_search WHERE event_search MATCH ${placeholder}`;
  }

  /**
   * `expr` as a condition no index may serve, so the planner starts from another one (SQLite
   * takes unary `+` as that hint; MySQL plans well without it).
   */
  unindexed(expr: string): string {
    return this.kind === 'sqlite' ? `+${expr}` : expr;
  }

  /**
   * Runs a plain single-row INSERT into a table with an auto-increment key and returns the new
   * id (what each driver reports differently: better-sqlite3 the rowid, mysql2 a result header).
   */
  async insertReturningId(manager: EntityManager, sql: string, params: unknown[]): Promise<number> {
    const result = (await manager.query(sql, params)) as unknown;
    const id = this.kind === 'mysql' ? (result as { insertId?: number | string }).insertId : (result as number | bigint);
    return Number(id);
  }

  /**
   * Runs a plain multi-row INSERT of `count` rows into a table with an auto-increment key and
   * returns their ids, or null when the engine may interleave them with a concurrent INSERT's
   * (the caller then inserts row by row). SQLite has one writer and reports the last rowid.
   * InnoDB gives the rows of one such INSERT consecutive values (every auto_increment_increment)
   * under innodb_autoinc_lock_mode 0 or 1 and reports the first; under 2 (Galera's) it may not.
   */
  async insertReturningIds(manager: EntityManager, sql: string, params: unknown[], count: number): Promise<number[] | null> {
    let step = 1;
    if (this.kind === 'mysql') {
      const [mode]: { mode: number | string; step: number | string }[] = await manager.query(
        'SELECT @@innodb_autoinc_lock_mode AS mode, @@auto_increment_increment AS step',
      );
      if (Number(mode.mode) === 2) return null;
      step = Number(mode.step);
    }
    const reported = await this.insertReturningId(manager, sql, params);
    const first = this.kind === 'mysql' ? reported : reported - (count - 1);
    return Array.from({ length: count }, (_, i) => first + i * step);
  }

  /** The full-text expression requiring every token (tokens are `[a-z0-9]+`, nothing to escape). */
  searchExpression(tokens: string[]): string {
    return tokens.map((t) => (this.kind === 'mysql' ? `+${t}` : `"${t}"`)).join(' ');
  }

  /** Writes (or replaces) the search documents of these events in one statement. */
  searchWrite(rows: { id: number; document: string }[]): [string, unknown[]] {
    const values = rows.map(() => '(?, ?)').join(', ');
    const params = rows.flatMap((r) => [r.id, r.document]);
    return this.kind === 'mysql'
      ? [`INSERT INTO event_search (event_id, grams) VALUES ${values} ON DUPLICATE KEY UPDATE grams = VALUES(grams)`, params]
      : [`INSERT OR REPLACE INTO event_search (rowid, grams) VALUES ${values}`, params];
  }

  /** Removes the search document of an event deleted for good (the FTS5 table is contentless_delete). */
  searchDelete(id: number): [string, unknown[]] {
    return this.kind === 'mysql' ? ['DELETE FROM event_search WHERE event_id = ?', [id]] : ['DELETE FROM event_search WHERE rowid = ?', [id]];
  }

  /** The smaller of two SQL expressions: MIN() with two arguments on SQLite, LEAST() on MySQL. */
  least(a: string, b: string): string {
    return this.kind === 'mysql' ? `LEAST(${a}, ${b})` : `MIN(${a}, ${b})`;
  }

  /**
   * Copies the listing columns (ListingColumns) of the events `ids` (rows of `events`) onto their
   * rows of the link table `table`, in one statement: SQLite sets the row value
   * from a subquery by primary key, MySQL joins. Rows already equal are left alone (MySQL
   * counts them unchanged; SQLite writes them again, the same bytes).
   */
  copyListingColumns(table: string, events: string, ids: number[]): [string, unknown[]] {
    const list = ids.map(() => '?').join(', ');
    return this.kind === 'mysql'
      ? [
          `UPDATE \`${table}\` l JOIN \`${events}\` e ON e.id = l.event_id ` +
            'SET l.status = e.status, l.hidden = e.hide_from_listings, l.start_date = e.start_date, l.end_date = e.end_date, l.date_utc = e.date_utc ' +
            `WHERE l.event_id IN (${list})`,
          ids,
        ]
      : [
          `UPDATE "${table}" SET (status, hidden, start_date, end_date, date_utc) = ` +
            `(SELECT e.status, e.hide_from_listings, e.start_date, e.end_date, e.date_utc FROM "${events}" e WHERE e.id = "${table}".event_id) ` +
            `WHERE event_id IN (${list}) AND EXISTS (SELECT 1 FROM "${events}" e WHERE e.id = "${table}".event_id)`,
          ids,
        ];
  }

  /**
   * Runs a bulk load (`seed`) with the connection's page cache raised for its duration, then as
   * it was. The connection's cache is 16 MB (better-sqlite3's build default): a load of a
   * million events inserts into indexes (slugs, starts) far larger than that in random order,
   * and every insert would read its pages back from the operating system. The setting is the connection's own (a running
   * server's connections keep theirs) and the CLI's process ends after the load anyway.
   * MySQL/MariaDB's buffer pool is the server's, shared by all: nothing to raise per session.
   */
  async withBulkLoadCache<T>(db: DataSource, work: () => Promise<T>): Promise<T> {
    if (this.kind !== 'sqlite') return work();
    const [{ cache_size: before }] = (await db.query('PRAGMA cache_size')) as { cache_size: number }[];
    await db.query(`PRAGMA cache_size = -${BULK_LOAD_CACHE_KIB}`);
    try {
      return await work();
    } finally {
      await db.query(`PRAGMA cache_size = ${Number(before)}`);
    }
  }

  /**
   * Runs a bulk load of these tables with their secondary indexes dropped, and builds them again
   * afterwards, whether the load succeeded or not: one sorted build per index costs a fraction
   * of keeping every index in step row by row once the indexes outgrow the cache (a million
   * events). The primary keys stay. The definitions are read from the
   * database itself (sqlite_master; information_schema.STATISTICS), so a migration that changes
   * an index needs no change here. For tables nobody reads meanwhile (the seed of an empty
   * calendar): until the build, lookups on these tables are scans.
   */
  async withIndexesDeferred<T>(db: DataSource, tables: string[], work: () => Promise<T>): Promise<T> {
    const indexes = this.kind === 'mysql' ? await mysqlIndexes(db, tables) : await sqliteIndexes(db, tables);
    for (const index of indexes) await db.query(index.drop);
    let result: T;
    try {
      result = await work();
    } catch (err) {
      await buildIndexes(db, indexes).catch(() => undefined); // the load's error is the one to report
      throw err;
    }
    await buildIndexes(db, indexes);
    return result;
  }

  /**
   * The index hint that follows a table name in FROM: the planner must read through `index`
   * (MySQL FORCE INDEX; SQLite INDEXED BY, which fails the statement when the index is gone).
   */
  usingIndex(index: string): string {
    return this.kind === 'mysql' ? `FORCE INDEX (\`${index}\`)` : `INDEXED BY "${index}"`;
  }

  /** Refresh the planner's table statistics (after bulk loads). */
  analyzeStatement(tables: string[]): string {
    return this.kind === 'mysql' ? `ANALYZE TABLE ${tables.map((t) => `\`${t}\``).join(', ')}` : 'ANALYZE';
  }

  /**
   * The isolation level of write transactions. On MySQL/MariaDB READ COMMITTED: every read
   * inside a write sees the latest committed rows (a writer that lost a race on a unique key
   * then finds the winner's row), and InnoDB takes no gap locks, which made concurrent writers
   * of the same link tables deadlock. SQLite runs one write at a time (serializable anyway).
   */
  get writeIsolation(): 'READ COMMITTED' | undefined {
    return this.kind === 'mysql' ? 'READ COMMITTED' : undefined;
  }

  /**
   * `sql` (a SELECT) reading the latest committed rows and keeping them from being changed
   * until the transaction ends (MySQL: a shared lock; SQLite: writes are serialised already).
   */
  lockForShare(sql: string): string {
    return this.kind === 'mysql' ? `${sql} LOCK IN SHARE MODE` : sql;
  }

  /**
   * `qb` (a SELECT of rows a write is about to change) reading the latest committed rows and
   * keeping other writers off them until the transaction ends (MySQL: FOR UPDATE), so that a
   * concurrent update and delete of one item take turns instead of overwriting each other.
   * SQLite runs one write at a time.
   */
  lockForUpdate<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return this.kind === 'mysql' ? qb.setLock('pessimistic_write') : qb;
  }

  /**
   * Holds the named lock until the transaction ends; concurrent writers asking for the same name
   * wait (on every instance sharing the database). The row stays for the next writer. MySQL:
   * the upsert takes an exclusive lock on the row at once (no shared lock to upgrade, so two
   * writers cannot deadlock on it) and changes it (`taken`), so that a Galera cluster certifies
   * it: of two writers through different nodes one fails at COMMIT and is retried. SQLite: the
   * write itself takes the database's write lock.
   */
  async lockName(manager: EntityManager, name: string): Promise<void> {
    await manager.query(
      this.kind === 'mysql'
        ? 'INSERT INTO write_locks (name) VALUES (?) ON DUPLICATE KEY UPDATE taken = taken + 1'
        : 'INSERT OR IGNORE INTO write_locks (name) VALUES (?)',
      [name],
    );
  }

  /**
   * Is the server behind `db` MariaDB rather than MySQL? TypeORM reads the column metadata of
   * the two differently and learns which one it talks to only from the `type` option.
   */
  async isMariaDbServer(db: DataSource): Promise<boolean> {
    if (this.kind !== 'mysql') return false;
    const [row] = (await db.query('SELECT VERSION() AS version')) as { version: string }[];
    return /mariadb/i.test(row?.version ?? '');
  }

  /** Is `db` a node of a Galera cluster? (MariaDB answers wsrep_on; MySQL and SQLite have no such thing.) */
  async isGaleraNode(db: DataSource): Promise<boolean> {
    if (this.kind !== 'mysql') return false;
    try {
      const rows = (await db.query("SHOW VARIABLES LIKE 'wsrep_on'")) as { Value?: string }[];
      return rows[0]?.Value === 'ON';
    } catch {
      return false;
    }
  }

  /**
   * Should the transaction simply be run again? A lost race on a unique key, or (MySQL) a
   * deadlock (1213; on Galera also a certification failure at COMMIT), a lock wait timeout
   * (1205), or a cluster node not ready for queries (1047).
   */
  isRetryable(err: unknown): boolean {
    if (this.isUniqueViolation(err)) return true;
    const { errno, code } = driverCode(err);
    return this.kind === 'mysql' ? errno === 1213 || errno === 1205 || errno === 1047 : code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
  }

  /** Did this error come from a unique index? */
  isUniqueViolation(err: unknown): boolean {
    const { errno, code } = driverCode(err);
    return this.kind === 'mysql' ? errno === 1062 || code === 'ER_DUP_ENTRY' : /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(code ?? '');
  }

  /**
   * Did this error come from the unique index `index` on `columns` of `table`? MySQL names the
   * index in its message ("… for key 'events.uq_events_live_slug'"), SQLite the columns
   * ("UNIQUE constraint failed: events.live_slug").
   */
  violatesUnique(err: unknown, table: string, index: string, columns: string[]): boolean {
    if (!this.isUniqueViolation(err)) return false;
    const message = String((err as { driverError?: { message?: string } })?.driverError?.message ?? (err as Error)?.message ?? '');
    return this.kind === 'mysql'
      ? new RegExp(`for key '(?:${table}\\.)?${index}'`).test(message)
      : message.includes(`failed: ${columns.map((c) => `${table}.${c}`).join(', ')}`);
  }
}

function driverCode(err: unknown): { errno?: number; code?: string } {
  const e = err as { errno?: number; code?: string; driverError?: { errno?: number; code?: string } };
  return { errno: e?.driverError?.errno ?? e?.errno, code: e?.driverError?.code ?? e?.code };
}

/** A secondary index dropped for a bulk load: the statements that drop it and build it again. */
interface DeferredIndex {
  drop: string;
  build: string;
  /** MySQL/MariaDB: indexes of one table built by one ALTER TABLE (a FULLTEXT index alone). */
  table?: string;
  fulltext?: boolean;
}

/** SQLite: the indexes a CREATE INDEX made (not the automatic ones of PRIMARY KEY/UNIQUE constraints). */
async function sqliteIndexes(db: DataSource, tables: string[]): Promise<DeferredIndex[]> {
  if (tables.length === 0) return [];
  const rows = (await db.query(
    `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(', ')}) ORDER BY tbl_name, name`,
    tables,
  )) as { name: string; sql: string }[];
  return rows.map((r) => ({ drop: `DROP INDEX "${r.name.replace(/"/g, '""')}"`, build: r.sql }));
}

interface StatisticsRow {
  table: string;
  name: string;
  nonUnique: number | string;
  type: string;
  column: string | null;
  subPart: number | null;
  collation: string | null;
}

/**
 * MySQL/MariaDB: every index but PRIMARY, from information_schema.STATISTICS (columns in index
 * order, prefix lengths and descending parts kept). A table with an index on an expression
 * (no column name) keeps all its indexes: its definition is not in these rows.
 */
async function mysqlIndexes(db: DataSource, tables: string[]): Promise<DeferredIndex[]> {
  if (tables.length === 0) return [];
  const rows = (await db.query(
    `SELECT TABLE_NAME AS \`table\`, INDEX_NAME AS name, NON_UNIQUE AS nonUnique, INDEX_TYPE AS type, COLUMN_NAME AS \`column\`, SUB_PART AS subPart, COLLATION AS collation
       FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME <> 'PRIMARY' AND TABLE_NAME IN (${tables.map(() => '?').join(', ')})
      ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    tables,
  )) as StatisticsRow[];
  const byIndex = new Map<string, StatisticsRow[]>();
  for (const row of rows) {
    const key = `${row.table}\u0000${row.name}`;
    byIndex.set(key, [...(byIndex.get(key) ?? []), row]);
  }
  const opaque = new Set(rows.filter((r) => r.column === null).map((r) => r.table));
  const indexes: DeferredIndex[] = [];
  for (const parts of byIndex.values()) {
    const [{ table, name, nonUnique, type }] = parts;
    if (opaque.has(table)) continue;
    const fulltext = type === 'FULLTEXT';
    const kind = fulltext ? 'FULLTEXT INDEX' : Number(nonUnique) === 0 ? 'UNIQUE INDEX' : 'INDEX';
    const columns = parts.map((p) => `${mysqlName(p.column!)}${p.subPart ? `(${Number(p.subPart)})` : ''}${p.collation === 'D' ? ' DESC' : ''}`);
    indexes.push({
      table,
      fulltext,
      drop: `ALTER TABLE ${mysqlName(table)} DROP INDEX ${mysqlName(name)}`,
      build: `ADD ${kind} ${mysqlName(name)} (${columns.join(', ')})`,
    });
  }
  return indexes;
}

/**
 * Builds dropped indexes again. SQLite: one CREATE INDEX each. MySQL/MariaDB: one ALTER TABLE per
 * table for its ordinary indexes (one pass over the rows) and one per FULLTEXT index (InnoDB
 * builds those one at a time), with FORCE: on MariaDB 10.11 a FULLTEXT index added in place to
 * a table filled while it had none (its hidden FTS_DOC_ID column kept from the dropped index)
 * matched nothing, until the table was rebuilt (seed-indexes.e2e-spec.ts).
 */
async function buildIndexes(db: DataSource, indexes: DeferredIndex[]): Promise<void> {
  const alters = new Map<string, string[]>();
  for (const index of indexes) {
    if (index.table === undefined) await db.query(index.build);
    else if (index.fulltext) await db.query(`ALTER TABLE ${mysqlName(index.table)} ${index.build}, FORCE`);
    else alters.set(index.table, [...(alters.get(index.table) ?? []), index.build]);
  }
  for (const [table, builds] of alters) await db.query(`ALTER TABLE ${mysqlName(table)} ${builds.join(', ')}`);
}

/** A MySQL/MariaDB identifier, quoted. */
function mysqlName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
