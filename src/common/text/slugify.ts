// Slug generation and uniqueness — spec endpoints.md §4.6.

/** Letters that NFKD does not decompose into an ASCII base letter plus marks. */
const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'SS',
  æ: 'ae', Æ: 'AE',
  ø: 'o', Ø: 'O',
  œ: 'oe', Œ: 'OE',
  ł: 'l', Ł: 'L',
  đ: 'd', Đ: 'D',
  ð: 'd', Ð: 'D',
  þ: 'th', Þ: 'TH',
  ħ: 'h', Ħ: 'H',
  ı: 'i',
  ĸ: 'k',
  ŋ: 'n', Ŋ: 'N',
  ŧ: 't', Ŧ: 'T',
};
const TRANSLITERATION_PATTERN = new RegExp(`[${Object.keys(TRANSLITERATIONS).join('')}]`, 'g');

/** Tags (`<b>`, `</b>`, `<br/>`) and comments; a lone `<` as in `a < b` is left as text. */
const TAG = /<!--[\s\S]*?-->|<\/?[a-z][^>]*>/gi;
/** Named, decimal and hexadecimal character references (`&amp;`, `&#8217;`, `&#x2019;`). */
const ENTITY = /&(?:[a-z][a-z0-9]*|#[0-9]+|#x[0-9a-f]+);/gi;

/** Replaces accented and special Latin letters by their ASCII spelling; keeps the case. */
export function transliterate(input: string): string {
  return input
    .normalize('NFKD')
    .replace(TRANSLITERATION_PATTERN, (ch) => TRANSLITERATIONS[ch] ?? ch)
    .replace(/\p{M}+/gu, '');
}

/**
 * Normalises a title, name or client-given slug into a slug: `Café &amp; Bar` → `cafe-bar`.
 * Returns `''` when nothing is left; the caller chooses the fallback (the item id, §4.6).
 */
export function slugify(input: string): string {
  const text = input.replace(TAG, '').replace(ENTITY, '');
  return transliterate(text)
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The first free slug among `base`, `base-2`, `base-3`, … (§4.6). `isTaken` is asked in
 * order, one candidate at a time, so it can be a plain repository lookup.
 */
export async function uniqueSlug(
  base: string,
  isTaken: (candidate: string) => Promise<boolean>,
): Promise<string> {
  let candidate = base;
  for (let suffix = 2; await isTaken(candidate); suffix++) {
    candidate = `${base}-${suffix}`;
  }
  return candidate;
}
