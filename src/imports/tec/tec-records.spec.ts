import { parseCost } from '../../events';
import { costStrings, eventInput, itemVersion, organizerInput, parentsFirst, termInput, venueInput } from './tec-records';

const links = {
  venue: (g: string) => (g === 's?id=1' ? 101 : undefined),
  organizer: (g: string) => (g === 's?id=2' ? 102 : g === 's?id=3' ? 103 : undefined),
  term: (taxonomy: 'category' | 'tag', id: number) => (taxonomy === 'category' && id === 5 ? 205 : taxonomy === 'tag' && id === 6 ? 206 : undefined),
};

describe('costStrings: cost_details back to the strings that give them', () => {
  it.each([
    [{ currency_symbol: '$', currency_position: 'prefix', values: ['10', '25'] }, ['$10', '$25']],
    [{ currency_symbol: '€', currency_position: 'postfix', values: ['0', '5.50'] }, ['0€', '5.50€']],
    [{ currency_symbol: '', currency_position: '', values: ['Donation'] }, ['Donation']],
    [{ currency_symbol: '$', currency_position: 'prefix', values: ['10', 'Free for kids'] }, ['$10', 'Free for kids']],
    [{ currency_symbol: '', currency_position: '', values: [] }, []],
  ])('%j', (details, expected) => expect(costStrings(details, '')).toEqual(expected));
  it('without details, the cost text', () => expect(costStrings(undefined, 'Free')).toEqual(['Free']));

  // sources.md §4: text and cost exactly as the origin has them.
  it.each([
    ['€10,50', { currency_symbol: '€', currency_position: 'prefix', values: ['10.50'] }, ['€10,50']],
    ['10,50 € – 1.000,00 €', { currency_symbol: '€', currency_position: 'postfix', values: ['10.50', '1000.00'] }, ['10,50€', '1.000,00€']],
    ['Free – $25', { currency_symbol: '$', currency_position: 'prefix', values: ['0', '25'] }, ['$0', '$25']],
  ])('numbers as the source wrote them in %j', (cost, details, expected) => {
    const strings = costStrings(details, cost);
    expect(strings).toEqual(expected);
    // Stored again, they give the source's values and (symbol spacing aside) its formatted cost.
    const again = parseCost(strings);
    expect(again.cost_details.values).toEqual(details.values);
    expect(again.cost.replace(/\s(?=€)/g, '')).toBe(cost.replace(/\s(?=€)/g, ''));
  });
});

describe('eventInput', () => {
  const src = {
    title: 'T',
    description: '<p>D</p>',
    excerpt: '',
    slug: 's-1',
    status: 'draft',
    date_utc: '2020-01-01 00:00:00',
    start_date: '2030-01-01 10:00:00',
    end_date: '2030-01-01 11:00:00',
    timezone: 'UTC+5',
    all_day: false,
    cost: '$10',
    cost_details: { currency_symbol: '$', currency_position: 'prefix', values: ['10'] },
    url: 'https://s/event/s-1/',
    website: 'https://s/event/s-1/',
    featured: true,
    sticky: false,
    show_map: true,
    show_map_link: false,
    hide_from_listings: false,
    image: { url: 'https://s/i.png', id: 9 },
    venue: { global_id: 's?id=1' },
    organizer: [{ global_id: 's?id=2' }, { global_id: 's?id=4' }, { global_id: 's?id=3' }],
    categories: [{ id: 5 }, { id: 7 }],
    tags: [{ id: 6 }],
  };
  it('maps every field, links to local ids, and names what was not imported', () => {
    const { input, missing } = eventInput(src, links, 42);
    expect(input).toEqual({
      title: 'T',
      description: '<p>D</p>',
      excerpt: undefined,
      start_date: '2030-01-01 10:00:00',
      end_date: '2030-01-01 11:00:00',
      timezone: 'UTC+5',
      all_day: false,
      cost: ['$10'],
      website: '', // the event's own URL stands for "no website"
      show_map: true,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: true,
      image: 'https://s/i.png',
      venue: 101,
      organizer: [102, 103],
      categories: ['205'],
      tags: ['206'],
      slug: 's-1',
      status: 'draft',
      date_utc: '2020-01-01 00:00:00',
      author: 42,
    });
    expect(missing).toEqual(['organizer s?id=4', 'category 7']);
  });
  it('no venue (TEC gives []) is venue 0; no image is ""', () => {
    const { input } = eventInput({ ...src, venue: [], image: false, organizer: [] }, links, undefined);
    expect(input).toMatchObject({ venue: 0, image: '', organizer: [], author: undefined });
  });
});

describe('venue, organizer and term bodies', () => {
  it('a venue writes every field, empty ones as empty (an update clears them)', () => {
    expect(venueInput({ venue: 'V', city: 'C', show_map: false, global_id: 'x', modified_utc: 'm', status: 'publish' }, undefined)).toMatchObject({
      venue: 'V',
      city: 'C',
      address: '',
      show_map: false,
      status: 'publish',
      image: undefined,
    });
  });
  it('an organizer', () => {
    expect(organizerInput({ organizer: 'O', email: 'e@x.example', image: { url: 'u' } }, 3)).toMatchObject({
      organizer: 'O',
      email: 'e@x.example',
      image: 'u',
      author: 3,
    });
  });
  it('a term', () => expect(termInput({ name: 'N', slug: 'n', description: '' }, 4)).toEqual({ name: 'N', slug: 'n', description: undefined, parent: 4 }));
});

describe('parentsFirst', () => {
  it('orders categories so that parents come before children; a missing parent counts as top level', () => {
    const order = parentsFirst([
      { id: 3, parent: 2 },
      { id: 2, parent: 1 },
      { id: 1, parent: 0 },
      { id: 9, parent: 8 }, // parent not in the list
      { id: 4, parent: 1 },
    ]).map((c) => c.id);
    expect(order).toEqual([1, 9, 4, 2, 3]);
  });
  it('a cycle still comes out, at the end', () => {
    expect(
      parentsFirst([
        { id: 1, parent: 2 },
        { id: 2, parent: 1 },
      ]).map((c) => c.id),
    ).toEqual([1, 2]);
  });
});

it('itemVersion changes with the source modified date and with the local links', () => {
  const v = itemVersion('2020-01-01 00:00:00', [1, 2]);
  expect(v.length).toBeLessThanOrEqual(64);
  expect(itemVersion('2020-01-01 00:00:00', [1, 2])).toBe(v);
  expect(itemVersion('2020-01-01 00:00:01', [1, 2])).not.toBe(v);
  expect(itemVersion('2020-01-01 00:00:00', [1, 3])).not.toBe(v);
});

describe('parentsFirst on long lists', () => {
  it('orders a chain of 30,000 categories listed children first (parents before children, in one go)', () => {
    const n = 30_000;
    const chain = Array.from({ length: n }, (_, i) => ({ id: n - i, parent: n - i - 1 })); // 30000 → 29999 → … → 1 → 0
    const order = parentsFirst(chain).map((c) => c.id);
    expect(order).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });
});
