import { VersionedCache } from './versioned-cache';

describe('VersionedCache', () => {
  it('returns a value only for the version it was stored at', () => {
    const cache = new VersionedCache<number>(10);
    cache.set('a', '1.0', 42);
    expect(cache.get('a', '1.0')).toBe(42);
    expect(cache.get('a', '1.1')).toBeUndefined();
    expect(cache.get('a', '1.0')).toBeUndefined(); // a stale entry is dropped
  });

  it('evicts the least recently used entry beyond its size', () => {
    const cache = new VersionedCache<string>(2);
    cache.set('a', 'v', 'A');
    cache.set('b', 'v', 'B');
    expect(cache.get('a', 'v')).toBe('A'); // a is now the most recent
    cache.set('c', 'v', 'C');
    expect(cache.get('b', 'v')).toBeUndefined();
    expect(cache.get('a', 'v')).toBe('A');
    expect(cache.get('c', 'v')).toBe('C');
    expect(cache.size).toBe(2);
  });
});
