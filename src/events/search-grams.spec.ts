import { foldChar, searchDocument, searchTokens } from './search-grams';

/** A small deterministic generator (the same cases on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = Array.from('abcdefghijklmnopqrstuvwxyzÉéèÀàÖöüßøÇçΣσςДд0123456789٣ -_%!,.\'"');

describe('foldChar', () => {
  it.each([
    ['A', 'a'],
    ['é', 'e'],
    ['É', 'e'],
    ['ß', 's'],
    ['Ø', 'o'],
    ['ς', 'σ'],
    ['Σ', 'σ'],
    ['Д', 'д'],
    ['٣', '3'],
    ['ﬁ', 'f'],
    ['-', '-'],
    ['😀', '😀'],
  ])('%p → %p', (ch, out) => expect(foldChar(ch)).toBe(out));
});

describe('searchDocument / searchTokens', () => {
  const doc = (...fields: string[]) => new Set(searchDocument(fields).split(' '));

  it('makes word-only tokens (what both full-text engines index as words)', () => {
    for (const t of searchDocument(['Café "au lait", 100% à 5€ — Ωmega 😀']).split(' ')) expect(t).toMatch(/^q[a-z0-9]{3,15}$/);
  });

  it('needs every trigram of every word', () => {
    expect(searchTokens(['Jazz'])).toEqual(['qjaxz', 'qaxzxz']);
    expect(searchTokens(['ab', 'cd'])).toEqual([]);
    expect(searchTokens(['jazz', 'ab'])).toEqual(['qjaxz', 'qaxzxz']);
    expect(searchTokens(['a b!'])).toEqual(['qax0b', 'qx0bx7']);
  });

  it('gives different trigrams different tokens (the codes are prefix-free)', () => {
    const chars = Array.from(new Set([...ALPHABET, 'x', 'y', 'z', '€', '—', 'Ω', '😀', '\t', '~'].map(foldChar)));
    const seen = new Map<string, string>();
    const collisions: string[][] = [];
    for (const a of chars) {
      for (const b of chars) {
        for (const c of chars) {
          const [token] = searchTokens([a + b + c]);
          const earlier = seen.get(token);
          // One expect at the end: a matcher call for each of the ~250,000 trigrams costs most of a minute.
          if (earlier !== undefined && earlier !== a + b + c) collisions.push([token, earlier, a + b + c]);
          seen.set(token, a + b + c);
        }
      }
    }
    expect(collisions).toEqual([]);
  });

  it('does not join fields: a trigram across two fields is not in the document', () => {
    expect(doc('ab', 'c').has('qabc')).toBe(false);
    expect(doc('abc', '').has('qabc')).toBe(true);
  });

  it('caps the tokens of a long search, spread over its words', () => {
    const tokens = searchTokens(['kaleidoscope', 'xylophone', 'tardigrade', 'marzipan']);
    expect(tokens).toHaveLength(24);
    expect(tokens).toContain('qkal');
    expect(tokens.some((t) => t.startsWith('qta') || t.startsWith('qar') || t.startsWith('qrz'))).toBe(true);
  });

  it('finds every substring in any case and with or without accents (never drops a real match)', () => {
    const next = random(6);
    const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
    for (let round = 0; round < 500; round++) {
      const text = Array.from({ length: 5 + Math.floor(next() * 60) }, () => pick(ALPHABET)).join('');
      const chars = Array.from(text);
      const from = Math.floor(next() * chars.length);
      const to = Math.min(chars.length, from + 1 + Math.floor(next() * 12));
      // How a reader might type it: other case (where that is one letter: "ß" is not "SS" to
      // LIKE either), accents dropped.
      const upper = (c: string) => (Array.from(c.toUpperCase()).length === 1 ? c.toUpperCase() : c);
      const typed = chars
        .slice(from, to)
        .map((c) => (next() < 0.5 ? upper(c) : c.normalize('NFD').replace(/\p{M}/gu, '')))
        .join('');
      const indexed = doc('title', text, 'excerpt');
      for (const t of searchTokens([typed])) expect({ text, typed, missing: indexed.has(t) ? null : t }).toEqual({ text, typed, missing: null });
    }
  });

  it('makes the same tokens when a text has more distinct characters than the fast path numbers', () => {
    const before = searchDocument(['Jazz à la Plage']);
    const many = Array.from({ length: 5000 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    const tokens = doc(`${many} Jazz`);
    expect(tokens.has(searchTokens([String.fromCodePoint(0x4e00 + 4990, 0x4e00 + 4991, 0x4e00 + 4992)])[0])).toBe(true);
    for (const t of searchTokens(['jAZz'])) expect(tokens.has(t)).toBe(true);
    expect(searchDocument(['Jazz à la Plage'])).toBe(before);
  });
});
