import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { REST_TOO_MANY_REQUESTS, WpError } from '../common/errors';
import type { LimiterOptions } from './limiter-store';

/** 429 with the seconds until the window lets the caller in again (beyond.md #9). */
export const tooManyRequests = (retryAfterMs: number): WpError => {
  const err = new WpError(REST_TOO_MANY_REQUESTS, 'Too many requests; try again later.', 429);
  err.headers = { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
  return err;
};

/**
 * Failed authentications counted per login and per client address (beyond.md #9): once either
 * has `maxFailures` in the window, every authentication for it answers 429 until the window
 * has passed, a correct password too (a guesser must not learn when it guessed right). The
 * counters are rate-limiter-flexible limiters, in this process or shared through Redis
 * (LimiterStore).
 *
 * A failure is counted before it is answered, in one atomic step that also says whether it
 * was within the limit (`take`): requests checked at the same moment cannot all read "9 so
 * far" and all answer 401. A check that succeeds gives its point back (`giveBack`).
 */
export class FailedAuthLimiter {
  private readonly failures: RateLimiterAbstract;

  constructor(
    private readonly maxFailures: number,
    windowSeconds: number,
    store?: RateLimiterAbstract,
  ) {
    this.failures = store ?? new RateLimiterMemory(failureLimits(maxFailures, windowSeconds));
  }

  /** Throws 429 when the login or the address has used up its failures. */
  async assertAllowed(login: string, address: string): Promise<void> {
    const [byLogin, byAddress] = await Promise.all([this.failures.get(loginKey(login)), this.failures.get(addressKey(address))]);
    const blocked = [byLogin, byAddress].filter((r): r is RateLimiterRes => r !== null && r.consumedPoints >= this.maxFailures);
    if (blocked.length > 0) throw tooManyRequests(Math.max(...blocked.map((r) => r.msBeforeNext)));
  }

  /**
   * Counts one failure against both the login and the address, atomically in the store, and
   * throws 429 when it went past the limit of either: only failures within the limit may be
   * answered 401.
   */
  async take(login: string, address: string): Promise<void> {
    const results = await Promise.allSettled([loginKey(login), addressKey(address)].map((key) => this.failures.consume(key, 1)));
    const over: RateLimiterRes[] = [];
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      if (!(r.reason instanceof RateLimiterRes)) throw r.reason;
      over.push(r.reason);
    }
    if (over.length > 0) throw tooManyRequests(Math.max(...over.map((r) => r.msBeforeNext)));
  }

  /** Returns a point taken for a check that then succeeded (or could not be made). */
  async giveBack(login: string, address: string): Promise<void> {
    await Promise.all([loginKey(login), addressKey(address)].map((key) => this.failures.reward(key, 1)));
  }
}

export const failureLimits = (maxFailures: number, windowSeconds: number): LimiterOptions => ({
  keyPrefix: 'auth-fail',
  points: maxFailures,
  duration: windowSeconds,
});
const requestLimits = (perMinute: number): LimiterOptions => ({ keyPrefix: 'requests', points: perMinute, duration: 60 });

const loginKey = (login: string) => `login:${login}`;
const addressKey = (address: string) => `ip:${address}`;

/**
 * An optional general limit (CALENDAR_RATE_LIMIT requests a minute) per credential, or per
 * address for anonymous callers; off when the limit is 0.
 */
export class RequestLimiter {
  private readonly requests: RateLimiterAbstract | null;

  constructor(perMinute: number, store?: (opts: LimiterOptions) => RateLimiterAbstract) {
    const opts = requestLimits(perMinute);
    this.requests = perMinute > 0 ? (store ?? ((o) => new RateLimiterMemory(o)))(opts) : null;
  }

  /** Is there a limit to count against (CALENDAR_RATE_LIMIT > 0)? */
  get counting(): boolean {
    return this.requests !== null;
  }

  async take(key: string): Promise<void> {
    if (!this.requests) return;
    try {
      await this.requests.consume(key, 1);
    } catch (res) {
      if (res instanceof RateLimiterRes) throw tooManyRequests(res.msBeforeNext);
      throw res;
    }
  }
}
