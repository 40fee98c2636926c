import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { AppConfig, redactUrl } from '../config/app-config';

export interface LimiterOptions {
  /** Names the counter family (`auth-fail`, `requests`); part of every key. */
  keyPrefix: string;
  points: number;
  /** Window in seconds. */
  duration: number;
}

/**
 * Where rate-limit counters live (beyond.md #9): in this process, or in Redis when REDIS_URL is
 * set, so that every instance behind a load balancer counts the same failures. A Redis that is
 * down or slow must not lock everybody out nor let a guesser through unlimited: each Redis
 * limiter has an in-process limiter as its insurance, which counts while Redis does not answer.
 */
@Injectable()
export class LimiterStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis | null;
  private readonly prefix: string;
  private lastError = '';

  constructor(config: AppConfig) {
    this.prefix = config.redisPrefix;
    this.redis = config.redisUrl ? this.connect(config.redisUrl) : null;
  }

  limiter(opts: LimiterOptions): RateLimiterAbstract {
    const memory = new RateLimiterMemory(opts);
    if (!this.redis) return memory;
    return new RateLimiterRedis({
      ...opts,
      keyPrefix: `${this.prefix}${opts.keyPrefix}`,
      storeClient: this.redis,
      insuranceLimiter: memory,
    });
  }

  /**
   * Waits for the first connection to Redis to be made or to fail (connectTimeout at most), so
   * that the requests right after a start are counted where every instance sees them rather
   * than by this process's insurance limiter alone.
   */
  async onApplicationBootstrap(): Promise<void> {
    const client = this.redis;
    if (!client || client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const settled = () => {
        for (const event of ['ready', 'error', 'end']) client.off(event, settled);
        resolve();
      };
      for (const event of ['ready', 'error', 'end']) client.once(event, settled);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.redis) return;
    await this.redis.quit().catch(() => this.redis?.disconnect());
  }

  private connect(url: string): Redis {
    const client = new Redis(url, {
      // Fail a command at once while disconnected (the insurance limiter counts instead),
      // rather than queueing requests behind a reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 1000,
    });
    // One line per new kind of failure, not one per reconnect attempt.
    client.on('error', (err: Error) => {
      if (err.message === this.lastError) return;
      this.lastError = err.message;
      this.logger.warn(`Redis at ${redactUrl(url)} is unavailable (${err.message}); counting in this process until it answers`);
    });
    client.on('ready', () => {
      if (this.lastError !== '') this.logger.log(`Redis at ${redactUrl(url)} answers again`);
      this.lastError = '';
    });
    return client;
  }
}
