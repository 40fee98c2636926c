import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { newTestService } from '../../../test/support/new-test-service';
import { CacheBus } from './cache-bus';

// Cache invalidation pushed across instances, without a Redis server: ioredis is replaced by a
// client that records what it is asked and lets the spec play the server's events.

class FakeRedis extends EventEmitter {
  static made: FakeRedis[] = [];
  status = 'connecting';
  readonly publish = jest.fn(async (_channel: string, _message: string) => 1);
  readonly subscribe = jest.fn(async (_channel: string) => 1);
  readonly ping = jest.fn(async () => 'PONG');
  readonly quit = jest.fn(async () => 'OK');
  readonly disconnect = jest.fn();
  constructor(
    readonly url: string,
    readonly options: Record<string, unknown>,
  ) {
    super();
    FakeRedis.made.push(this);
  }
  /** The server accepted the connection. */
  ready(): void {
    this.status = 'ready';
    this.emit('ready');
  }
}

jest.mock('ioredis', () => ({ Redis: jest.fn((url: string, options: Record<string, unknown>) => new FakeRedis(url, options)) }));

const settle = () => new Promise((resolve) => setImmediate(resolve));

function busWith(redisUrl: string | undefined) {
  FakeRedis.made = [];
  const { sut: bus } = newTestService(CacheBus, [{ provide: AppConfig, useValue: { redisUrl, redisPrefix: 'cal:' } }]);
  bus.onModuleInit();
  const [publisher, subscriber] = FakeRedis.made;
  return { bus, publisher, subscriber };
}

describe('CacheBus', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  describe('without REDIS_URL', () => {
    it('connects nowhere, publishes nothing, and says so to /readyz and to cache:flush', async () => {
      const { bus } = busWith(undefined);
      expect(FakeRedis.made).toHaveLength(0);
      expect(bus.configured).toBe(false);
      expect(bus.pushed).toBe(false);
      expect(() => bus.publish()).not.toThrow();
      await expect(bus.announce()).resolves.toBe(false);
      await expect(bus.ping()).rejects.toThrow('Redis is not configured');
    });
  });

  describe('with REDIS_URL', () => {
    it('listens on one channel named after the prefix, through its own subscribing connection', async () => {
      const { bus, publisher, subscriber } = busWith('redis://cache.test:6379');
      expect(bus.channel).toBe('cal:cache');
      expect(publisher.options).toMatchObject({ enableOfflineQueue: false });
      expect(subscriber.options).toMatchObject({ autoResubscribe: false });
      const heard = jest.fn();
      bus.on('subscribed', heard);
      bus.on('remote', heard);
      subscriber.ready();
      await settle();
      expect(subscriber.subscribe).toHaveBeenCalledWith('cal:cache');
      expect(bus.pushed).toBe(true);
      // Once up, it looks once for what it may have missed while down.
      expect(heard.mock.calls.length).toBe(2);
    });

    it("hears other instances' commits on its channel, not its own nor other channels'", () => {
      const { bus, subscriber } = busWith('redis://cache.test:6379');
      const remote = jest.fn();
      bus.on('remote', remote);
      subscriber.emit('message', 'cal:cache', 'another-instance');
      subscriber.emit('message', 'cal:cache', bus.instanceId);
      subscriber.emit('message', 'other:cache', 'another-instance');
      expect(remote).toHaveBeenCalledTimes(1);
    });

    it('publishes its own id after a commit only while connected', async () => {
      const { bus, publisher } = busWith('redis://cache.test:6379');
      bus.publish();
      expect(publisher.publish).not.toHaveBeenCalled();
      publisher.ready();
      bus.publish();
      expect(publisher.publish).toHaveBeenCalledWith('cal:cache', bus.instanceId);
    });

    it('cache:flush waits for the connection to announce; a lost subscription is not pushed', async () => {
      const { bus, publisher, subscriber } = busWith('redis://cache.test:6379');
      const announced = bus.announce();
      publisher.ready();
      await expect(announced).resolves.toBe(true);
      subscriber.ready();
      await settle();
      subscriber.emit('close');
      expect(bus.pushed).toBe(false);
    });

    it('warns once per kind of failure, not once per reconnect attempt', () => {
      const { publisher, subscriber } = busWith('redis://user:secret@cache.test:6379');
      publisher.emit('error', new Error('ECONNREFUSED'));
      subscriber.emit('error', new Error('ECONNREFUSED'));
      publisher.emit('error', new Error('ETIMEDOUT'));
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[0][0])).not.toContain('secret');
    });

    it('closes both connections on shutdown: quits a ready one, drops one still connecting', async () => {
      const { bus, publisher, subscriber } = busWith('redis://cache.test:6379');
      publisher.ready();
      await bus.onApplicationShutdown();
      expect(publisher.quit).toHaveBeenCalled();
      expect(subscriber.disconnect).toHaveBeenCalled();
    });
  });
});
