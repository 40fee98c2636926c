import { parseOrganizerInput, parseVenueInput } from './linked-input';

describe('parseVenueInput (spec endpoints.md §4.4)', () => {
  it.each([[undefined], [null]])('%p leaves the venue as it is', (v) => expect(parseVenueInput(v)).toBeUndefined());
  it.each([[0], ['0'], [''], [[]], [{}]])('%p removes the venue', (v) => expect(parseVenueInput(v)).toBeNull());
  it.each([
    [12, { kind: 'id', id: 12 }],
    ['12', { kind: 'id', id: 12 }],
    [{ id: 12 }, { kind: 'ref', id: 12 }],
    [{ id: '12' }, { kind: 'ref', id: 12 }],
    [[12], { kind: 'id', id: 12 }],
    [[{ id: 3 }], { kind: 'ref', id: 3 }],
    [
      { venue: 'Hall', city: 'Rome' },
      { kind: 'new', data: { venue: 'Hall', city: 'Rome' } },
    ],
    [{ 0: { venue: 'Hall' } }, { kind: 'new', data: { venue: 'Hall' } }],
  ])('%p → %p', (v, expected) => expect(parseVenueInput(v)).toEqual(expected));

  it('refuses more than one venue', () => {
    expect(() => parseVenueInput([1, 2])).toThrow(
      expect.objectContaining({ code: 'rest_invalid_param', data: { params: { venue: expect.any(String) }, details: {} } }),
    );
  });
  it.each([['foo'], [true], [-3], [1.5]])('refuses %p as a parameter error', (v) => {
    expect(() => parseVenueInput(v)).toThrow(expect.objectContaining({ code: 'rest_invalid_param' }));
  });
  it('refuses a non-numeric id object as an invalid linked id', () => {
    expect(() => parseVenueInput({ id: 'abc' })).toThrow(expect.objectContaining({ code: 'invalid-linked-post-id', status: 400 }));
  });
});

describe('parseOrganizerInput (spec endpoints.md §4.4)', () => {
  it('leaves organizers as they are when absent', () => expect(parseOrganizerInput(undefined)).toBeUndefined());
  it.each([[[]], [0], ['']])('%p removes all', (v) => expect(parseOrganizerInput(v)).toEqual([]));
  it('reads a mixed list in order', () => {
    expect(parseOrganizerInput([3, '4', { id: 5 }, { organizer: 'Ann' }])).toEqual([
      { kind: 'id', id: 3 },
      { kind: 'id', id: 4 },
      { kind: 'ref', id: 5 },
      { kind: 'new', data: { organizer: 'Ann' } },
    ]);
  });
  it('reads a comma list of ids and a single id', () => {
    expect(parseOrganizerInput('3, 4')).toEqual([
      { kind: 'id', id: 3 },
      { kind: 'id', id: 4 },
    ]);
    expect(parseOrganizerInput(7)).toEqual([{ kind: 'id', id: 7 }]);
  });
  it('fails the whole list on one bad element', () => {
    expect(() => parseOrganizerInput([3, 'x'])).toThrow(expect.objectContaining({ code: 'rest_invalid_param' }));
  });
});
