// Slug generation and uniqueness — spec endpoints.md §4.6.

/** Letters that NFKD does not decompose into an ASCII base letter plus marks. */
const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ħ: 'h',
  Ħ: 'H',
  ı: 'i',
  ĸ: 'k',
  ŋ: 'n',
  Ŋ: 'N',
  ŧ: 't',
  Ŧ: 'T',
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

/** The longest slug the slug columns hold (varchar(200)). */
export const SLUG_MAX_LENGTH = 200;

/** Candidate `n` (1, 2, …) for `base`: `base`, `base-2`, `base-3`… cut to fit SLUG_MAX_LENGTH. */
export function slugCandidate(base: string, n: number): string {
  const suffix = n === 1 ? '' : `-${n}`;
  return `${base.slice(0, SLUG_MAX_LENGTH - suffix.length)}${suffix}`;
}

/** How many candidates a write tries before giving up on its transaction (which is then retried). */
const MAX_SLUG_TRIES = 50;

/**
 * Writes an item under the first free candidate for `base` (§4.6) and returns the slug used.
 * `taken` is what a read found taken; the database's unique index is the judge: when the
 * write is refused because a concurrent writer took the candidate since that read, the next
 * candidate is tried in the same transaction (both engines keep the transaction open after a
 * statement fails on a unique key).
 */
export async function writeUnderFreeSlug(
  base: string,
  taken: ReadonlySet<string>,
  write: (slug: string) => Promise<void>,
  isSlugConflict: (err: unknown) => boolean,
): Promise<string> {
  let n = 1;
  for (let tries = 1; ; tries++) {
    while (taken.has(slugCandidate(base, n))) n++;
    const slug = slugCandidate(base, n);
    try {
      await write(slug);
      return slug;
    } catch (err) {
      if (!isSlugConflict(err) || tries >= MAX_SLUG_TRIES) throw err;
      n++;
    }
  }
}

/** Bounds of the slugs `base-…` for an index range scan: every `base-N` sorts in [lo, hi). */
export function suffixRange(base: string): { lo: string; hi: string } {
  // '.' follows '-' in ASCII; slugs hold only [a-z0-9_-].
  return { lo: `${base}-`, hi: `${base}.` };
}
