import { INVALID, toIdList, toInt, toList, toLooseBool, toNameList, toPathId, toStrictBool } from './coerce';

describe('toInt (spec README §5)', () => {
  it.each([
    ['3', 3],
    [3, 3],
    ['3.0', 3],
    [3.0, 3],
    [' 7 ', 7],
    ['-1', -1],
    ['0', 0],
  ])('reads %p as %p', (input, expected) => expect(toInt(input)).toBe(expected));

  it.each(['foo', '1.5', 1.5, 'foo bar', '', '1e3', '0x10', null, undefined, true, [], {}])('rejects %p', (input) => {
    expect(toInt(input)).toBe(INVALID);
  });
});

describe('toStrictBool (typed booleans, README §4)', () => {
  it.each([
    [true, true],
    ['true', true],
    ['TRUE', true],
    ['1', true],
    [1, true],
    [false, false],
    ['false', false],
    ['False', false],
    ['0', false],
    [0, false],
    ['', false],
  ])('reads %p as %p', (input, expected) => expect(toStrictBool(input)).toBe(expected));

  it.each(['yes', 'on', '2', 2, 'foo', null, [], {}])('rejects %p', (input) => expect(toStrictBool(input)).toBe(INVALID));
});

describe('toLooseBool (loose flags, README §4)', () => {
  it.each([true, 'true', 'yes', 'YES', 'on', '1', 1])('%p is true', (input) => expect(toLooseBool(input)).toBe(true));
  it.each([false, 'false', 'no', 'off', '0', 0, '', 'foo', null, undefined, 2])('%p is false', (input) => expect(toLooseBool(input)).toBe(false));
});

describe('toList / toIdList (array forms, README §3)', () => {
  it.each([
    ['12,15', ['12', '15']],
    ['publish, draft', ['publish', 'draft']],
    [
      ['12', '15'],
      ['12', '15'],
    ],
    [{ 0: '12', 1: '15' }, ['12', '15']],
    [{ 1: '15', 0: '12' }, ['12', '15']],
    ['12', ['12']],
    [12, ['12']],
    ['12,,15,', ['12', '15']],
    ['', []],
    [[], []],
    [
      ['1,2', '3'],
      ['1', '2', '3'],
    ],
  ])('splits %p into %p', (input, expected) => expect(toList(input)).toEqual(expected));

  it.each([[{ a: '1' }], [[['1']]], [[{ id: 1 }]], [true]])('rejects %p', (input) => expect(toList(input)).toBe(INVALID));

  it('reads ids', () => expect(toIdList('3, 4,5')).toEqual([3, 4, 5]));
  it.each(['0', '-1', 'a', '1.5', '1,foo', '99999999999999999999'])('rejects ids %p', (input) => expect(toIdList(input)).toBe(INVALID));
});

describe('toNameList (category and tag names, endpoints.md §4.5)', () => {
  it.each([
    [['Jazz, Blues; Soul'], { items: ['Jazz, Blues; Soul'] }],
    [{ 0: ' Jazz, Blues ', 1: 7 }, { items: ['Jazz, Blues', '7'] }],
    [' Jazz, Blues; Soul ', { items: ['Jazz', 'Blues; Soul'], whole: 'Jazz, Blues; Soul' }],
    ['Rock,,Pop,', { items: ['Rock', 'Pop'], whole: 'Rock,,Pop,' }],
    ['Soul; Funk', { items: ['Soul; Funk'] }],
    [12, { items: ['12'] }],
    ['', { items: [] }],
    [[' ', ''], { items: [] }],
  ])('reads %p as %p', (input, expected) => expect(toNameList(input)).toEqual(expected));

  it.each([[{ a: '1' }], [[['1']]], [[{ id: 1 }]], [true]])('rejects %p', (input) => expect(toNameList(input)).toBe(INVALID));
});

describe('toPathId (README §1: ids are digits only)', () => {
  it('reads digits', () => expect(toPathId('42')).toBe(42));
  it('maps ids beyond storage to 0 (never found)', () => expect(toPathId('99999999999999999999')).toBe(0));
  it.each(['abc', '4a', '-1', '', '1.0'])('rejects %p', (input) => expect(toPathId(input)).toBe(INVALID));
});
