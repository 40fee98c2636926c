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

  it('computes a missing value once for callers that miss it together, and again for a new version', async () => {
    const cache = new VersionedCache<number>(10);
    let runs = 0;
    let finish!: (n: number) => void;
    const compute = () => {
      runs += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const first = cache.through('k', 'v1', compute);
    const second = cache.through('k', 'v1', compute);
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    expect(runs).toBe(1);
    expect(await cache.through('k', 'v1', compute)).toBe(7); // kept
    const third = cache.through('k', 'v2', compute);
    finish(8);
    expect(await third).toBe(8);
    expect(runs).toBe(2);
  });

  it('does not keep a failed computation', async () => {
    const cache = new VersionedCache<number>(10);
    await expect(cache.through('k', 'v', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.through('k', 'v', async () => 3)).toBe(3);
  });
});
