import { DateTime, FixedOffsetZone, Zone } from 'luxon';
import { atWallTime, WallTime } from './format';
import { requireZone } from './zones';

/**
 * Our own parser for the subset of PHP's `strtotime` grammar that the spec requires (README §6.2).
 *
 * Three steps: a lexer cuts the lower-cased input into tokens (a date, a clock time, a relative
 * amount such as `+5 days`, a timestamp, a word); a parser folds the tokens into a ParsedInput,
 * the same "what was said" record PHP's timelib builds; an evaluator turns that record into an
 * instant. As in PHP, absolute parts (date, time) are set first and relative parts applied after,
 * whatever their order in the text: `+1 day 2025-03-14` is 2025-03-15.
 *
 * PHP behaviours kept on purpose:
 * - `monday` (or `this monday`) is today if today is a Monday, else the next Monday;
 *   `next monday` is strictly after today; `last monday`/`previous monday` strictly before.
 * - Date words (`today`, `midnight`, `tomorrow`, `yesterday`, weekdays) reset the clock to 00:00,
 *   so a time must come after them: `tomorrow 9am` is 09:00 but `9am tomorrow` is 00:00
 *   (documented PHP behaviour). `noon` is a time (12:00).
 * - Months and years are added to the month number and the day overflows: `2025-01-31 +1 month`
 *   is 2025-03-03. Days and weeks move the calendar date (wall clock kept across DST);
 *   hours, minutes and seconds are elapsed time (PHP >= 8.1).
 * - A digits-only string is a Unix timestamp, even a short one (TEC treats every integer so).
 * Wall times are placed in their zone by atWallTime (format.ts): a time in a spring-forward gap moves
 * forward, a repeated fall-back time is its first occurrence; an instant (`now`, a timestamp, an ISO
 * offset) whose wall time was left unchanged keeps its own offset.
 */

type Unit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'fortnight' | 'month' | 'year';
type Direction = 'this' | 'next' | 'last';

interface ClockTime {
  hour: number;
  minute: number;
  second: number;
}

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

type Token =
  | ({ kind: 'date'; timeFollows: boolean } & CalendarDate)
  | ({ kind: 'time'; offsetMinutes?: number } & ClockTime)
  | { kind: 'timestamp'; seconds: number }
  | { kind: 'relative'; amount: number; unit: Unit }
  | { kind: 'word'; word: string };

interface Relative {
  years: number;
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** What the input said, before it is evaluated against "now". */
interface ParsedInput {
  date?: CalendarDate;
  time?: ClockTime;
  /** A date word or weekday came after any time: the clock reads 00:00:00 unless a later time is given. */
  resetTime: boolean;
  /** From an ISO `Z`/`±HH:MM`: the date and time were read in this fixed offset. */
  offsetMinutes?: number;
  /** From `@1741944600`. */
  instant?: DateTime;
  weekday?: { weekday: number; direction: Direction };
  relative: Relative;
}

const MIDNIGHT: ClockTime = { hour: 0, minute: 0, second: 0 };
const NOON: ClockTime = { hour: 12, minute: 0, second: 0 };

const UNITS: Readonly<Record<string, Unit>> = {
  sec: 'second',
  secs: 'second',
  second: 'second',
  seconds: 'second',
  min: 'minute',
  mins: 'minute',
  minute: 'minute',
  minutes: 'minute',
  hour: 'hour',
  hours: 'hour',
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  fortnight: 'fortnight',
  fortnights: 'fortnight',
  forthnight: 'fortnight', // PHP accepts this spelling too
  forthnights: 'fortnight',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
};

/** ISO weekday numbers, as luxon uses them (1 = Monday … 7 = Sunday). */
const WEEKDAYS: Readonly<Record<string, number>> = {
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
  sunday: 7,
  sun: 7,
};

const DIRECTIONS: Readonly<Record<string, Direction>> = { this: 'this', next: 'next', last: 'last', previous: 'last' };

const DIRECTION_AMOUNT: Readonly<Record<Direction, number>> = { this: 0, next: 1, last: -1 };

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

/** A token ends at whitespace or at the end of the input. */
const END = String.raw`(?=\s|$)`;

function sticky(source: string): RegExp {
  return new RegExp(source, 'y');
}

interface LexRule {
  pattern: RegExp;
  /** null when the text has the right shape but wrong values (hour 25, unknown unit). */
  read(m: RegExpExecArray): Token | null;
}

/** Tried in order at each position; the first pattern that matches decides. */
const LEXICON: readonly LexRule[] = [
  // 2025-03-14, optionally glued to its time by ISO's T: 2025-03-14T09:30:00
  {
    pattern: sticky(String.raw`(\d{4})-(\d{1,2})-(\d{1,2})(?:(t)(?=\d)|${END})`),
    read: (m) => ({ kind: 'date', year: +m[1], month: +m[2], day: +m[3], timeFollows: m[4] !== undefined }),
  },
  // 12-hour clock: 9am, 9 pm, 9:30pm, 9:30:15 a.m.
  {
    pattern: sticky(String.raw`(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?\s*([ap])\.?m\.?${END}`),
    read: (m) => twelveHourClock(+m[1], +(m[2] ?? 0), +(m[3] ?? 0), m[4] === 'p'),
  },
  // 24-hour clock: 14:00, 14:00:00, and ISO's 09:30:00.000Z / 09:30:00+02:00 / 09:30-0400
  {
    pattern: sticky(String.raw`(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(z|[+-]\d{2}(?::?\d{2})?)?${END}`),
    read: (m) => twentyFourHourClock(+m[1], +m[2], +(m[3] ?? 0), m[4]),
  },
  // PHP's explicit timestamp: @1741944600
  {
    pattern: sticky(String.raw`@(-?\d+)${END}`),
    read: (m) => timestamp(m[1]),
  },
  // +1 day, -2 weeks, 3 months, +7200 seconds
  {
    pattern: sticky(String.raw`([+-]?)(\d+)\s*([a-z]+)${END}`),
    read: (m) => {
      const unit = UNITS[m[3]];
      const amount = Number(m[2]);
      if (unit === undefined || !Number.isSafeInteger(amount)) return null;
      return { kind: 'relative', amount: m[1] === '-' ? -amount : amount, unit };
    },
  },
  {
    pattern: sticky(String.raw`[a-z]+${END}`),
    read: (m) => ({ kind: 'word', word: m[0] }),
  },
];

function twelveHourClock(hour: number, minute: number, second: number, pm: boolean): Token | null {
  if (hour < 1 || hour > 12 || minute > 59 || second > 59) return null;
  return { kind: 'time', hour: (hour % 12) + (pm ? 12 : 0), minute, second };
}

function twentyFourHourClock(hour: number, minute: number, second: number, offset?: string): Token | null {
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (offset === undefined) return { kind: 'time', hour, minute, second };
  const offsetMinutes = parseUtcOffset(offset);
  return offsetMinutes === null ? null : { kind: 'time', hour, minute, second, offsetMinutes };
}

/** `z`, `+02`, `+0200`, `-04:00` → minutes east of UTC. */
function parseUtcOffset(text: string): number | null {
  if (text === 'z') return 0;
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return (text[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function timestamp(digits: string): Token | null {
  const seconds = Number(digits);
  return Number.isSafeInteger(seconds) ? { kind: 'timestamp', seconds } : null;
}

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    if (/\s/.test(text[pos])) {
      pos++;
      continue;
    }
    const lexed = readToken(text, pos);
    if (!lexed?.token) return null;
    tokens.push(lexed.token);
    pos = lexed.end;
  }
  return tokens;
}

function readToken(text: string, pos: number): { token: Token | null; end: number } | undefined {
  for (const rule of LEXICON) {
    rule.pattern.lastIndex = pos;
    const match = rule.pattern.exec(text);
    if (match) return { token: rule.read(match), end: rule.pattern.lastIndex };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Parser: tokens → ParsedInput. Each step returns false when the input makes no sense.
// ---------------------------------------------------------------------------------------------

function setTime(p: ParsedInput, time: ClockTime, offsetMinutes?: number): boolean {
  if (p.time || p.instant) return false; // "double time", as PHP says
  if (offsetMinutes !== undefined) {
    if (p.offsetMinutes !== undefined) return false;
    p.offsetMinutes = offsetMinutes;
  }
  p.time = { hour: time.hour, minute: time.minute, second: time.second };
  return true;
}

/** today, midnight, tomorrow, yesterday and weekdays put the clock back to 00:00:00. */
function resetTime(p: ParsedInput): void {
  p.time = undefined;
  p.resetTime = true;
}

function addRelative(p: ParsedInput, unit: Unit, amount: number): void {
  const r = p.relative;
  switch (unit) {
    case 'second':
      r.seconds += amount;
      break;
    case 'minute':
      r.minutes += amount;
      break;
    case 'hour':
      r.hours += amount;
      break;
    case 'day':
      r.days += amount;
      break;
    case 'week':
      r.days += 7 * amount;
      break;
    case 'fortnight':
      r.days += 14 * amount;
      break;
    case 'month':
      r.months += amount;
      break;
    case 'year':
      r.years += amount;
      break;
  }
}

function setWeekday(p: ParsedInput, weekday: number, direction: Direction): boolean {
  if (p.weekday) return false;
  p.weekday = { weekday, direction };
  resetTime(p);
  return true;
}

/** `next wednesday`, `last friday`, `this monday`, `next month`, `last week`. */
function applyDirected(p: ParsedInput, direction: Direction, word: string): boolean {
  const weekday = WEEKDAYS[word];
  if (weekday !== undefined) return setWeekday(p, weekday, direction);
  const unit = UNITS[word];
  if (unit === undefined) return false;
  addRelative(p, unit, DIRECTION_AMOUNT[direction]);
  return true;
}

function applyWord(p: ParsedInput, word: string): boolean {
  switch (word) {
    case 'now':
      return true;
    case 'today':
    case 'midnight':
      resetTime(p);
      return true;
    case 'noon':
      return setTime(p, NOON);
    case 'tomorrow':
      resetTime(p);
      p.relative.days += 1;
      return true;
    case 'yesterday':
      resetTime(p);
      p.relative.days -= 1;
      return true;
    case 'ago': {
      // PHP: "ago" turns round every relative amount read so far: "2 days ago"
      const r = p.relative;
      if (Object.values(r).every((v) => v === 0)) return false;
      for (const key of Object.keys(r) as (keyof Relative)[]) r[key] = -r[key];
      return true;
    }
  }
  const weekday = WEEKDAYS[word];
  return weekday !== undefined && setWeekday(p, weekday, 'this');
}

function parseTokens(tokens: Token[]): ParsedInput | null {
  const p = emptyParse();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    let ok: boolean;
    switch (token.kind) {
      case 'date':
        // an ISO "T" must be followed by a time
        ok = !p.date && !p.instant && (!token.timeFollows || tokens[i + 1]?.kind === 'time');
        p.date = { year: token.year, month: token.month, day: token.day };
        break;
      case 'time':
        ok = setTime(p, token, token.offsetMinutes);
        break;
      case 'timestamp':
        ok = !p.date && !p.time && !p.instant;
        p.instant = DateTime.fromSeconds(token.seconds, { zone: 'utc' });
        break;
      case 'relative':
        addRelative(p, token.unit, token.amount);
        ok = true;
        break;
      case 'word': {
        const direction = DIRECTIONS[token.word];
        if (direction === undefined) {
          ok = applyWord(p, token.word);
        } else {
          const next = tokens[++i];
          ok = next?.kind === 'word' && applyDirected(p, direction, next.word);
        }
        break;
      }
    }
    if (!ok) return null;
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Evaluator: ParsedInput + now → instant. Calendar steps run on a bare date (a luxon DateTime in
// UTC used only for its calendar), so daylight saving plays no part until the wall time is placed
// in its zone by atWallTime (gap: moved forward; overlap: the earlier instant).
// ---------------------------------------------------------------------------------------------

function moveToWeekday(day: DateTime, target: { weekday: number; direction: Direction }): DateTime {
  if (target.direction === 'last') {
    const back = (day.weekday - target.weekday + 7) % 7 || 7;
    return day.minus({ days: back });
  }
  const ahead = (target.weekday - day.weekday + 7) % 7;
  return day.plus({ days: ahead === 0 && target.direction === 'next' ? 7 : ahead });
}

/** PHP adds to the month number and lets the day overflow: 2025-01-31 +1 month → 2025-03-03. */
function addCalendarUnits(day: DateTime, r: Relative): DateTime {
  const months = r.years * 12 + r.months;
  if (months === 0) return r.days === 0 ? day : day.plus({ days: r.days });
  return day
    .startOf('month')
    .plus({ months })
    .plus({ days: day.day - 1 + r.days });
}

function sameWallTime(wall: WallTime, dt: DateTime): boolean {
  return (
    wall.year === dt.year && wall.month === dt.month && wall.day === dt.day && wall.hour === dt.hour && wall.minute === dt.minute && wall.second === dt.second
  );
}

function evaluate(p: ParsedInput, zone: Zone, now: DateTime): DateTime | null {
  const readZone = p.offsetMinutes === undefined ? zone : FixedOffsetZone.instance(p.offsetMinutes);
  const base = (p.instant ?? now).setZone(readZone);

  const date = p.date ?? { year: base.year, month: base.month, day: base.day };
  const time = p.time ?? (p.date || p.resetTime ? MIDNIGHT : { hour: base.hour, minute: base.minute, second: base.second });

  let day: DateTime = DateTime.fromObject(date, { zone: 'utc' });
  if (!day.isValid) return null; // 2025-02-30, 2025-13-01
  if (p.weekday) day = moveToWeekday(day, p.weekday);
  day = addCalendarUnits(day, p.relative);

  const wall = { year: day.year, month: day.month, day: day.day, ...time };
  // An unchanged wall time keeps its instant: `now` or a timestamp in a repeated (fall-back) hour
  // must not be moved to the hour's first occurrence.
  const start = sameWallTime(wall, base) ? base.startOf('second') : atWallTime(wall, readZone);
  const { hours, minutes, seconds } = p.relative;
  const moved = hours === 0 && minutes === 0 && seconds === 0 ? start : start.plus({ hours, minutes, seconds });
  const result = moved.setZone(zone);
  // only four-digit years fit the YYYY-MM-DD HH:MM:SS output
  return result.isValid && result.year >= 0 && result.year <= 9999 ? result : null;
}

// ---------------------------------------------------------------------------------------------

/**
 * Parses a date-time input (spec README §6.2) against the reference `zone` (IANA or `UTC±N`) and
 * `now`. Returns the instant, expressed in `zone`, at seconds precision; or null when the input is
 * not a non-empty string or integer it understands. Throws on an invalid zone or `now`.
 */
export function parseDateInput(input: unknown, zone: string, now: DateTime): DateTime | null {
  const referenceZone = requireZone(zone);
  if (!now.isValid) throw new RangeError(`Invalid "now": ${now.invalidReason}`);

  try {
    return parseIn(input, referenceZone, now);
  } catch {
    // Arithmetic beyond what a date can hold (`8640000000001`, `+9999999 years`): luxon throws
    // ("Invalid unit value NaN") instead of answering an invalid date. Not a date, then.
    return null;
  }
}

function parseIn(input: unknown, referenceZone: Zone, now: DateTime): DateTime | null {
  if (typeof input === 'number') {
    // a JSON number is a Unix timestamp
    return Number.isSafeInteger(input) ? fromTimestamp(input, referenceZone, now) : null;
  }
  if (typeof input !== 'string') return null;

  const text = input.trim().toLowerCase();
  if (text === '') return null;
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? fromTimestamp(seconds, referenceZone, now) : null;
  }

  const tokens = tokenize(text);
  const parsed = tokens && parseTokens(tokens);
  return parsed ? evaluate(parsed, referenceZone, now) : null;
}

function emptyParse(): ParsedInput {
  return { resetTime: false, relative: { years: 0, months: 0, days: 0, hours: 0, minutes: 0, seconds: 0 } };
}

function fromTimestamp(seconds: number, zone: Zone, now: DateTime): DateTime | null {
  return evaluate({ ...emptyParse(), instant: DateTime.fromSeconds(seconds, { zone: 'utc' }) }, zone, now);
}

/** 00:00:00 of dt's day, in dt's zone (the earlier 00:00 if the day repeats it; 01:00 if it skips it). */
export function startOfDay(dt: DateTime): DateTime {
  return atWallTime({ year: dt.year, month: dt.month, day: dt.day, ...MIDNIGHT }, dt.zone);
}

/** 23:59:59 (no milliseconds) of dt's day, in dt's zone: the end of an all-day event (spec README §7). */
export function endOfDay(dt: DateTime): DateTime {
  return atWallTime({ year: dt.year, month: dt.month, day: dt.day, hour: 23, minute: 59, second: 59 }, dt.zone);
}
