// Event cost: the stored list of cost strings → `cost` and `cost_details` (resources.md §6).

export type CurrencyPosition = 'prefix' | 'postfix' | '';

/** `cost_details` of an event, field names as the API writes them. */
export interface CostDetails {
  currency_symbol: string;
  /** Always `""`: no write field sets it (§6). */
  currency_code: string;
  currency_position: CurrencyPosition;
  values: string[];
}

export interface Cost {
  /** Formatted: `20$`, `Free – 30$`, `Donation`, `""`. */
  cost: string;
  cost_details: CostDetails;
}

/** One number found in a cost string, with the text on each side of it. */
interface CostNumber {
  /** As written, for display: `10,50`, `1,000`. */
  written: string;
  /** Normalised, for `values`: `10.50`, `1000`. */
  normalised: string;
  value: number;
  symbol: string;
  position: CurrencyPosition;
}

const FREE = 'Free';
const EN_DASH = '\u2013';
/** Digits, optionally grouped or with decimals by `.` or `,` (`10`, `10,50`, `1.000,50`). */
const NUMBER = /\d+(?:[.,]\d+)*/g;
/** What separates two prices in one string: `$10 - $25`, `10€ / 15€`, `$10 to $25`. */
const RANGE_SEPARATOR = /\s*(?:[-\u2013\u2014~/|,;+]|\b(?:to|or|and)\b)\s*/i;

/**
 * Derives `cost` and `cost_details` from the stored cost strings (§6):
 * `["0$","20$","30$"]` → `Free – 30$`, values `["0","20","30"]`, symbol `$`, `postfix`.
 */
export function parseCost(input: readonly string[]): Cost {
  const strings = input.map((s) => s.trim()).filter((s) => s !== '');
  const numbers: CostNumber[] = [];
  const texts: string[] = [];
  for (const s of strings) {
    const found = findNumbers(s);
    if (found.length === 0) texts.push(s);
    else numbers.push(...found);
  }

  const { symbol, position } = commonSymbol(numbers);
  const distinct = distinctSorted(numbers);
  const values = [...distinct.map((n) => n.normalised), ...new Set(texts)];
  const details: CostDetails = { currency_symbol: symbol, currency_code: '', currency_position: position, values };

  if (distinct.length === 0) return { cost: [...new Set(texts)].join(', '), cost_details: details };
  const show = (n: CostNumber) => (n.value === 0 ? FREE : attachSymbol(n.written, symbol, position));
  return { cost: formatRange(distinct, show), cost_details: details };
}

/**
 * `price` of the JSON-LD offer (§7): the formatted cost without the symbol, `Free` → `"0"`:
 * `Free – 30$` → `0 – 30`, `€10,50` → `10,50`. `""` when there is no cost.
 */
export function offerPrice(input: readonly string[]): string {
  const strings = input.map((s) => s.trim()).filter((s) => s !== '');
  const distinct = distinctSorted(strings.flatMap(findNumbers));
  if (distinct.length === 0) return parseCost(strings).cost;
  return formatRange(distinct, (n) => (n.value === 0 ? '0' : n.written));
}

function formatRange(sorted: readonly CostNumber[], show: (n: CostNumber) => string): string {
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  return min === max ? show(min) : `${show(min)} ${EN_DASH} ${show(max)}`;
}

function attachSymbol(number: string, symbol: string, position: CurrencyPosition): string {
  if (position === 'prefix') return `${symbol}${number}`;
  if (position === 'postfix') return `${number}${symbol}`;
  return number;
}

/** Sorted ascending by value; of equal values the first written is kept. */
function distinctSorted(numbers: readonly CostNumber[]): CostNumber[] {
  const byValue = new Map<number, CostNumber>();
  for (const n of numbers) if (!byValue.has(n.value)) byValue.set(n.value, n);
  return [...byValue.values()].sort((a, b) => a.value - b.value);
}

/**
 * The symbol shown with the numbers: kept only when every number has the same symbol on the
 * same side (a bare `0` next to `20$` therefore means no symbol). Text-only strings such as
 * `Donation` have no number and take no part.
 */
function commonSymbol(numbers: readonly CostNumber[]): { symbol: string; position: CurrencyPosition } {
  const [first, ...rest] = numbers;
  if (!first || first.symbol === '') return { symbol: '', position: '' };
  const same = rest.every((n) => n.symbol === first.symbol && n.position === first.position);
  return same ? { symbol: first.symbol, position: first.position } : { symbol: '', position: '' };
}

/**
 * The numbers in one cost string, each with its symbol: the text between it and the string's
 * start or end, or the range separator towards the neighbouring number (`$10 - $25`: `$` and
 * `$`). With text on both sides (`$10 per person`) the side touching the number wins, else the
 * prefix.
 */
function findNumbers(s: string): CostNumber[] {
  const matches = [...s.matchAll(NUMBER)];
  // Boundaries of the text that belongs to each number: [from, to) around match i.
  const bounds = matches.map(() => ({ from: 0, to: s.length }));
  for (let i = 1; i < matches.length; i++) {
    const gapStart = matchEnd(matches[i - 1]);
    const gapEnd = matches[i].index;
    const [leftEnd, rightStart] = splitGap(s.slice(gapStart, gapEnd));
    bounds[i - 1].to = gapStart + leftEnd;
    bounds[i].from = gapStart + rightStart;
  }
  return matches.map((m, i) => {
    const before = s.slice(bounds[i].from, m.index);
    const after = s.slice(matchEnd(m), bounds[i].to);
    const { normalised, value } = normaliseNumber(m[0]);
    return { written: m[0], normalised, value, ...sideSymbol(before, after) };
  });
}

function matchEnd(m: RegExpMatchArray): number {
  return (m.index ?? 0) + m[0].length;
}

/** Where the text between two numbers splits into "after the first" and "before the second". */
function splitGap(gap: string): [leftEnd: number, rightStart: number] {
  const separator = RANGE_SEPARATOR.exec(gap) ?? /\s+/.exec(gap);
  if (!separator) return [gap.length, gap.length];
  return [separator.index, separator.index + separator[0].length];
}

function sideSymbol(before: string, after: string): { symbol: string; position: CurrencyPosition } {
  const prefix = before.trim();
  const postfix = after.trim();
  if (prefix === '' && postfix === '') return { symbol: '', position: '' };
  if (postfix === '') return { symbol: prefix, position: 'prefix' };
  if (prefix === '') return { symbol: postfix, position: 'postfix' };
  const prefixTouches = !/\s$/.test(before);
  const postfixTouches = !/^\s/.test(after);
  return postfixTouches && !prefixTouches ? { symbol: postfix, position: 'postfix' } : { symbol: prefix, position: 'prefix' };
}

/**
 * The numbers of a cost text as written, by their normalised form (§6): `€10,50 – €20` gives
 * `10.50` → `10,50` and `20` → `20`; the first writing of a number wins.
 */
export function writtenNumbers(text: string): Map<string, string> {
  const written = new Map<string, string>();
  for (const [number] of text.matchAll(NUMBER)) {
    const { normalised } = normaliseNumber(number);
    if (!written.has(normalised)) written.set(normalised, number);
  }
  return written;
}

/**
 * Reads a number written with `.` or `,` (§6: "thousands separators allowed"):
 * * both `.` and `,` present: the last one is the decimal separator (`1,000.50`, `1.000,50`);
 * * one kind, more than once: thousands separators (`1,000,000`);
 * * one kind, once: thousands when exactly three digits follow it and one to three digits,
 *   not starting with 0, precede it (`1,000`, `12.500`); otherwise decimal (`10,50`, `0.500`).
 * The normalised form uses `.` for decimals, keeps the decimals as written and drops leading
 * zeros of the integer part: `€10,50` → `10.50`.
 */
export function normaliseNumber(written: string): { normalised: string; value: number } {
  const separators = written.replace(/\d/g, '');
  let decimalAt = -1;
  if (separators.includes('.') && separators.includes(',')) {
    const last = Math.max(written.lastIndexOf('.'), written.lastIndexOf(','));
    if (separators.split(written[last]).length === 2) decimalAt = last;
  } else if (separators.length === 1 && !/^[1-9]\d{0,2}[.,]\d{3}$/.test(written)) {
    decimalAt = written.search(/[.,]/);
  }
  const integer = (decimalAt < 0 ? written : written.slice(0, decimalAt)).replace(/\D/g, '');
  const integerPart = integer.replace(/^0+(?=\d)/, '');
  const normalised = decimalAt < 0 ? integerPart : `${integerPart}.${written.slice(decimalAt + 1)}`;
  return { normalised, value: Number(normalised) };
}
