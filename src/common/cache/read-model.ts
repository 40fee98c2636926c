import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../config/app-config';
import { CacheShares } from './cache-shares';
import { DataVersion } from './data-version.service';

/**
 * What a cached value costs, in bytes, for the byte bound of its cache. Buffers count their
 * bytes; everything else a rough estimate of its heap size. The key (a JSON filter set, often
 * longer than the value) counts too.
 */
export function approximateBytes(value: unknown, key: string): number {
  return 64 + key.length * 2 + valueBytes(value);
}

function valueBytes(value: unknown): number {
  if (Buffer.isBuffer(value)) return value.byteLength;
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return 8;
  if (typeof value === 'string') return value.length * 2;
  if (Array.isArray(value)) return 16 + value.reduce<number>((sum, item) => sum + valueBytes(item), 0);
  if (typeof value === 'object') return 32 + Object.values(value).reduce<number>((sum, item) => sum + valueBytes(item), 0);
  return 256;
}

export interface CacheStats {
  name: string;
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
}

/**
 * One named cache of the read model: an LRU map bounded by the bytes its entries hold (lru-cache),
 * emptied by the read model whenever the data version moves. Values must not depend on the caller
 * unless the key says so. Callers missing one key together share one computation.
 */
export class NamedCache<V extends NonNullable<unknown>> {
  private lru: LRUCache<string, V>;
  /** Computations under way in through(), by key, tagged with the generation they started in. */
  private readonly pending = new Map<string, { generation: number; value: Promise<V> }>();
  private hits = 0;
  private misses = 0;

  constructor(
    readonly name: string,
    readonly maxBytes: number,
    private readonly generation: () => number,
  ) {
    this.lru = this.emptyLru();
  }

  private emptyLru(): LRUCache<string, V> {
    return new LRUCache<string, V>({ maxSize: this.maxBytes, sizeCalculation: (value, key) => Math.max(1, approximateBytes(value, key)) });
  }

  /** The data's generation now: what a computation started now passes to set(). */
  mark(): number {
    return this.generation();
  }

  get(key: string): V | undefined {
    const hit = this.lru.get(key);
    if (hit === undefined) this.misses += 1;
    else this.hits += 1;
    return hit;
  }

  /** Keeps `value` unless the data moved since `generation` (what the caller read may be stale). */
  set(key: string, value: V, generation = this.generation()): void {
    if (generation === this.generation()) this.lru.set(key, value);
  }

  /** The cached value, else `compute()`'s (kept unless the data moved while it ran). */
  async through(key: string, compute: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation();
    const running = this.pending.get(key);
    if (running?.generation === generation) return running.value;
    const entry = { generation, value: compute() };
    this.pending.set(key, entry);
    try {
      const done = await entry.value;
      this.set(key, done, generation);
      return done;
    } finally {
      if (this.pending.get(key) === entry) this.pending.delete(key);
    }
  }

  /**
   * Empties the cache. Every write empties every cache, so this must not cost more than the
   * entries it drops: lru-cache's own clear() walks every slot the cache ever grew to (two
   * array fills over them, whatever it holds now), about 20 µs a write in the profiles. A new
   * LRU costs a few small allocations; the old one goes to the collector.
   */
  clear(): void {
    if (this.lru.size > 0) this.lru = this.emptyLru();
    if (this.pending.size > 0) this.pending.clear();
  }

  stats(): CacheStats {
    return { name: this.name, entries: this.lru.size, bytes: this.lru.calculatedSize, maxBytes: this.maxBytes, hits: this.hits, misses: this.misses };
  }
}

/**
 * The read model: every cache of read results in one place, by name, each bounded in bytes.
 * All of them are emptied together when the data version moves, and the data version only
 * moves through the unit of work: a write committed in this process (`committed()`, called by
 * UnitOfWork) or the change rows another process's unit of work appended (noticed by
 * DataVersion's poll). Nothing else invalidates a cache.
 *
 * A reader calls `snapshot()` once per request before it reads a cache: that is when a change
 * made elsewhere is noticed. What it computes from the database is kept only if the data did not
 * move while it ran (each cache compares generations), so no stale result outlives a write.
 */
@Injectable()
export class ReadModel {
  private readonly caches = new Map<string, Pick<NamedCache<NonNullable<unknown>>, 'clear' | 'stats'>>();
  /** The caches whose keys name their content (a hash of it): no write makes them stale, so they are not flushed. */
  private readonly lasting = new Set<string>();
  private generation = 0;
  private seenVersion: string | null = null;

  constructor(
    private readonly version: DataVersion,
    private readonly config: AppConfig,
    private readonly shares: CacheShares,
  ) {}

  /**
   * The cache `name`, bounded to its share of CALENDAR_CACHE_MB (CacheShares: declared by its
   * feature; an unknown name throws). Features take theirs at construction, so at start-up.
   */
  cache<V extends NonNullable<unknown>>(name: string): NamedCache<V> {
    return this.register(name, () => this.generation);
  }

  /**
   * A cache keyed by what its values are made from (a content hash): it never holds a stale value,
   * so writes leave it alone and only its byte bound evicts. For the compressed forms of bodies.
   */
  contentCache<V extends NonNullable<unknown>>(name: string): NamedCache<V> {
    this.lasting.add(name);
    return this.register(name, () => 0);
  }

  private register<V extends NonNullable<unknown>>(name: string, generation: () => number): NamedCache<V> {
    if (this.caches.has(name)) throw new Error(`read model: the cache ${name} is taken twice`);
    const maxBytes = Math.floor(this.shares.of(name) * this.config.cacheMb * 1024 * 1024);
    const cache = new NamedCache<V>(name, maxBytes, generation);
    this.caches.set(name, cache);
    return cache;
  }

  /** Brings the caches up to date with the data (cheap: DataVersion polls at most every 250 ms); returns the version. */
  async snapshot(): Promise<string> {
    const version = this.version.fresh() ?? (await this.version.current());
    this.follow(version);
    return version;
  }

  /**
   * snapshot() that reads the change log now, whatever the poll's interval: for a reader that
   * must see every write committed before it started, wherever it committed (the webhook
   * worker, which presents items whose changes another instance may have written).
   */
  async catchUp(): Promise<string> {
    this.version.nudge();
    return this.snapshot();
  }

  /** snapshot() without waiting, when no poll is due: false when one is (then await snapshot()). */
  snapshotNow(): boolean {
    const version = this.version.fresh();
    if (version === undefined) return false;
    this.follow(version);
    return true;
  }

  /** The data version is `version`: when it moved since last seen, every cache is emptied. */
  private follow(version: string): void {
    if (version === this.seenVersion) return;
    if (this.seenVersion !== null) this.flush();
    this.seenVersion = version;
  }

  /** After the commit of a write in this process (UnitOfWork): the next read sees it. */
  committed(): void {
    this.version.committed();
    this.seenVersion = this.version.known();
    this.flush();
  }

  stats(): CacheStats[] {
    return [...this.caches.values()].map((c) => c.stats());
  }

  private flush(): void {
    this.generation += 1;
    for (const [name, cache] of this.caches) if (!this.lasting.has(name)) cache.clear();
  }
}
