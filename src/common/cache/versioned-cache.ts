/**
 * A small LRU map whose entries are only valid for the data version they were computed at.
 * Used for list totals and presented events; bounded so memory stays flat.
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, { version: string; value: V }>();
  /** Computations under way in through(), by key. */
  private readonly pending = new Map<string, { version: string; value: Promise<V> }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, version: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    // Refresh its place: Map keeps insertion order, the oldest entry is evicted first.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, version: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /**
   * The cached value, else `compute()`'s, kept for this version. Callers missing the same key
   * at the same version while it is being computed share that one computation.
   */
  async through(key: string, version: string, compute: () => Promise<V>): Promise<V> {
    const hit = this.get(key, version);
    if (hit !== undefined) return hit;
    const running = this.pending.get(key);
    if (running?.version === version) return running.value;
    const value = compute();
    const entry = { version, value };
    this.pending.set(key, entry);
    try {
      const done = await value;
      this.set(key, version, done);
      return done;
    } finally {
      if (this.pending.get(key) === entry) this.pending.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
