/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on
 * every machine and Node version, which is what makes `seed --seed S` and the benchmark's
 * random requests reproducible. Not for anything that must be unpredictable.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /**
   * An index in [0, n) where low indexes are more likely (density falling like 1/√x): a few
   * popular venues, categories and tags, and a long tail, as real calendars have.
   */
  skewedIndex(n: number): number {
    return Math.min(n - 1, Math.floor(n * this.next() ** 2));
  }

  /** Picks by weight: `[[value, weight], …]`; weights need not add up to 1. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [value, weight] of choices) {
      r -= weight;
      if (r < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  /** `count` distinct indexes in [0, n), drawn with skewedIndex (fewer when n is smaller). */
  distinctSkewed(n: number, count: number): number[] {
    const out: number[] = [];
    for (let tries = 0; out.length < Math.min(count, n) && tries < count * 8; tries++) {
      const i = this.skewedIndex(n);
      if (!out.includes(i)) out.push(i);
    }
    return out;
  }
}
