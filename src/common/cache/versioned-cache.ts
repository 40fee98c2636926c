/**
 * A small LRU map whose entries are only valid for the data version they were computed at.
 * Used for list totals and presented events; bounded so memory stays flat.
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, { version: string; value: V }>();

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

  /** The cached value, else `compute()`'s, kept for this version. */
  async through(key: string, version: string, compute: () => Promise<V>): Promise<V> {
    const hit = this.get(key, version);
    if (hit !== undefined) return hit;
    const value = await compute();
    this.set(key, version, value);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
