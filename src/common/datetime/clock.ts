import { DateTime } from 'luxon';
import { formatSql } from './format';

/** Current time in UTC, `YYYY-MM-DD HH:MM:SS`. */
export function nowUtcSql(): string {
  return formatSql(DateTime.utc());
}
