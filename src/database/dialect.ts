import { DataSource, DataSourceOptions, EntityManager } from 'typeorm';

/**
 * The ONLY place that knows whether we run on SQLite or MySQL/MariaDB. Everything dialect
 * specific hides behind these named functions.
 */
export type DialectKind = 'sqlite' | 'mysql';

export class Dialect {
  constructor(readonly kind: DialectKind) {}

  static of(source: DataSource | DataSourceOptions): Dialect {
    const type = source instanceof DataSource ? source.options.type : source.type;
    return new Dialect(type === 'mysql' || type === 'mariadb' ? 'mysql' : 'sqlite');
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

  /**
   * Great-circle distance in km between the row's `latExpr`/`lngExpr` and the point bound to
   * `:{prefix}Lat`/`:{prefix}Lng` (haversine, R = 6371.0 km). The arcsine argument is capped
   * at 1 against rounding: MIN() on SQLite, LEAST() on MySQL.
   */
  distanceKm(latExpr: string, lngExpr: string, prefix: string): string {
    const half = (expr: string) => `SIN(RADIANS(${expr}) / 2)`;
    const dLat = half(`${latExpr} - :${prefix}Lat`);
    const dLng = half(`${lngExpr} - :${prefix}Lng`);
    const a = `${dLat} * ${dLat} + COS(RADIANS(:${prefix}Lat)) * COS(RADIANS(${latExpr})) * ${dLng} * ${dLng}`;
    const capped = this.kind === 'mysql' ? `LEAST(1, SQRT(${a}))` : `MIN(1, SQRT(${a}))`;
    return `(2 * 6371.0 * ASIN(${capped}))`;
  }

  /** Refresh the planner's table statistics (after bulk loads). */
  analyzeStatement(tables: string[]): string {
    return this.kind === 'mysql' ? `ANALYZE TABLE ${tables.map((t) => `\`${t}\``).join(', ')}` : 'ANALYZE';
  }

  /**
   * Should the transaction simply be run again? A lost race on a unique key, or (MySQL) a
   * deadlock or lock wait timeout, which InnoDB resolves by failing one of the transactions.
   */
  isRetryable(err: unknown): boolean {
    if (this.isUniqueViolation(err)) return true;
    const e = err as { errno?: number; driverError?: { errno?: number; code?: string }; code?: string };
    const errno = e?.driverError?.errno ?? e?.errno;
    const code = e?.driverError?.code ?? e?.code;
    return this.kind === 'mysql' ? errno === 1213 || errno === 1205 : code === 'SQLITE_BUSY';
  }

  /** Did this error come from a unique index? */
  isUniqueViolation(err: unknown): boolean {
    const e = err as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } };
    const code = e?.driverError?.code ?? e?.code;
    const errno = e?.driverError?.errno ?? e?.errno;
    return this.kind === 'mysql' ? errno === 1062 || code === 'ER_DUP_ENTRY' : /^SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)$/.test(code ?? '');
  }
}
