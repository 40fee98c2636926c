import { DateTime, Settings } from 'luxon';
import { formatSql } from './format';

/** The last second formatted, and its text (most calls fall in the same second as the previous one). */
let lastSecond = Number.NaN;
let lastText = '';

/**
 * Current time in UTC, `YYYY-MM-DD HH:MM:SS`. Formatted once per second: every request asks
 * (scheduled events due are shown published on read), and building a luxon DateTime for it was ~2% of a
 * cached single read. The clock is luxon's (`Settings.now`), as before.
 */
export function nowUtcSql(): string {
  const second = Math.floor(Settings.now() / 1000);
  if (second !== lastSecond) {
    lastText = formatSql(DateTime.fromMillis(second * 1000, { zone: 'utc' }));
    lastSecond = second;
  }
  return lastText;
}
