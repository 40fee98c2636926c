import { Injectable } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config';
import { LimiterStore } from '../users';
import { SUBMISSIONS_PER_ADDRESS, SUBMISSIONS_PER_HOUR } from './submission-settings';

/** The window of both limits (editing.md §4: per hour). */
const HOUR_SECONDS = 3600;

/** A submission over a limit: which one, and when the next is taken. */
export class SubmissionLimited extends Error {
  constructor(
    readonly which: 'address' | 'everyone',
    readonly retryAfterSeconds: number,
  ) {
    super(`over the ${which} limit of submissions`);
  }
}

/**
 * The hourly limits of submissions (editing.md §4, CALENDAR_SUBMISSIONS_PER_ADDRESS and
 * CALENDAR_SUBMISSIONS_PER_HOUR), counted like the failed sign-ins: by rate-limiter-flexible in
 * this process, or in Redis for every instance when REDIS_URL is set (LimiterStore). A
 * submission takes its point from both counters before it is written, in one atomic step per
 * counter, so that many sent at once cannot all pass; one that is refused (over a limit, or
 * refused by the write) gives its points back, so only the submissions taken count.
 */
@Injectable()
export class SubmissionLimits {
  private readonly byAddress: RateLimiterAbstract;
  private readonly everyone: RateLimiterAbstract;

  constructor(config: AppConfig, store: LimiterStore) {
    this.byAddress = store.limiter({ keyPrefix: 'submissions-address', points: config.get(SUBMISSIONS_PER_ADDRESS), duration: HOUR_SECONDS });
    this.everyone = store.limiter({ keyPrefix: 'submissions-all', points: config.get(SUBMISSIONS_PER_HOUR), duration: HOUR_SECONDS });
  }

  /** Counts one submission from `address`; throws SubmissionLimited (having counted nothing) when a limit is reached. */
  async take(address: string): Promise<void> {
    await this.consume(this.byAddress, addressKey(address), 'address');
    try {
      await this.consume(this.everyone, EVERYONE, 'everyone');
    } catch (err) {
      await this.byAddress.reward(addressKey(address), 1);
      throw err;
    }
  }

  /** Gives back what take() counted, for a submission the write then refused. */
  async giveBack(address: string): Promise<void> {
    await Promise.all([this.byAddress.reward(addressKey(address), 1), this.everyone.reward(EVERYONE, 1)]);
  }

  /** One point of `key`; past the limit the point is given back (a refusal counts nothing) and the refusal thrown. */
  private async consume(limiter: RateLimiterAbstract, key: string, which: SubmissionLimited['which']): Promise<void> {
    try {
      await limiter.consume(key, 1);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      await limiter.reward(key, 1);
      throw new SubmissionLimited(which, Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    }
  }
}

const EVERYONE = 'all';
const addressKey = (address: string) => `ip:${address}`;
