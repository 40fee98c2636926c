import { FieldSelection, parseFields, pickAnswerFields, pickFields } from './fields';

// WordPress's `_fields` (compat.md, "TEC's public URLs"): which names a value gives, and what an
// item or a list keeps of them.

/** A selection as a plain object, for comparing: `true` for a key kept whole. */
function shape(selection: FieldSelection | undefined): unknown {
  if (selection === undefined) return undefined;
  return Object.fromEntries([...selection].map(([key, inner]) => [key, inner === true ? true : shape(inner)]));
}

const fields = (value: unknown) => parseFields(value)!;

describe('parseFields', () => {
  it.each<[unknown, unknown]>([
    ['id,title,start_date', { id: true, title: true, start_date: true }],
    [' id , title\tstart_date  ', { id: true, title: true, start_date: true }],
    [['id', 'title,url'], { id: true, title: true, url: true }],
    [
      { 0: 'id', 1: 'title' },
      { id: true, title: true },
    ],
    ['venue.venue,venue.city', { venue: { venue: true, city: true } }],
    ['a.b.c,a.d', { a: { b: { c: true }, d: true } }],
    // A key asked whole stays whole, in either order.
    ['venue,venue.venue', { venue: true }],
    ['venue.venue,venue', { venue: true }],
    ['a.b,a.b.c', { a: { b: true } }],
    // Own keys, never the prototype (an object literal's `__proto__` would set it, hence JSON).
    ['__proto__,constructor.x', JSON.parse('{"__proto__":true,"constructor":{"x":true}}')],
  ])('%j selects %j', (value, expected) => {
    expect(shape(parseFields(value))).toEqual(expected);
  });

  it.each<unknown>([undefined, null, '', ' , ,', [], {}, 5, true, [[[['id']]]]])('%j selects nothing: the answer stays whole', (value) => {
    expect(parseFields(value)).toBeUndefined();
  });

  it('reads at most 200 names', () => {
    const many = Array.from({ length: 300 }, (_, i) => `f${i}`).join(',');
    expect(fields(many).size).toBe(200);
  });
});

const event = {
  id: 7,
  title: 'Concert',
  start_date: '2030-05-10 19:00:00',
  venue: { id: 3, venue: 'Hall', city: 'Rome' },
  organizer: [
    { id: 4, organizer: 'Ann', email: 'a@x.test' },
    { id: 5, organizer: 'Bo', email: 'b@x.test' },
  ],
  categories: [],
};

describe('pickFields', () => {
  it('keeps the selected keys of an item, in its own order, unknown names ignored', () => {
    expect(pickFields(event, fields('start_date,id,nope'))).toEqual({ id: 7, start_date: '2030-05-10 19:00:00' });
    expect(Object.keys(pickFields(event, fields('start_date,id')) as object)).toEqual(['id', 'start_date']);
  });

  it('narrows a nested object, and each object of a nested list', () => {
    expect(pickFields(event, fields('id,venue.venue,organizer.organizer'))).toEqual({
      id: 7,
      venue: { venue: 'Hall' },
      organizer: [{ organizer: 'Ann' }, { organizer: 'Bo' }],
    });
  });

  it('keeps a value that has no keys as it is: a string asked within, an empty venue (`[]`)', () => {
    expect(pickFields({ ...event, venue: [] }, fields('title.rendered,venue.venue'))).toEqual({ title: 'Concert', venue: [] });
  });

  it('nothing known: an empty item', () => {
    expect(pickFields(event, fields('nope'))).toEqual({});
  });

  it('an object within the item that keeps no key is `[]`, as WordPress sends it', () => {
    expect(pickFields(event, fields('id,venue.nope,organizer.nope'))).toEqual({ id: 7, venue: [], organizer: [[], []] });
  });

  it('a key named like a prototype member stays a plain key', () => {
    const item = JSON.parse('{"__proto__":{"polluted":1},"id":1}') as Record<string, unknown>;
    const picked = pickFields(item, fields('__proto__,id')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect(Object.keys(picked)).toEqual(['__proto__', 'id']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('pickAnswerFields', () => {
  const list = { events: [event, { ...event, id: 8 }], rest_url: 'http://x/events', total: 2, total_pages: 1 };

  it('a list: each item under the collection key is narrowed, the envelope stays whole', () => {
    expect(pickAnswerFields(list, 'events', fields('id,total'))).toEqual({
      events: [{ id: 7 }, { id: 8 }],
      rest_url: 'http://x/events',
      total: 2,
      total_pages: 1,
    });
  });

  it('a single item is narrowed itself', () => {
    expect(pickAnswerFields(event, undefined, fields('id,title'))).toEqual({ id: 7, title: 'Concert' });
  });

  it('a list without its collection key is left as it is', () => {
    expect(pickAnswerFields(list, 'venues', fields('id'))).toBe(list);
    expect(pickAnswerFields([1, 2], 'events', fields('id'))).toEqual([1, 2]);
  });
});
