/**
 * The text pre-filter of event search. Each event's title, description and excerpt
 * are folded and cut into trigrams; each distinct trigram becomes one token of a word-only
 * "document" that the engine's full-text index (SQLite FTS5 / MySQL FULLTEXT) indexes as
 * plain words. A search word of three or more characters then needs every one of its trigrams,
 * which every event containing the word has: the index narrows the candidates and the usual
 * `LIKE` conditions still decide (spec endpoints.md §4.1.3), so the results do not change.
 *
 * The pre-filter may only ever answer "maybe" for a real match, so the folding must equate at
 * least what the database's `LOWER(...) LIKE` equates: case, accents (MySQL's `_ci` collations
 * ignore them) and the letters the collations treat as equal. Folding more than the database
 * only costs a few extra candidates.
 */

/** Letters that a collation equates with another letter but Unicode decomposition does not. */
const SAME_LETTER: Record<string, string> = {
  ß: 's',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ħ: 'h',
  ŧ: 't',
  ı: 'i',
  ς: 'σ',
  ϲ: 'σ',
  ʀ: 'r',
  ɢ: 'g',
  ɴ: 'n',
  ʟ: 'l',
  ʣ: 'd',
  ґ: 'г',
  ך: 'כ',
  ם: 'מ',
  ן: 'נ',
  ף: 'פ',
  ץ: 'צ',
};

const folded = new Map<string, string>();
const ASCII_LOWER = Array.from('abcdefghijklmnopqrstuvwxyz');

/** One character (code point) folded to one character: compatibility form, no marks, lower case. */
export function foldChar(ch: string): string {
  if (ch.length === 1 && ch < '\u0080') return ch >= 'A' && ch <= 'Z' ? ASCII_LOWER[ch.charCodeAt(0) - 65] : ch;
  const hit = folded.get(ch);
  if (hit !== undefined) return hit;
  let out = ch;
  if (/\p{Nd}/u.test(ch)) {
    out = String(digitValue(ch.codePointAt(0)!));
  } else {
    const base = ch.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    out = base === '' ? ch.toLowerCase() : String.fromCodePoint(base.codePointAt(0)!);
    out = SAME_LETTER[out] ?? georgian(out) ?? out;
  }
  if (folded.size < 10_000) folded.set(ch, out);
  return out;
}

/** Georgian capitals (Asomtavruli) and Nuskhuri fold to the Mkhedruli letter at the same position. */
function georgian(ch: string): string | undefined {
  const cp = ch.codePointAt(0)!;
  if (cp >= 0x10a0 && cp <= 0x10c5) return String.fromCodePoint(cp - 0x10a0 + 0x10d0);
  if (cp >= 0x2d00 && cp <= 0x2d25) return String.fromCodePoint(cp - 0x2d00 + 0x10d0);
  return undefined;
}

/** Decimal digits of every script come in runs of ten from zero. */
function digitValue(cp: number): number {
  let start = cp;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start -= 1;
  return (cp - start) % 10;
}

/** Punctuation common in event texts gets a two-character code (`x` + one of these). */
const PUNCTUATION = ' \t\n.,;:!?\'"-()&/@#%+*=<>[]{}|~$^_`\\';
const PUNCTUATION_CODES = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Each character seen gets a small number, so that a trigram is one number (fast to collect
 * distinct); `codes[n]` is its code in a token. Numbers only live in this process: tokens are
 * made of codes.
 */
const numbers = new Map<string, number>();
const codes: string[] = [];
const NUMBER_BASE = 4096;

/**
 * A folded character's code in a token. Prefix-free, so three codes in a row read back one way
 * only: a–w and 0–9 stand for themselves, `x` + one character for x, y, z and common
 * punctuation, `y` + four base-36 digits for any other code point.
 */
function codeOf(folded: string): string {
  const p = PUNCTUATION.indexOf(folded);
  if (folded.length === 1 && ((folded >= 'a' && folded <= 'w') || (folded >= '0' && folded <= '9'))) return folded;
  if (folded === 'x' || folded === 'y' || folded === 'z') return `x${folded}`;
  if (folded.length === 1 && p >= 0 && p < PUNCTUATION_CODES.length - 3) return `x${PUNCTUATION_CODES[p]}`;
  return `y${folded.codePointAt(0)!.toString(36).padStart(4, '0')}`;
}

/** The number of a character (the same for characters that fold alike), or -1 once all are taken. */
function numberOf(ch: string): number {
  let n = numbers.get(ch);
  if (n !== undefined) return n;
  const code = codeOf(foldChar(ch));
  n = codes.indexOf(code);
  if (n < 0) {
    if (codes.length >= NUMBER_BASE) return -1;
    n = codes.push(code) - 1;
  }
  if (numbers.size < 20_000) numbers.set(ch, n);
  return n;
}

/** numberOf() for the ASCII characters, by UTF-16 unit (-1: not looked up yet). */
const asciiNumbers = new Int16Array(128).fill(-1);

/** The distinct trigrams of one text as numbers, added to `into`; false if a character had no number. */
function addTrigrams(text: string, into: Set<number>): boolean {
  let a = -1;
  let b = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let c: number;
    if (unit < 128) {
      c = asciiNumbers[unit];
      if (c < 0) c = asciiNumbers[unit] = numberOf(text[i]);
    } else {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      c = numberOf(String.fromCodePoint(cp));
    }
    if (c < 0) return false;
    if (a >= 0) into.add((a * NUMBER_BASE + b) * NUMBER_BASE + c);
    a = b;
    b = c;
  }
  return true;
}

/** Tokens already made, by trigram number (texts repeat most of their trigrams). */
const tokens = new Map<number, string>();

/** The token of a trigram number: `q` + the codes of its three characters. */
function tokenOf(trigram: number): string {
  let token = tokens.get(trigram);
  if (token !== undefined) return token;
  const c = trigram % NUMBER_BASE;
  const ab = (trigram - c) / NUMBER_BASE;
  const b = ab % NUMBER_BASE;
  token = `q${codes[(ab - b) / NUMBER_BASE]}${codes[b]}${codes[c]}`;
  if (tokens.size < 200_000) tokens.set(trigram, token);
  return token;
}

/** The distinct trigram tokens of these texts (no trigram spans two texts). */
function tokensOf(texts: string[]): string[] {
  const trigrams = new Set<number>();
  if (texts.every((text) => addTrigrams(text, trigrams))) return Array.from(trigrams, tokenOf);
  // More distinct characters than numbers (a very multilingual corpus): the same tokens, slower.
  const slow = new Set<string>();
  for (const text of texts) {
    const c = Array.from(text, (ch) => codeOf(foldChar(ch)));
    for (let i = 0; i + 3 <= c.length; i++) slow.add(`q${c[i]}${c[i + 1]}${c[i + 2]}`);
  }
  return [...slow];
}

/** The indexed document of an event: its fields' distinct trigram tokens, space-separated. */
export function searchDocument(fields: string[]): string {
  return tokensOf(fields).join(' ');
}

/** At most this many tokens per search (every one narrows; a few already narrow well). */
const MAX_QUERY_TOKENS = 24;

/**
 * The tokens every matching event must have, for these search words; empty when no word is
 * three characters long (nothing to narrow by: the list falls back to reading every row).
 */
export function searchTokens(words: string[]): string[] {
  const all = tokensOf(words);
  if (all.length <= MAX_QUERY_TOKENS) return all;
  // Spread the sample over the words' trigrams rather than taking only the first ones.
  const step = all.length / MAX_QUERY_TOKENS;
  return Array.from({ length: MAX_QUERY_TOKENS }, (_, i) => all[Math.floor(i * step)]);
}

/** The texts an event's search document is made of (searchDocument), in their order. */
export function searchTexts(event: { title: string; description: string; excerpt: string }): string[] {
  return [event.title, event.description, event.excerpt];
}
