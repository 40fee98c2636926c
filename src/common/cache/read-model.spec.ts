import { loadConfig } from '../../config/app-config';
import { FEATURES } from '../../features';
import { CacheShares } from './cache-shares';
import type { DataVersion } from './data-version.service';
import { approximateBytes, ReadModel } from './read-model';

/** The shares of the installed features. */
const SHARES = CacheShares.of(FEATURES);

/** A data version moved by hand: `other()` plays another process's write, `committed()` this one's. */
class FakeVersion {
  shared = 0;
  local = 0;
  known = () => `${this.shared}.${this.local}`;
  current = async () => this.known();
  /** Set `polledRecently` to answer without a poll, as DataVersion does within 250 ms of one. */
  polledRecently = false;
  fresh = () => (this.polledRecently ? this.known() : undefined);
  committed = () => void (this.local += 1);
  other = () => void (this.shared += 1);
}

const setup = (cacheMb = 4) => {
  const version = new FakeVersion();
  const model = new ReadModel(version as unknown as DataVersion, loadConfig({ CALENDAR_CACHE_MB: String(cacheMb) }), SHARES);
  return { version, model };
};

describe('ReadModel', () => {
  it("gives every cache its share of CALENDAR_CACHE_MB, and the installed features' shares add up to the whole", () => {
    expect(SHARES.total()).toBeCloseTo(1, 6);
    const { model } = setup(10);
    model.cache('events.listed');
    expect(model.stats()).toEqual([expect.objectContaining({ name: 'events.listed', maxBytes: Math.floor(SHARES.of('events.listed') * 10 * 1024 * 1024) })]);
  });

  it('refuses a cache no feature declares, when it is taken (at start-up), not later', () => {
    const { model } = setup();
    expect(() => model.cache('nobody.listed')).toThrow(/no feature declares the cache nobody\.listed/);
    expect(() => model.contentCache('nobody.encodings')).toThrow(/no feature declares/);
  });

  it('refuses a cache taken twice (two owners would flush and fill one another)', () => {
    const { model } = setup();
    model.cache('tags.listed');
    expect(() => model.cache('tags.listed')).toThrow(/twice/);
  });

  it('bounds a cache by bytes, evicting the least recently used entries', () => {
    const { model } = setup(4); // events.singles: 8% of 4 MB ≈ 335 kB
    const cache = model.cache<Buffer>('events.singles');
    const item = Buffer.alloc(100 * 1024);
    for (let i = 0; i < 3; i++) cache.set(`k${i}`, item);
    expect(cache.get('k0')).toBe(item); // k0 is now the most recent
    cache.set('k3', item);
    cache.set('k4', item); // 5 × 100 kB > 335 kB: the two least recent (k1, k2) go
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k2')).toBeUndefined();
    expect(cache.get('k0')).toBe(item);
    const [stats] = model.stats();
    expect(stats.bytes).toBeLessThanOrEqual(stats.maxBytes);
    expect(stats.entries).toBe(3);
    // Emptied by a write, it is bounded as before.
    model.committed();
    expect(model.stats()[0]).toMatchObject({ entries: 0, bytes: 0 });
    for (let i = 0; i < 5; i++) cache.set(`n${i}`, item);
    expect(model.stats()[0]).toMatchObject({ entries: 3, maxBytes: stats.maxBytes });
    expect(cache.get('n0')).toBeUndefined();
  });

  it('leaves a content cache (keyed by a hash of what it holds) alone on writes', () => {
    const { version, model } = setup();
    const flushed = model.cache<number>('events.totals');
    const lasting = model.contentCache<Buffer>('encodings');
    flushed.set('x', 1);
    lasting.set('"tag"-br', Buffer.from('coded'));
    model.committed();
    version.other();
    expect(flushed.get('x')).toBeUndefined();
    expect(lasting.get('"tag"-br')?.toString()).toBe('coded');
    expect(() => model.contentCache('encodings')).toThrow(/twice/);
  });

  it('empties every cache when this process commits a write', () => {
    const { model } = setup();
    const a = model.cache<number>('events.totals');
    const b = model.cache<number[]>('venues.page-ids');
    a.set('x', 1);
    b.set('y', [1, 2]);
    model.committed();
    expect(a.get('x')).toBeUndefined();
    expect(b.get('y')).toBeUndefined();
  });

  it("empties every cache at the first snapshot after another process's write, and not otherwise", async () => {
    const { version, model } = setup();
    const cache = model.cache<number>('events.totals');
    await model.snapshot();
    cache.set('x', 1);
    await model.snapshot();
    expect(cache.get('x')).toBe(1);
    version.other();
    await model.snapshot();
    expect(cache.get('x')).toBeUndefined();
  });

  it('snapshotNow follows the version without waiting when no poll is due, and says so when one is', () => {
    const { version, model } = setup();
    const cache = model.cache<number>('events.totals');
    expect(model.snapshotNow()).toBe(false); // a poll is due: the caller awaits snapshot()
    version.polledRecently = true;
    expect(model.snapshotNow()).toBe(true);
    cache.set('x', 1);
    version.other();
    expect(model.snapshotNow()).toBe(true);
    expect(cache.get('x')).toBeUndefined();
  });

  it('does not keep what was computed from data a write changed meanwhile', async () => {
    const { model } = setup();
    const cache = model.cache<number>('events.totals');
    let finish!: (n: number) => void;
    const running = cache.through('x', () => new Promise<number>((resolve) => (finish = resolve)));
    model.committed(); // a write commits while the count runs
    finish(41);
    expect(await running).toBe(41); // the caller that asked before the write gets its answer…
    expect(cache.get('x')).toBeUndefined(); // …but the next reader does not
    expect(await cache.through('x', async () => 42)).toBe(42);
  });

  it('computes a missing value once for callers that miss it together, and never keeps a failure', async () => {
    const { model } = setup();
    const cache = model.cache<number>('events.totals');
    let runs = 0;
    let finish!: (n: number) => void;
    const compute = () => {
      runs += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const both = Promise.all([cache.through('k', compute), cache.through('k', compute)]);
    finish(7);
    expect(await both).toEqual([7, 7]);
    expect(runs).toBe(1);
    await expect(cache.through('f', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.through('f', async () => 3)).toBe(3);
  });

  it('counts hits and misses per cache', () => {
    const { model } = setup();
    const cache = model.cache<number>('tags.totals');
    cache.get('a');
    cache.set('a', 1);
    cache.get('a');
    cache.get('a');
    expect(model.stats()[0]).toMatchObject({ name: 'tags.totals', hits: 2, misses: 1, entries: 1 });
  });
});

describe('approximateBytes', () => {
  it('counts a Buffer by its bytes, an array by its items, and the key', () => {
    expect(approximateBytes(Buffer.alloc(1000), 'k')).toBe(64 + 2 + 1000);
    expect(approximateBytes([1, 2, 3], '')).toBe(64 + 16 + 24);
    expect(approximateBytes(5, 'a'.repeat(100))).toBe(64 + 200 + 8);
    expect(approximateBytes({ body: Buffer.alloc(500), headers: [['a', 'bc']] }, '')).toBe(64 + 32 + 500 + 16 + 16 + 2 + 4);
  });
});

describe('CacheShares', () => {
  it("takes the core's caches and each feature's, by name", () => {
    const shares = CacheShares.of([
      { name: 'a', caches: { 'a.one': 0.3 } },
      { name: 'b', caches: { 'b.two': 0.2 } },
    ]);
    expect(shares.of('a.one')).toBe(0.3);
    expect(shares.of('b.two')).toBe(0.2);
    expect(shares.names()).toEqual(expect.arrayContaining(['responses', 'encodings', 'a.one', 'b.two']));
  });

  it('refuses a name declared twice, a share of nothing and a share above the whole', () => {
    expect(() => new CacheShares([{ x: 0.1 }, { x: 0.1 }])).toThrow(/x is declared twice/);
    expect(() => new CacheShares([{ x: 0 }])).toThrow(/share above 0/);
    expect(() => new CacheShares([{ x: 1.5 }])).toThrow(/at most 1/);
  });

  it('scales every share by the total when they add up to more than 1, keeping their weights', () => {
    const shares = new CacheShares([{ x: 0.6 }, { y: 0.6 }, { z: 0.3 }]);
    expect(shares.of('x')).toBeCloseTo(0.4);
    expect(shares.of('y')).toBeCloseTo(0.4);
    expect(shares.of('z')).toBeCloseTo(0.2);
    expect(shares.total()).toBeCloseTo(1);
  });

  it("leaves the core's shares as they are, and space for an extension's cache by scaling them", () => {
    const core = CacheShares.of(FEATURES);
    expect(core.total()).toBeCloseTo(1);
    const extended = CacheShares.of([...FEATURES, { name: 'extra', caches: { 'extra.things': 0.05 } }]);
    expect(extended.of('extra.things')).toBeCloseTo(0.05 / 1.05);
    expect(extended.of('responses')).toBeCloseTo(core.of('responses') / 1.05);
    expect(extended.total()).toBeCloseTo(1);
  });

  it('refuses a list collection without its totals and page-ids caches', () => {
    expect(() => new CacheShares([{ 'things.totals': 0.1 }], ['things'])).toThrow(/things declares no cache things\.page-ids/);
    expect(() => new CacheShares([{ 'things.totals': 0.1, 'things.page-ids': 0.1 }], ['things'])).not.toThrow();
  });
});
