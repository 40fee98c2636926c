import { DateTime } from 'luxon';
import { formatSql } from '../common/datetime/format';
import { parseDateInput } from '../common/datetime/parse-date';

/**
 * The publication date of a write (spec endpoints.md §4.3 `date`/`date_utc`): either one given
 * derives the other; none → `fallbackUtc` (now on create, unchanged on update).
 * Returns the UTC value, or null when a given value does not parse (the caller names the param).
 */
export function publicationDateUtc(
  input: { date?: unknown; date_utc?: unknown },
  referenceZone: string,
  now: DateTime,
): { utc?: string; bad: ('date' | 'date_utc')[] } {
  const bad: ('date' | 'date_utc')[] = [];
  let utc: string | undefined;
  if (input.date_utc !== undefined) {
    const parsed = parseDateInput(input.date_utc, 'UTC', now);
    if (parsed) utc = formatSql(parsed.toUTC());
    else bad.push('date_utc');
  }
  if (input.date !== undefined) {
    const parsed = parseDateInput(input.date, referenceZone, now);
    if (!parsed) bad.push('date');
    else if (utc === undefined) utc = formatSql(parsed.toUTC());
  }
  return { utc, bad };
}
