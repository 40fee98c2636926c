import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-limits';

describe('nestsDeeperThan', () => {
  it.each([
    ['{}', 1, false],
    ['{"a":{"b":[1,[2]]}}', 4, false],
    ['{"a":{"b":[1,[2]]}}', 3, true],
    ['"[[[[[[["', 1, false],
    ['{"s":"\\"[[[[","t":[]}', 2, false],
    ['[[[]]] [[[[]]]]', 3, true],
  ])('%s within %d: %p', (text, max, deeper) => {
    expect(nestsDeeperThan(text, max)).toBe(deeper);
  });

  it('finds a body nested thousands deep without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(nestsDeeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
  });
});
