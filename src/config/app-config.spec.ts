import { resolve } from 'node:path';
import { ConfigError, loadConfig, loadConfigFromEnv, parseDatabaseUrl } from './app-config';
import { countSetting, onOffSetting } from './settings';

/** A feature's settings, as a feature declares them in its own folder. */
const GEO = onOffSetting('CALENDAR_GEO', 'off', 'geo');
const LIMIT = countSetting('CALENDAR_TEST_LIMIT', 5, [1, 10], 'a limit');

describe('loadConfig', () => {
  it('has working defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      baseUrl: 'http://127.0.0.1:3000',
      database: { kind: 'sqlite', file: resolve('data/calendar.sqlite') },
      migrate: true,
      timezone: 'UTC',
      logLevel: 'info',
      siteTitle: 'Events',
      icsMaxEvents: 1000,
    });
    expect(c.apiRoot).toBe('http://127.0.0.1:3000/calendar/events/v1');
  });

  it("reads a feature's settings, with their defaults", () => {
    const c = loadConfig({ CALENDAR_GEO: ' ON ', CALENDAR_TEST_LIMIT: '' }, [GEO, LIMIT]);
    expect(c.get(GEO)).toBe(true);
    expect(c.get(LIMIT)).toBe(5);
    expect(loadConfig({ CALENDAR_TEST_LIMIT: '10' }, [GEO, LIMIT]).get(LIMIT)).toBe(10);
  });

  it("refuses a feature's bad setting with the core's problems, in one error", () => {
    expect(() => loadConfig({ PORT: 'eighty', CALENDAR_TEST_LIMIT: '11' }, [LIMIT])).toThrow(
      new ConfigError(['PORT must be a whole number from 1 to 65535 (got "eighty")', 'CALENDAR_TEST_LIMIT must be a whole number from 1 to 10 (got "11")']),
    );
    // Not checked at load (a setting of a feature not installed): wrong when read.
    expect(() => loadConfig({ CALENDAR_GEO: 'maybe' }).get(GEO)).toThrow('CALENDAR_GEO must be on or off (got "maybe")');
  });

  it('reads every variable', () => {
    const c = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      CALENDAR_BASE_URL: 'https://example.org/cal/',
      DATABASE_URL: 'mysql://u:p@db:3306/cal',
      CALENDAR_MIGRATE: 'off',
      CALENDAR_TIMEZONE: 'Europe/Paris',
      CALENDAR_ADMIN_LOGIN: 'root',
      CALENDAR_ADMIN_PASSWORD: 'abcd efgh ijkl',
      CALENDAR_GEO: 'on',
      CALENDAR_SITE_TITLE: ' Jazz in the Park ',
      CALENDAR_ICS_MAX_EVENTS: '250',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      baseUrl: 'https://example.org/cal',
      database: { kind: 'mysql', url: 'mysql://u:p@db:3306/cal' },
      migrate: false,
      timezone: 'Europe/Paris',
      adminLogin: 'root',
      adminPassword: 'abcdefghijkl',
      logLevel: 'warn',
      siteTitle: 'Jazz in the Park',
      icsMaxEvents: 250,
    });
  });

  it.each(['0', 'many', '-5'])('rejects CALENDAR_ICS_MAX_EVENTS=%s', (value) => {
    expect(() => loadConfig({ CALENDAR_ICS_MAX_EVENTS: value })).toThrow(/CALENDAR_ICS_MAX_EVENTS must be a whole number from 1 to 100000/);
  });

  it('names every bad variable at once', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'postgres://x/y', CALENDAR_TIMEZONE: 'Mars/Olympus', CALENDAR_GEO: 'maybe', CALENDAR_ADMIN_LOGIN: 'a' }, [
        GEO,
      ]);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const text = (caught as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'CALENDAR_TIMEZONE', 'CALENDAR_GEO', 'CALENDAR_ADMIN_PASSWORD']) expect(text).toContain(name);
  });

  it('never prints a database password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:secret@db' })).toThrow(/mysql:\/\/u:\*\*\*@db/);
  });

  it('takes a Redis URL for shared rate limits, and never prints its password', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' })).toMatchObject({ redisUrl: 'redis://127.0.0.1:6379/2', redisPrefix: 'calendar-events:' });
    expect(loadConfig({ REDIS_URL: 'rediss://cache:6380', CALENDAR_REDIS_PREFIX: 'cal1:' }).redisPrefix).toBe('cal1:');
    expect(() => loadConfig({ REDIS_URL: 'http://:hunter2@cache' })).toThrow(/REDIS_URL must be .*http:\/\/:\*\*\*@cache/);
  });

  it('CALENDAR_WEBHOOK_KEY: 32 bytes in hex, and a bad one is refused without being repeated', () => {
    expect(loadConfig({ CALENDAR_WEBHOOK_KEY: 'A1'.repeat(32) }).webhookKey).toEqual(Buffer.alloc(32, 0xa1));
    expect(loadConfig({}).webhookKey).toBeUndefined();
    for (const bad of ['a1'.repeat(31), 'zz'.repeat(32), 'a1'.repeat(33)]) {
      let message = '';
      try {
        loadConfig({ CALENDAR_WEBHOOK_KEY: bad });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/CALENDAR_WEBHOOK_KEY must be 64 hexadecimal characters/);
      expect(message).not.toContain(bad);
    }
  });

  it('CALENDAR_SCHEDULE_POLL_SECONDS: 60 by default, fractions, 0 for off; nothing negative or beyond a day', () => {
    expect(loadConfig({}).schedulePollSeconds).toBe(60);
    expect(loadConfig({ CALENDAR_SCHEDULE_POLL_SECONDS: '0.5' }).schedulePollSeconds).toBe(0.5);
    expect(loadConfig({ CALENDAR_SCHEDULE_POLL_SECONDS: '0' }).schedulePollSeconds).toBe(0);
    for (const value of ['-1', 'soon', '86401']) {
      expect(() => loadConfig({ CALENDAR_SCHEDULE_POLL_SECONDS: value })).toThrow(
        `CALENDAR_SCHEDULE_POLL_SECONDS must be a number of seconds from 0 (off) to 86400 (got "${value}")`,
      );
    }
  });

  it('takes the development-only MIGRATION_TIMESTAMP of migration:generate', () => {
    expect(loadConfig({}).migrationTimestamp).toBeUndefined();
    expect(loadConfig({ MIGRATION_TIMESTAMP: ' 1795589394558 ' }).migrationTimestamp).toBe('1795589394558');
    expect(() => loadConfig({ MIGRATION_TIMESTAMP: 'now' })).toThrow('MIGRATION_TIMESTAMP must be a whole number of milliseconds (got "now")');
  });

  it('lists the problems in the order of the variables, each rule once', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'Loud', PORT: '0', CALENDAR_ADMIN_PASSWORD: 'ab cd' })).toThrow(
      [
        'Invalid configuration:',
        '  - PORT must be a whole number from 1 to 65535 (got "0")',
        '  - CALENDAR_ADMIN_LOGIN and CALENDAR_ADMIN_PASSWORD must be set together',
        '  - CALENDAR_ADMIN_PASSWORD must have at least 8 characters',
        '  - LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      ].join('\n'),
    );
  });
});

describe('CALENDAR_CORS_ORIGINS (beyond.md #8)', () => {
  it('is any origin when unset, off when set empty, or the listed origins', () => {
    expect(loadConfig({}).corsOrigins).toBe('*');
    expect(loadConfig({ CALENDAR_CORS_ORIGINS: '' }).corsOrigins).toBeNull();
    expect(loadConfig({ CALENDAR_CORS_ORIGINS: '  ' }).corsOrigins).toBeNull();
    expect(loadConfig({ CALENDAR_CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadConfig({ CALENDAR_CORS_ORIGINS: 'https://a.example/, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
  });

  it('refuses what is not an origin, saying what it takes', () => {
    for (const bad of ['a.example', 'https://a.example/path', 'ftp://a.example', 'https://a.example,', '*,https://a.example']) {
      expect(() => loadConfig({ CALENDAR_CORS_ORIGINS: bad })).toThrow(/CALENDAR_CORS_ORIGINS must be \*, empty \(off\) or a comma-separated list of origins/);
    }
  });

  it('keeps blank as unset for every other variable', () => {
    expect(loadConfig({ CALENDAR_TIMEZONE: '' }).timezone).toBe('UTC');
  });
});

describe('loadConfigFromEnv', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("reads this process's environment, the overrides winning over it", () => {
    process.env.CALENDAR_SITE_TITLE = 'From the environment';
    process.env.PORT = '4321';
    expect(loadConfigFromEnv()).toMatchObject({ siteTitle: 'From the environment', port: 4321 });
    expect(loadConfigFromEnv({ PORT: '8080', LOG_LEVEL: 'silent' })).toMatchObject({ siteTitle: 'From the environment', port: 8080, logLevel: 'silent' });
  });

  it('validates as loadConfig does', () => {
    process.env.PORT = 'eighty';
    expect(() => loadConfigFromEnv()).toThrow(ConfigError);
  });
});

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite::memory:', { kind: 'sqlite', file: ':memory:' }],
    ['sqlite:data/x.sqlite', { kind: 'sqlite', file: resolve('data/x.sqlite') }],
    ['sqlite:/tmp/x.sqlite', { kind: 'sqlite', file: '/tmp/x.sqlite' }],
    ['mariadb://root@127.0.0.1:3306/cal', { kind: 'mysql', url: 'mysql://root@127.0.0.1:3306/cal' }],
  ])('%s', (url, expected) => expect(parseDatabaseUrl(url)).toEqual(expected));

  it.each(['sqlite:', 'mysql://host', 'postgres://h/db', 'cal.sqlite'])('rejects %s', (url) => expect(parseDatabaseUrl(url)).toBeNull());
});
