import { DateTime } from 'luxon';
import { formatSql } from '../common/datetime/format';
import { endOfDay, parseDateInput, startOfDay } from '../common/datetime/parse-date';
import { PARAM_MESSAGES } from '../common/errors';
import { toLooseBool } from '../common/params';

export interface DateWindow {
  startFrom?: string;
  startTo?: string;
  endFrom?: string;
  endTo?: string;
  /** The effective start_date/end_date to echo in rest_url (spec resources.md §8.2). */
  echo: { start_date?: string; end_date?: string };
}

export interface WindowInput {
  start_date?: string;
  end_date?: string;
  strict_dates?: string;
  starts_before?: string;
  starts_after?: string;
  ends_before?: string;
  ends_after?: string;
  include?: number[];
}

/**
 * The date bounds of an event list (spec endpoints.md §4.1.1–§4.1.2), as wall-clock strings in
 * the site zone. `bad` collects unparsable parameters.
 */
export function dateWindow(q: WindowInput, siteZone: string, now: DateTime): { window: DateWindow; bad: Record<string, string> } {
  const bad: Record<string, string> = {};
  const strict = q.strict_dates !== undefined && toLooseBool(q.strict_dates);
  const parse = (name: keyof WindowInput): DateTime | undefined => {
    const value = q[name];
    if (value === undefined) return undefined;
    const dt = parseDateInput(value, siteZone, now);
    if (!dt) bad[name] = PARAM_MESSAGES.date;
    return dt ?? undefined;
  };
  const sql = (dt: DateTime | undefined, widen: (d: DateTime) => DateTime) => (dt ? formatSql(strict ? dt : widen(dt)) : undefined);

  const window: DateWindow = { echo: {} };
  const given = { start: parse('start_date'), end: parse('end_date') };
  const bounds = {
    startsBefore: parse('starts_before'),
    startsAfter: parse('starts_after'),
    endsBefore: parse('ends_before'),
    endsAfter: parse('ends_after'),
  };
  if (q.include !== undefined) return { window, bad }; // include ignores every date bound

  const anyBound = Object.values(bounds).some((b) => b !== undefined) || ['starts_before', 'starts_after', 'ends_before', 'ends_after'].some((k) => bad[k]);
  const localNow = now.setZone(siteZone);
  const start = given.start ?? (anyBound ? undefined : localNow.minus({ days: 1 }));
  const end = given.end ?? (anyBound ? undefined : localNow.plus({ months: 24 }));
  window.startFrom = sql(start, startOfDay);
  window.endTo = sql(end, endOfDay);
  window.echo = { start_date: window.startFrom, end_date: window.endTo };

  // Each extra bound X is moved to 23:59:59 of its day unless strict (spec §4.1.2).
  const startsAfter = sql(bounds.startsAfter, endOfDay);
  const startsBefore = sql(bounds.startsBefore, endOfDay);
  const endsAfter = sql(bounds.endsAfter, endOfDay);
  const endsBefore = sql(bounds.endsBefore, endOfDay);
  window.startFrom = maxOf(window.startFrom, startsAfter);
  window.startTo = startsBefore;
  window.endFrom = endsAfter;
  window.endTo = minOf(window.endTo, endsBefore);
  return { window, bad };
}

const minOf = (a?: string, b?: string) => (a === undefined ? b : b === undefined ? a : a < b ? a : b);
const maxOf = (a?: string, b?: string) => (a === undefined ? b : b === undefined ? a : a > b ? a : b);
