import type { DataSource, Logger } from 'typeorm';

/** A statement as TypeORM sent it: its text and its parameters. */
export interface LoggedQuery {
  query: string;
  parameters: unknown[];
}

/** Statements sent by timers, whichever request happens to be in flight (quoted or not). */
const TIMER_STATEMENTS = [
  /\bFROM [`"]?(change_counter|webhook_deliveries)\b/,
  /\b(INTO|UPDATE) [`"]?(change_counter|webhook_deliveries)\b/,
  /\bMIN\([`"]?e[`"]?\.[`"]?date_utc[`"]?\) AS [`"]?next[`"]?/,
];

/**
 * What runs on timers, not because of a request: the data-version poll, the webhook worker (its
 * claims and its pruning of the delivery log) and the scheduled-events poll.
 */
export const sentByTimer = (q: LoggedQuery): boolean => TIMER_STATEMENTS.some((pattern) => pattern.test(q.query));

/** From now on every statement `ds` sends is pushed to the array returned, as it is sent. */
export function captureQueries(ds: DataSource): LoggedQuery[] {
  const captured: LoggedQuery[] = [];
  const logger: Logger = {
    logQuery: (query, parameters) => void captured.push({ query, parameters: parameters ?? [] }),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };
  Object.assign(ds, { logger });
  return captured;
}
