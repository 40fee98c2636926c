// When a source runs next (sources.md §2–3), pure.
import { DateTime } from 'luxon';

/** sources.md §3: the wait after failures doubles with each, up to a day. */
export const MAX_BACKOFF_SECONDS = 24 * 60 * 60;

const SQL = 'yyyy-MM-dd HH:mm:ss';

/** A UTC `YYYY-MM-DD HH:MM:SS` plus `seconds` (whole seconds, rounded up). */
export function addSeconds(utc: string, seconds: number): string {
  return DateTime.fromFormat(utc, SQL, { zone: 'utc' })
    .plus({ seconds: Math.ceil(seconds) })
    .toFormat(SQL);
}

/**
 * The wait after a run: the interval after a success (`failures` 0), doubled for each failure in
 * a row, up to a day (or the interval when that is longer). `minuteSeconds`: the length of a
 * minute of the interval (60; shorter in tests).
 */
export function waitSeconds(intervalMinutes: number, failures: number, minuteSeconds: number): number {
  const interval = intervalMinutes * minuteSeconds;
  if (failures <= 0) return interval;
  return Math.max(interval, Math.min(interval * 2 ** Math.min(failures, 30), MAX_BACKOFF_SECONDS * (minuteSeconds / 60)));
}

/**
 * The next scheduled run of a source as it is now set: none when disabled or by hand only; else
 * the wait after its last run (with its failures), or now when that is past or it never ran.
 */
export function nextRunAfter(
  source: { enabled: boolean; intervalMinutes: number; failures: number },
  lastFinishedUtc: string | null,
  nowUtc: string,
  minuteSeconds: number,
): string | null {
  if (!source.enabled || source.intervalMinutes === 0) return null;
  if (lastFinishedUtc === null) return nowUtc;
  const next = addSeconds(lastFinishedUtc, waitSeconds(source.intervalMinutes, source.failures, minuteSeconds));
  return next < nowUtc ? nowUtc : next;
}
