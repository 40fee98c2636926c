import { slugify, transliterate, uniqueSlug } from './slugify';

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

describe('uniqueSlug', () => {
  const takenFrom = (taken: string[]) => {
    const set = new Set(taken);
    return jest.fn(async (candidate: string) => set.has(candidate));
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
    expect(await uniqueSlug('my-event', takenFrom(taken))).toBe(expected);
  });

  it('asks for candidates in order and stops at the first free one', async () => {
    const isTaken = takenFrom(['e', 'e-2']);
    await uniqueSlug('e', isTaken);
    expect(isTaken.mock.calls.map(([c]) => c)).toEqual(['e', 'e-2', 'e-3']);
  });
});
