import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import { dateWindow, WindowInput } from './event-query';

type Answer = ReturnType<typeof dateWindow>;

const DATE_PARAMS = ['start_date', 'end_date', 'strict_dates', 'starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/** How many sets of date parameters are remembered (a few hundred bytes each). */
const REMEMBERED = 2000;

/**
 * How far the second evaluation's "now" is from the first: more than a year and a day and a half
 * and some seconds, so that no input read against the time (a date without a year, a weekday, a
 * relative step, `now`) comes out the same from both.
 */
const OTHER_NOW = { days: 400, hours: 37, seconds: 13 };

/**
 * The date windows of event lists (event-query.ts dateWindow), remembered by the parameters'
 * values, since reading them goes through luxon and costs more than the rest of a cached list
 * request. The site's zone is fixed for the process, so an answer depends only on the values and,
 * for some inputs, the time:
 *  - no date parameter at all (the default window, a day back and two years ahead, widened to
 *    whole days): by the minute;
 *  - values that read no clock ("2031-03-01", a timestamp): for as long as they are remembered.
 *    Whether they read one is found once per set of values, by evaluating them against a second,
 *    distant "now": the same answer from both means none;
 *  - values that read the clock ("now", "+1 week", "March 5"): by the second (inputs are read at
 *    seconds precision).
 * Answers are frozen: they are shared between requests.
 */
export class DateWindows {
  private readonly remembered = new LRUCache<string, { second: number | null; value: Answer }>({ max: REMEMBERED });
  private defaultWindow?: { minute: number; value: Answer };

  constructor(private readonly zone: string) {}

  of(q: WindowInput, now: DateTime = DateTime.utc()): Answer {
    const isDefault = DATE_PARAMS.every((p) => q[p] === undefined) && q.include === undefined;
    const millis = now.toMillis();
    if (isDefault) {
      const minute = Math.floor(millis / 60_000);
      if (this.defaultWindow?.minute !== minute) this.defaultWindow = { minute, value: frozen(dateWindow(q, this.zone, now)) };
      return this.defaultWindow.value;
    }
    const key = JSON.stringify([...DATE_PARAMS.map((p) => q[p] ?? null), q.include !== undefined]);
    const second = Math.floor(millis / 1000);
    const known = this.remembered.get(key);
    if (known !== undefined && (known.second === null || known.second === second)) return known.value;
    const value = frozen(dateWindow(q, this.zone, now));
    // Already known to read the clock: no need to ask again.
    const timeless = known === undefined && sameAnswer(value, dateWindow(q, this.zone, now.plus(OTHER_NOW)));
    this.remembered.set(key, { second: timeless ? null : second, value });
    return value;
  }
}

function frozen(answer: Answer): Answer {
  Object.freeze(answer.bad);
  Object.freeze(answer.window.echo);
  Object.freeze(answer.window);
  return Object.freeze(answer);
}

function sameAnswer(a: Answer, b: Answer): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
