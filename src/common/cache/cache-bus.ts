import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig, redactUrl } from '../../config/app-config';

/** How long announce() (the CLI's cache:flush) waits for Redis before leaving it to the poll. */
const ANNOUNCE_WAIT_MS = 2000;
/** How long /readyz waits for a connection under way (just after start, or reconnecting). */
const PING_WAIT_MS = 1000;

/**
 * The push half of cache invalidation across instances. With REDIS_URL set,
 * every instance subscribes to one channel (`{CALENDAR_REDIS_PREFIX}cache`) and publishes its
 * own id there after each commit; an instance that hears another's id makes its DataVersion
 * read the change log at its next read, so that read already sees the write. Without Redis, or
 * while the subscription is down, nothing is pushed and DataVersion polls at its short
 * interval: Redis is an accelerator, never a dependency of a request.
 *
 * Events: `remote` (another instance committed, or the subscription was (re)established and
 * messages may have been missed), `subscribed` (the subscription is up, after each connection).
 */
@Injectable()
export class CacheBus extends EventEmitter implements OnModuleInit, OnApplicationShutdown {
  /** This process's id on the channel, so that it ignores its own messages. */
  readonly instanceId = randomBytes(8).toString('hex');
  readonly channel: string;
  private readonly logger = new Logger('CacheBus');
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private subscribed = false;
  private lastError = '';

  constructor(private readonly config: AppConfig) {
    super();
    this.channel = `${config.redisPrefix}cache`;
  }

  /** Is Redis configured at all (then /readyz checks it)? */
  get configured(): boolean {
    return this.config.redisUrl !== undefined;
  }

  /** True while this instance's subscription is up: other instances' writes reach it by push. */
  get pushed(): boolean {
    return this.subscribed;
  }

  onModuleInit(): void {
    const url = this.config.redisUrl;
    if (url === undefined) return;
    const options = { connectTimeout: 2000, lazyConnect: false } as const;
    // Commands fail at once while disconnected rather than queue behind a reconnect: a write's
    // announcement that cannot go out is covered by the others' polling.
    this.publisher = new Redis(url, { ...options, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000 });
    // We subscribe again ourselves on every (re)connection, so that `subscribed` is exact.
    this.subscriber = new Redis(url, { ...options, autoResubscribe: false });
    for (const client of [this.publisher, this.subscriber]) client.on('error', (err: Error) => this.unavailable(url, err));
    this.subscriber.on('ready', () => void this.subscribe(url));
    this.subscriber.on('close', () => (this.subscribed = false));
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel && message !== this.instanceId) this.emit('remote');
    });
  }

  /** After a commit in this process: tells the other instances (fire and forget; never throws). */
  publish(): void {
    if (this.publisher?.status !== 'ready') return;
    this.publisher.publish(this.channel, this.instanceId).catch((err: Error) => this.unavailable(this.config.redisUrl!, err));
  }

  /**
   * publish(), for a process that has just started (the CLI's cache:flush): waits up to two
   * seconds for the connection first. False when Redis is not configured or did not answer.
   */
  async announce(): Promise<boolean> {
    const client = await this.connected(ANNOUNCE_WAIT_MS);
    if (!client) return false;
    return client.publish(this.channel, this.instanceId).then(
      () => true,
      () => false,
    );
  }

  /** PING through the publishing connection (for /readyz); throws when Redis does not answer within a second. */
  async ping(): Promise<void> {
    const client = await this.connected(PING_WAIT_MS);
    if (!client) throw new Error(this.publisher ? `Redis is not connected (${this.publisher.status})` : 'Redis is not configured');
    await client.ping();
  }

  /** The publishing connection once it is ready (waiting up to `ms` for it), else null. */
  private async connected(ms: number): Promise<Redis | null> {
    const client = this.publisher;
    if (!client) return null;
    if (client.status !== 'ready') await once(client, 'ready', { signal: AbortSignal.timeout(ms) }).catch(() => undefined);
    return client.status === 'ready' ? client : null;
  }

  async onApplicationShutdown(): Promise<void> {
    this.removeAllListeners();
    await Promise.all(
      [this.publisher, this.subscriber].map(async (client) => {
        if (!client) return;
        if (client.status !== 'ready') return client.disconnect();
        await client.quit().catch(() => client.disconnect());
      }),
    );
  }

  private async subscribe(url: string): Promise<void> {
    try {
      await this.subscriber!.subscribe(this.channel);
    } catch (err) {
      return this.unavailable(url, err as Error);
    }
    this.subscribed = true;
    if (this.lastError !== '') this.logger.log(`Redis at ${redactUrl(url)} answers again; cache invalidation is pushed`);
    this.lastError = '';
    this.emit('subscribed');
    // While the subscription was down, other instances' messages were lost: look once.
    this.emit('remote');
  }

  /** One line per new kind of failure, not one per reconnect attempt. */
  private unavailable(url: string, err: Error): void {
    if (err.message === this.lastError) return;
    this.lastError = err.message;
    this.logger.warn(`Redis at ${redactUrl(url)} is unavailable (${err.message}); other instances' writes are noticed by polling until it answers`);
  }
}
