/**
 * FROZEN HISTORY. The event search document of migration EventSearch, as events/search-grams.ts
 * made it when that migration was written: each field folded (compatibility form, no marks,
 * lower case, the letters collations equate, digits of every script), cut into trigrams, each
 * distinct trigram one word. It must never change with the live code: a later change of the
 * document gets a migration of its own that rebuilds `event_search`. This is the live
 * module's reference path only (its faster path, with numbered characters, gives the same
 * words); frozen-helpers.spec.ts pins its output.
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

/** One character (code point) folded to one character. */
function fold(ch: string): string {
  if (ch.length === 1 && ch < '\u0080') return ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : ch;
  if (/\p{Nd}/u.test(ch)) return String(digitValue(ch.codePointAt(0)!));
  const base = ch.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const out = base === '' ? ch.toLowerCase() : String.fromCodePoint(base.codePointAt(0)!);
  return SAME_LETTER[out] ?? georgian(out) ?? out;
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

const PUNCTUATION = ' \t\n.,;:!?\'"-()&/@#%+*=<>[]{}|~$^_`\\';
const PUNCTUATION_CODES = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A folded character's code in a word, prefix-free: a–w and 0–9 stand for themselves, `x` + one
 * character for x, y, z and common punctuation, `y` + four base-36 digits for any other code point.
 */
function codeOf(folded: string): string {
  const p = PUNCTUATION.indexOf(folded);
  if (folded.length === 1 && ((folded >= 'a' && folded <= 'w') || (folded >= '0' && folded <= '9'))) return folded;
  if (folded === 'x' || folded === 'y' || folded === 'z') return `x${folded}`;
  if (folded.length === 1 && p >= 0 && p < PUNCTUATION_CODES.length - 3) return `x${PUNCTUATION_CODES[p]}`;
  return `y${folded.codePointAt(0)!.toString(36).padStart(4, '0')}`;
}

/** The document of an event's fields: their distinct trigram words (`q` + three codes) in order of appearance, space-separated. */
export function frozenSearchDocument(fields: string[]): string {
  const words = new Set<string>();
  for (const field of fields) {
    const codes = Array.from(field, (ch) => codeOf(fold(ch)));
    for (let i = 0; i + 3 <= codes.length; i++) words.add(`q${codes[i]}${codes[i + 1]}${codes[i + 2]}`);
  }
  return [...words].join(' ');
}
