import { slugCandidate, slugify, SLUG_MAX_LENGTH, transliterate, writeUnderFreeSlug } from './slugify';

describe('slugify', () => {
  it.each([
    // [input, expected]
    ['Event 01', 'event-01'],
    ['My Event', 'my-event'],
    ['  padded title  ', 'padded-title'],
    ['already-a-slug', 'already-a-slug'],
    ['snake_case_kept', 'snake_case_kept'],
    ['UPPER lower MiXeD', 'upper-lower-mixed'],
    // accents and letters without a decomposition
    ['Café Crème', 'cafe-creme'],
    ['Straße', 'strasse'],
    ['Ærø Œuvre', 'aero-oeuvre'],
    ['Łódź', 'lodz'],
    ['Đakovo', 'dakovo'],
    ['Þór', 'thor'],
    ['Ñandú São Paulo', 'nandu-sao-paulo'],
    ['Čeština Ελλάδα', 'cestina'],
    ['İstanbul', 'istanbul'],
    ['ﬁne ２０２５', 'fine-2025'],
    // HTML tags and entities are removed, not replaced
    ['<b>Bold</b> title', 'bold-title'],
    ['Rock &amp; Roll', 'rock-roll'],
    ['Don&#8217;t stop', 'dont-stop'],
    ['Don&#x2019;t stop', 'dont-stop'],
    ['<!-- note -->Title', 'title'],
    // other characters become a single dash
    ["Don't stop", 'don-t-stop'],
    ['Tom & Jerry', 'tom-jerry'],
    ['a < b', 'a-b'],
    ['a --- b', 'a-b'],
    ['--leading and trailing--', 'leading-and-trailing'],
    ['100% fun! (really?)', '100-fun-really'],
    ['version 1.2.3', 'version-1-2-3'],
    ['tab\tand\nnewline', 'tab-and-newline'],
    ['emoji 🎉 party', 'emoji-party'],
    // nothing left
    ['', ''],
    ['   ', ''],
    ['!!!', ''],
    ['日本語', ''],
    ['<p></p>&nbsp;', ''],
  ])('%j → %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const input of ['Café &amp; Bar', 'Straße 12', '--x--y--']) {
      const once = slugify(input);
      expect(slugify(once)).toBe(once);
    }
  });
});

describe('transliterate', () => {
  it.each([
    ['Crème Brûlée', 'Creme Brulee'],
    ['ẞ ß', 'SS ss'],
    ['Øresund', 'Oresund'],
  ])('%j → %j', (input, expected) => {
    expect(transliterate(input)).toBe(expected);
  });
});

describe('writeUnderFreeSlug', () => {
  const uniqueViolation = Object.assign(new Error('duplicate'), { code: 'DUP' });
  const isConflict = (err: unknown) => (err as { code?: string }).code === 'DUP';
  /** A store whose unique index holds `stored`; `racers` are taken by others between read and write. */
  const storeWith = (stored: string[], racers: string[] = []) => {
    const index = new Set([...stored, ...racers]);
    const tried: string[] = [];
    const write = async (slug: string) => {
      tried.push(slug);
      if (index.has(slug)) throw uniqueViolation;
      index.add(slug);
    };
    return { taken: new Set(stored), write, tried };
  };

  it.each([
    // [taken, expected]
    [[], 'my-event'],
    [['other'], 'my-event'],
    [['my-event'], 'my-event-2'],
    [['my-event', 'my-event-2'], 'my-event-3'],
    [['my-event', 'my-event-3'], 'my-event-2'],
    [['my-event', 'my-event-2', 'my-event-3', 'my-event-4'], 'my-event-5'],
  ])('taken %j → %j', async (taken, expected) => {
    const store = storeWith(taken);
    expect(await writeUnderFreeSlug('my-event', store.taken, store.write, isConflict)).toBe(expected);
    expect(store.tried).toEqual([expected]);
  });

  it('takes the next candidate when a concurrent writer took one after the read', async () => {
    const store = storeWith(['e'], ['e-2', 'e-3']);
    expect(await writeUnderFreeSlug('e', store.taken, store.write, isConflict)).toBe('e-4');
    expect(store.tried).toEqual(['e-2', 'e-3', 'e-4']);
  });

  it('passes on any other failure at once', async () => {
    const broken = async () => {
      throw new Error('disk full');
    };
    await expect(writeUnderFreeSlug('e', new Set(), broken, isConflict)).rejects.toThrow('disk full');
  });

  it('gives up after a bounded number of refused candidates', async () => {
    const refuse = jest.fn(async () => {
      throw uniqueViolation;
    });
    await expect(writeUnderFreeSlug('e', new Set(), refuse, isConflict)).rejects.toBe(uniqueViolation);
    expect(refuse).toHaveBeenCalledTimes(50);
  });
});

describe('slugCandidate', () => {
  it('numbers candidates from the second on', () => {
    expect([1, 2, 10].map((n) => slugCandidate('gig', n))).toEqual(['gig', 'gig-2', 'gig-10']);
  });

  it('cuts the base so that base and suffix fit the column', () => {
    const base = 'a'.repeat(SLUG_MAX_LENGTH);
    expect(slugCandidate(base, 1)).toHaveLength(SLUG_MAX_LENGTH);
    expect(slugCandidate(base, 123)).toBe(`${'a'.repeat(SLUG_MAX_LENGTH - 4)}-123`);
  });
});
