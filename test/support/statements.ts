// The statements the app sends, as it sends them (list-sql, write-statements): TypeORM's logger
// replaced by one that keeps the SQL text.
import { DataSource, Logger } from 'typeorm';

/** Statements sent by timers, whichever request happens to be in flight (quoted or not). */
export const TIMER_STATEMENTS = [
  /\bFROM [`"]?(change_counter|webhook_deliveries)\b/,
  /\b(INTO|UPDATE) [`"]?(change_counter|webhook_deliveries)\b/,
  /\bMIN\([`"]?e[`"]?\.[`"]?date_utc[`"]?\) AS [`"]?next[`"]?/,
];

/** From now on, every statement `ds` sends is pushed to `into`, in order. */
export function captureStatements(ds: DataSource, into: string[]): void {
  const logger: Logger = {
    logQuery: (query) => void into.push(query),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };
  Object.assign(ds, { logger });
}
