import { utcSqlMillis, wallToUtc } from '../common/datetime/format';
import { expandRecurrence, Expansion } from './expand';
import { formatRecurrence, parseRecurrence, RecurrenceError, RecurrenceRule, SeriesTiming } from './recurrence-rule';

/** The limits of recurrence.md §2–§3, from configuration. */
export interface RecurrenceLimits {
  /** CALENDAR_RECURRENCE_MAX (default 1,000): most occurrences a rule may give up to the horizon. */
  max: number;
  /** now + CALENDAR_RECURRENCE_HORIZON_DAYS (default 730), UTC `YYYY-MM-DD HH:MM:SS`. */
  horizon: string;
}

export const DEFAULT_RECURRENCE_MAX = 1000;
export const DEFAULT_HORIZON_DAYS = 730;

/** A valid `recurrence` field: the rule, its canonical lines, and its occurrences up to the horizon. */
export interface ValidRecurrence {
  rule: RecurrenceRule;
  lines: string[];
  expansion: Expansion;
  /** The horizon it was expanded to (UTC): where the series' made occurrences end. */
  horizon: string;
}

const YEAR_MS = 366 * 86_400_000;
/** The longest RRULE value line taken: every part with every value fits in a few hundred characters. */
export const MAX_RRULE_LENGTH = 1000;

/**
 * Checks a `recurrence` write field (recurrence.md §2) for a series with this timing, and
 * returns it read, in canonical lines, and expanded up to the horizon. Throws RecurrenceError
 * with the message for `data.params.recurrence` for: not an array of strings; a line that
 * does not parse; a second RRULE; FREQ missing or finer than DAILY; COUNT with UNTIL; no
 * occurrence at all (none up to the horizon, or in its first year when the series starts
 * later); more than `limits.max` occurrences up to the horizon; an RDATE before the series'
 * start; any line with `scope=this`.
 * `[]` is valid here and means "no series" (the caller ends the series, §2).
 */
export function validateRecurrence(input: unknown, timing: SeriesTiming, limits: RecurrenceLimits, scope?: string): ValidRecurrence {
  // A write checks its field before anything is written and uses it after: the same array, read once.
  const key = JSON.stringify([timing, limits.max, scope ?? null]);
  const known = Array.isArray(input) ? CHECKED.get(input) : undefined;
  if (known && known.key === key && utcSqlMillis(limits.horizon) - utcSqlMillis(known.valid.horizon) < REUSE_MS) return known.valid;
  const valid = validated(input, timing, limits, scope);
  if (Array.isArray(input)) CHECKED.set(input, { key, valid });
  return valid;
}

/** Results by the field's array, for the rest of the write that sent it (what it was checked for, and against which horizon). */
const CHECKED = new WeakMap<readonly unknown[], { key: string; valid: ValidRecurrence }>();
/** How much older a horizon may be for its result to serve again: one request's time, with a margin. */
const REUSE_MS = 60_000;

function validated(input: unknown, timing: SeriesTiming, limits: RecurrenceLimits, scope?: string): ValidRecurrence {
  if (!Array.isArray(input) || !input.every((line) => typeof line === 'string')) {
    throw new RecurrenceError('Must be an array of RRULE, RDATE and EXDATE lines.');
  }
  const lines = input as string[];
  if (lines.length > 0 && scope === 'this') throw new RecurrenceError('recurrence cannot be changed with scope=this.');
  // Sizes first, before any work that grows with them: one line per RDATE and EXDATE at most,
  // and an RRULE no longer than any real one.
  if (lines.length > 2 * limits.max + 1) throw new RecurrenceError(`At most ${2 * limits.max + 1} lines are allowed.`);
  const long = lines.find((line) => /^\s*RRULE/i.test(line) && line.length > MAX_RRULE_LENGTH);
  if (long !== undefined) throw new RecurrenceError(`An RRULE line may be at most ${MAX_RRULE_LENGTH} characters long.`);
  const rule = parseRecurrence(lines, timing);
  // An excluded start costs every representation of every occurrence a line: as bounded as RDATEs.
  if (rule.exdates.length > limits.max) throw new RecurrenceError(`At most ${limits.max} EXDATE values are allowed.`);
  if (lines.length === 0) return { rule, lines: [], expansion: { occurrences: [], truncated: false }, horizon: limits.horizon };

  const startUtc = wallToUtc(timing.startDate, timing.timezone);
  const startMs = utcSqlMillis(startUtc);
  const horizonMs = utcSqlMillis(limits.horizon);
  const to = horizonMs > startMs ? limits.horizon : new Date(startMs + YEAR_MS).toISOString().slice(0, 19).replace('T', ' ');
  // More RDATEs than the maximum need not be placed to be refused.
  if (rule.rdates.length > limits.max) throw new RecurrenceError(`The rule gives more than ${limits.max} occurrences before the horizon.`);
  const expansion = expandRecurrence(timing, rule, { to }, limits.max);
  if (expansion.occurrences.length === 0) throw new RecurrenceError('The rule gives no occurrence.');
  // The event written is the series' first occurrence and its key (recurrence.md §3).
  const early = expansion.occurrences.find((o) => o.utcStart < startUtc);
  if (early) throw new RecurrenceError(`RDATE ${early.start} is before the series' start; make it the event's start instead.`);
  if (expansion.truncated) throw new RecurrenceError(`The rule gives more than ${limits.max} occurrences before the horizon.`);
  return { rule, lines: formatRecurrence(rule), expansion, horizon: limits.horizon };
}
