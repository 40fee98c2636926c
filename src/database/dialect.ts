import { DataSource, DataSourceOptions } from 'typeorm';

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
