import type { Feature } from '../feature/feature';

/**
 * The caches of the core itself (not of a feature), with their shares of CALENDAR_CACHE_MB:
 * `responses` keeps whole anonymous answers by the second and `encodings` their compressed
 * forms (common/http/response-cache.ts).
 */
const CORE_CACHES: Readonly<Record<string, number>> = { responses: 0.12, encodings: 0.04 };

/** The caches every list collection reads through (common/pagination/list-pipeline.ts). */
const LIST_CACHES = ['totals', 'page-ids'] as const;

/**
 * Every cache of the read model with its share of CALENDAR_CACHE_MB: the core's and those the
 * installed features declare (Feature.caches). Checked once, when the app is composed: a name
 * declared twice, a share outside (0, 1], or a list collection without its `.totals` and
 * `.page-ids` caches stop the start; ReadModel.cache() refuses a name no one declared.
 *
 * The core's shares add up to 1 (tuned with the bench). An extension's caches come on top, so
 * when the declared shares add up to more than 1 every share is scaled down by the total: the
 * whole stays within CALENDAR_CACHE_MB and each cache keeps its weight relative to the others
 * (an extension with a 5% cache costs every other cache about 5% of its size), instead of an
 * extension being refused for want of an unclaimed share.
 */
export class CacheShares {
  private readonly shares = new Map<string, number>();

  constructor(declared: readonly Readonly<Record<string, number>>[], listCollections: readonly string[] = []) {
    for (const caches of declared) {
      for (const [name, share] of Object.entries(caches)) {
        if (this.shares.has(name)) throw new Error(`read model: the cache ${name} is declared twice`);
        if (!(share > 0 && share <= 1)) throw new Error(`read model: the cache ${name} needs a share above 0 and at most 1`);
        this.shares.set(name, share);
      }
    }
    // A little tolerance for the sum of decimal fractions: the core's own add up to 1.
    const total = this.total();
    if (total > 1 + 1e-9) for (const [name, share] of this.shares) this.shares.set(name, share / total);
    for (const collection of listCollections) {
      const missing = LIST_CACHES.map((c) => `${collection}.${c}`).filter((name) => !this.shares.has(name));
      if (missing.length > 0) throw new Error(`read model: the list collection ${collection} declares no cache ${missing.join(', ')}`);
    }
  }

  /** The core's caches and the features'. */
  static of(features: readonly Feature[]): CacheShares {
    return new CacheShares(
      [CORE_CACHES, ...features.map((f) => f.caches ?? {})],
      features.flatMap((f) => f.listCollections ?? []),
    );
  }

  /** The share of the cache `name`; a name no one declared is a programming error, said at start-up. */
  of(name: string): number {
    const share = this.shares.get(name);
    if (share === undefined) throw new Error(`read model: no feature declares the cache ${name}`);
    return share;
  }

  names(): string[] {
    return [...this.shares.keys()];
  }

  total(): number {
    return [...this.shares.values()].reduce((a, b) => a + b, 0);
  }
}
