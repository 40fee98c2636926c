import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsOptional, Matches, MaxLength, MinLength, ValidateBy, ValidateIf, validateSync, ValidationArguments, ValidationOptions } from 'class-validator';
import { readSetting, type Setting } from './settings';
import { isValidTimezone } from './time-zone-names';

/** Where the data lives: an embedded SQLite file (or memory), or a MySQL/MariaDB server. */
export type DatabaseConfig =
  | { kind: 'sqlite'; file: string } // ':memory:' or an absolute path
  | { kind: 'mysql'; url: string };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The validated configuration. Nothing else in src/ reads process.env: code injects AppConfig.
 * Every variable, with its default, is listed in .env.example and in the README.
 */
export class AppConfig {
  host: string;
  port: number;
  /** {base_url}: origin plus optional prefix, no trailing slash. Used for every link. */
  baseUrl: string;
  database: DatabaseConfig;
  /** Apply pending migrations at start. */
  migrate: boolean;
  /** Site time zone (IANA name). */
  timezone: string;
  adminLogin?: string;
  adminPassword?: string;
  /** Most occurrences a series' rule may give up to the horizon (CALENDAR_RECURRENCE_MAX, recurrence.md §2). */
  recurrenceMax: number;
  /** How far ahead series are kept made, in days (CALENDAR_RECURRENCE_HORIZON_DAYS, recurrence.md §3). */
  recurrenceHorizonDays: number;
  /**
   * How often this instance extends open series up to the horizon, in seconds
   * (CALENDAR_RECURRENCE_POLL_SECONDS, default 3600; recurrence.md §3 asks at least daily).
   * 0: this instance extends none after its start (another does).
   */
  recurrencePollSeconds: number;
  logLevel: LogLevel;
  /** Failed authentications a login or a client address may have per window before 429 (beyond.md #9). */
  authMaxFailures: number;
  /** The window of authMaxFailures, in seconds. */
  authFailureWindow: number;
  /** Requests per minute per credential or address; 0 = no general limit (CALENDAR_RATE_LIMIT). */
  rateLimit: number;
  /**
   * Redis shared by every instance (REDIS_URL): rate-limit counters, and the pub/sub channel
   * that tells the other instances a write committed; unset = both in process, caches follow
   * other instances' writes by polling the change log.
   */
  redisUrl?: string;
  /** Prefix of this service's Redis keys (CALENDAR_REDIS_PREFIX), for a Redis shared with others. */
  redisPrefix: string;
  /** Outbound requests (image probe) may reach loopback/private/link-local addresses. */
  allowPrivateUrls: boolean;
  /** How long the server waits for a database that is down at start, in seconds. */
  dbConnectWait: number;
  /** What the read model's caches may hold together, in megabytes (CALENDAR_CACHE_MB). */
  cacheMb: number;
  /** CORS (beyond.md #8): any origin (`*`), these origins, or off (`null`: CALENDAR_CORS_ORIGINS set empty). */
  corsOrigins: '*' | string[] | null;
  /** The site's name: the calendar name of iCalendar feeds (X-WR-CALNAME), and the name in the public pages' titles and header. */
  siteTitle: string;
  /** The WordPress paths of compat.md (`/wp-json/tribe/events/v1/…`, `/wp-json/`, `?rest_route=`) (CALENDAR_WP_COMPAT, default on). */
  wpCompat: boolean;
  /** Where the public pages live when another site serves them (CALENDAR_SITE_URL); unset = {base_url}. */
  siteUrl?: string;
  /** First day of a week in the month grid, ISO numbering: 1 = Monday … 7 = Sunday (CALENDAR_WEEK_START). */
  weekStart: number;
  /** At most this many events in one iCalendar feed (ical.md, CALENDAR_ICS_MAX_EVENTS). */
  icsMaxEvents: number;
  /** How long the change feed keeps the tombstones of items deleted for good, in days (CALENDAR_SYNC_RETENTION_DAYS, sync.md). */
  syncRetentionDays: number;
  /** `GET /metrics` in Prometheus' text format (CALENDAR_METRICS, default off). */
  metrics: boolean;
  /** Attempts of one webhook delivery before it is `failed` (CALENDAR_WEBHOOK_MAX_ATTEMPTS, sync.md). */
  webhookMaxAttempts: number;
  /** Seconds that scale the whole retry schedule of webhook deliveries (CALENDAR_WEBHOOK_RETRY_BASE_SECONDS; fractions allowed). */
  webhookRetryBaseSeconds: number;
  /** How long an instance holds a delivery it is sending before another may take it, renewed while it sends (CALENDAR_WEBHOOK_LEASE_SECONDS; fractions allowed). */
  webhookLeaseSeconds: number;
  /** Webhook targets may be loopback/private/link-local addresses (CALENDAR_WEBHOOK_ALLOW_PRIVATE, default off). */
  webhookAllowPrivate: boolean;
  /** The key webhook secrets are stored encrypted with (CALENDAR_WEBHOOK_KEY, 32 bytes); unset: stored as given. */
  webhookKey?: Buffer;
  /**
   * This instance sends webhook deliveries (CALENDAR_WEBHOOK_WORKER, default on). Off on the
   * instances that take the requests when a separate instance sends them (README, "Running
   * several instances"): the writes still queue their deliveries, another instance sends them.
   */
  webhookWorker: boolean;
  /**
   * How often this instance looks for scheduled events whose date has come and publishes them,
   * in seconds (CALENDAR_SCHEDULE_POLL_SECONDS, default 60; fractions allowed). It also wakes at
   * the date of the next one it knows of. 0: this instance publishes none (another does).
   */
  schedulePollSeconds: number;
  /** Sources may read loopback/private/link-local addresses (CALENDAR_SOURCES_ALLOW_PRIVATE, default off; sources.md §2). */
  sourcesAllowPrivate: boolean;
  /** This instance runs due sources (CALENDAR_SOURCES_WORKER, default on). */
  sourcesWorker: boolean;
  /** How often the sources' worker looks for due runs (CALENDAR_SOURCES_POLL_SECONDS, default 15; fractions allowed). */
  sourcesPollSeconds: number;
  /** How long an instance holds a run before another may take it over, renewed while it runs (CALENDAR_SOURCES_LEASE_SECONDS, default 30). */
  sourcesLeaseSeconds: number;
  /** How long a source has for each answer (CALENDAR_SOURCES_TIMEOUT_SECONDS, default 30). */
  sourcesTimeoutSeconds: number;
  /** How many seconds one minute of `interval_minutes` lasts (CALENDAR_SOURCES_MINUTE_SECONDS, default 60; shorter for tests and demos). */
  sourcesMinuteSeconds: number;
  /** The most one answer of a source may be, counted while read (CALENDAR_SOURCES_MAX_ANSWER_MB, default 50; docs/security.md). */
  sourcesMaxAnswerBytes: number;
  /** The most all the answers of one run may be together (CALENDAR_SOURCES_MAX_RUN_MB, default 200). */
  sourcesMaxRunBytes: number;
  /** The most pages a run reads of one list (CALENDAR_SOURCES_MAX_PAGES, default 200). */
  sourcesMaxPages: number;
  /** The most events a run writes, and records it reads of one list (CALENDAR_SOURCES_MAX_EVENTS, default 10000). */
  sourcesMaxEvents: number;
  /** The most categories and tags one event of a source may have (CALENDAR_SOURCES_MAX_TERMS, default 100). */
  sourcesMaxTerms: number;
  /** How long one run may last, reading and writing (CALENDAR_SOURCES_DEADLINE_SECONDS, default 3600). */
  sourcesDeadlineSeconds: number;
  /** Development only (MIGRATION_TIMESTAMP): the timestamp migration:generate gives its files. */
  migrationTimestamp?: string;

  /** The environment as read (trimmed; blank = unset): where the features' own settings are read from. */
  private given: Env = {};

  /**
   * The value of a setting a feature declares (Feature.settings): the installed features'
   * settings are checked when the app or the CLI starts (settingProblems), so a value read
   * here is a valid one; a setting nobody checked and that is wrong throws ConfigError.
   */
  get<T>(setting: Setting<T>): T {
    const read = readSetting(setting, this.given[setting.name]);
    if ('problem' in read) throw new ConfigError([read.problem]);
    return read.value;
  }

  /** What is wrong with the values of these settings, one message each (none: all valid). */
  settingProblems(settings: readonly Setting<unknown>[]): string[] {
    return settings.flatMap((s) => {
      const read = readSetting(s, this.given[s.name]);
      return 'problem' in read ? [read.problem] : [];
    });
  }

  /** `{base_url}/calendar/events/v1` */
  get apiRoot(): string {
    return `${this.baseUrl}/${API_NAMESPACE}`;
  }

  /** The origin (and prefix) of the public `url` values (resources.md): CALENDAR_SITE_URL when set, else {base_url}. */
  get publicUrl(): string {
    return this.siteUrl ?? this.baseUrl;
  }
}

/** CALENDAR_WEEK_START values, in ISO weekday order (index + 1 = luxon's weekday). */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export const API_NAMESPACE = 'calendar/events/v1';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

const ON_OFF: Record<string, boolean> = { on: true, true: true, '1': true, yes: true, off: false, false: false, '0': false, no: false };
const ON_OFF_PATTERN = new RegExp(`^(${Object.keys(ON_OFF).join('|')})$`, 'i');
const onOffMessage = ({ property, value }: ValidationArguments) => `${property} must be on or off (got "${value}")`;

/** `test` as a class-validator rule; it sees the whole environment for rules about two variables. */
function Satisfies(name: string, test: (value: string, env: EnvironmentVariables) => boolean, options: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name, validator: { validate: (value, args) => test(String(value), args!.object as EnvironmentVariables) } }, options);
}

/** A whole number written in digits only, from `min` (to `max`). */
function IsCount(min: number, max = Number.MAX_SAFE_INTEGER): PropertyDecorator {
  return Satisfies('isCount', (v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max, {
    message: ({ property, value }) =>
      `${property} must be a whole number ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`} (got "${value}")`,
  });
}

/** A number of seconds from 0 (off), fractions allowed, at most a day. */
function IsSecondsOrOff(): PropertyDecorator {
  return Satisfies('isSecondsOrOff', (v) => /^\d+(\.\d+)?$/.test(v) && Number(v) <= 86_400, {
    message: ({ property, value }) => `${property} must be a number of seconds from 0 (off) to 86400 (got "${value}")`,
  });
}

/** A positive number of seconds, fractions allowed (tests shrink the webhook schedule), at most a day. */
function IsSeconds(): PropertyDecorator {
  return Satisfies('isSeconds', (v) => /^\d+(\.\d+)?$/.test(v) && Number(v) > 0 && Number(v) <= 86_400, {
    message: ({ property, value }) => `${property} must be a number of seconds greater than 0, at most 86400 (got "${value}")`,
  });
}

/** A positive number of megabytes, fractions allowed (tests use small limits), at most 4096. */
function IsMegabytes(): PropertyDecorator {
  return Satisfies('isMegabytes', (v) => /^\d+(\.\d+)?$/.test(v) && Number(v) > 0 && Number(v) <= 4096, {
    message: ({ property, value }) => `${property} must be a number of megabytes greater than 0, at most 4096 (got "${value}")`,
  });
}

const ADMIN_PAIR = 'CALENDAR_ADMIN_LOGIN and CALENDAR_ADMIN_PASSWORD must be set together';

/**
 * The variables as the environment gives them (trimmed; empty = unset), with the rules each
 * must follow. Kept as strings so that a message quotes what was written. loadConfig()
 * validates them once and maps them, with the defaults, onto AppConfig.
 */
export class EnvironmentVariables {
  HOST?: string;

  @IsOptional()
  @IsCount(1, 65535)
  PORT?: string;

  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s?#]*)?$/i, {
    message: ({ value }) => `CALENDAR_BASE_URL must be an http(s) URL without query or fragment (got "${value}")`,
  })
  CALENDAR_BASE_URL?: string;

  @IsOptional()
  @Satisfies('isDatabaseUrl', (v) => parseDatabaseUrl(v) !== null, {
    message: ({ value }) => `DATABASE_URL must be sqlite:PATH, sqlite::memory: or mysql://user:pass@host:port/db (got "${redactUrl(value)}")`,
  })
  DATABASE_URL?: string;

  @IsOptional()
  @Matches(ON_OFF_PATTERN, { message: onOffMessage })
  CALENDAR_MIGRATE?: string;

  @IsOptional()
  @IsCount(1, 100_000)
  CALENDAR_RECURRENCE_MAX?: string;

  @IsOptional()
  @IsCount(1, 36_500)
  CALENDAR_RECURRENCE_HORIZON_DAYS?: string;

  @IsOptional()
  @IsSecondsOrOff()
  CALENDAR_RECURRENCE_POLL_SECONDS?: string;

  @IsOptional()
  @Satisfies('isTimezone', (v) => isValidTimezone(v), {
    message: ({ value }) => `CALENDAR_TIMEZONE must be an IANA time zone name such as Europe/Paris (got "${value}")`,
  })
  CALENDAR_TIMEZONE?: string;

  // Each of the pair says when the other is missing (a rule on an unset variable would be
  // skipped). Decorators register bottom-up: the rule nearest the property is reported first.
  @IsOptional()
  @Satisfies('isLogin', (v) => isValidLogin(v), { message: 'CALENDAR_ADMIN_LOGIN must be 1-60 characters without spaces or ":"' })
  @Satisfies('setTogether', (_, env) => env.CALENDAR_ADMIN_PASSWORD !== undefined, { message: ADMIN_PAIR })
  CALENDAR_ADMIN_LOGIN?: string;

  /** Without its spaces: application passwords are shown in groups ("abcd efgh …"). */
  @Transform(({ value }: { value?: string }) => value?.replace(/\s+/g, '') || undefined)
  @IsOptional()
  @MinLength(8, { message: 'CALENDAR_ADMIN_PASSWORD must have at least 8 characters' })
  @Satisfies('setTogether', (_, env) => env.CALENDAR_ADMIN_LOGIN !== undefined, { message: ADMIN_PAIR })
  CALENDAR_ADMIN_PASSWORD?: string;

  @IsOptional()
  @IsCount(1)
  CALENDAR_AUTH_MAX_FAILURES?: string;

  @IsOptional()
  @IsCount(1)
  CALENDAR_AUTH_FAILURE_WINDOW?: string;

  @IsOptional()
  @IsCount(0)
  CALENDAR_RATE_LIMIT?: string;

  @IsOptional()
  @Matches(/^rediss?:\/\/[^\s]+$/i, {
    message: ({ value }) => `REDIS_URL must be redis://[user:pass@]host:port[/db] or rediss://… (got "${redactUrl(value)}")`,
  })
  REDIS_URL?: string;

  CALENDAR_REDIS_PREFIX?: string;

  @IsOptional()
  @Matches(ON_OFF_PATTERN, { message: onOffMessage })
  CALENDAR_ALLOW_PRIVATE_URLS?: string;

  @IsOptional()
  @IsCount(0)
  CALENDAR_DB_CONNECT_WAIT?: string;

  @IsOptional()
  @IsCount(4, 4096)
  CALENDAR_CACHE_MB?: string;

  // Set but empty is meaningful (CORS off), so the rule runs on '' too (IsOptional skips only undefined).
  @ValidateIf((env: EnvironmentVariables) => env.CALENDAR_CORS_ORIGINS !== undefined)
  @Satisfies('isOriginList', (v) => parseCorsOrigins(v) !== undefined, {
    message: ({ value }) => `CALENDAR_CORS_ORIGINS must be *, empty (off) or a comma-separated list of origins such as https://example.org (got "${value}")`,
  })
  CALENDAR_CORS_ORIGINS?: string;

  @IsOptional()
  @MaxLength(200, { message: 'CALENDAR_SITE_TITLE must have at most 200 characters' })
  CALENDAR_SITE_TITLE?: string;

  @IsOptional()
  @IsCount(1, 100_000)
  CALENDAR_ICS_MAX_EVENTS?: string;

  @IsOptional()
  @IsCount(0, 3650)
  CALENDAR_SYNC_RETENTION_DAYS?: string;

  @IsOptional()
  @Matches(ON_OFF_PATTERN, { message: onOffMessage })
  CALENDAR_WP_COMPAT?: string;

  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s?#]*)?$/i, {
    message: ({ value }) => `CALENDAR_SITE_URL must be an http(s) URL without query or fragment (got "${value}")`,
  })
  CALENDAR_SITE_URL?: string;

  @Transform(({ value }: { value?: string }) => value?.toLowerCase())
  @IsOptional()
  @IsIn(WEEKDAYS, { message: ({ value }) => `CALENDAR_WEEK_START must be a day of the week such as monday or sunday (got "${value}")` })
  CALENDAR_WEEK_START?: string;

  @IsOptional()
  @Matches(ON_OFF_PATTERN, { message: onOffMessage })
  CALENDAR_METRICS?: string;

  @IsOptional()
  @IsCount(1, 100)
  CALENDAR_WEBHOOK_MAX_ATTEMPTS?: string;

  @IsOptional()
  @IsSeconds()
  CALENDAR_WEBHOOK_RETRY_BASE_SECONDS?: string;

  @IsOptional()
  @IsSeconds()
  CALENDAR_WEBHOOK_LEASE_SECONDS?: string;

  @IsOptional()
  @Matches(ON_OFF_PATTERN, { message: onOffMessage })
  CALENDAR_WEBHOOK_ALLOW_PRIVATE?: string;

  @IsOptional()
  @Matches(ON_OFF_PATTERN, { message: onOffMessage })
  CALENDAR_WEBHOOK_WORKER?: string;

  @IsOptional()
  @IsSecondsOrOff()
  CALENDAR_SCHEDULE_POLL_SECONDS?: string;

  @IsOptional()
  @Matches(ON_OFF_PATTERN, { message: onOffMessage })
  CALENDAR_SOURCES_ALLOW_PRIVATE?: string;

  @IsOptional()
  @Matches(ON_OFF_PATTERN, { message: onOffMessage })
  CALENDAR_SOURCES_WORKER?: string;

  @IsOptional()
  @IsSeconds()
  CALENDAR_SOURCES_POLL_SECONDS?: string;

  @IsOptional()
  @IsSeconds()
  CALENDAR_SOURCES_LEASE_SECONDS?: string;

  @IsOptional()
  @IsSeconds()
  CALENDAR_SOURCES_TIMEOUT_SECONDS?: string;

  @IsOptional()
  @IsSeconds()
  CALENDAR_SOURCES_MINUTE_SECONDS?: string;

  @IsOptional()
  @IsMegabytes()
  CALENDAR_SOURCES_MAX_ANSWER_MB?: string;

  @IsOptional()
  @IsMegabytes()
  CALENDAR_SOURCES_MAX_RUN_MB?: string;

  @IsOptional()
  @IsCount(1, 1_000_000)
  CALENDAR_SOURCES_MAX_PAGES?: string;

  @IsOptional()
  @IsCount(1, 1_000_000)
  CALENDAR_SOURCES_MAX_EVENTS?: string;

  @IsOptional()
  @IsCount(1, 1_000_000)
  CALENDAR_SOURCES_MAX_TERMS?: string;

  @IsOptional()
  @IsSeconds()
  CALENDAR_SOURCES_DEADLINE_SECONDS?: string;

  // A key: the message never repeats the value.
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'CALENDAR_WEBHOOK_KEY must be 64 hexadecimal characters, a 32-byte key (`openssl rand -hex 32`)' })
  CALENDAR_WEBHOOK_KEY?: string;

  @Transform(({ value }: { value?: string }) => value?.toLowerCase())
  @IsOptional()
  @IsIn(LOG_LEVELS, { message: ({ value }) => `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${value}")` })
  LOG_LEVEL?: string;

  /** Development only: the timestamp of the files migration:generate writes (one for both files of a pair). */
  @IsOptional()
  @Matches(/^\d+$/, { message: ({ value }) => `MIGRATION_TIMESTAMP must be a whole number of milliseconds (got "${value}")` })
  MIGRATION_TIMESTAMP?: string;
}

/** Variables whose empty value is a setting (beyond.md #8: `CALENDAR_CORS_ORIGINS=` turns CORS off). */
const EMPTY_MEANS_SOMETHING = new Set(['CALENDAR_CORS_ORIGINS']);

/**
 * The configuration of this process's environment, for the entry points (main.ts, cli.ts,
 * openapi.ts, ormconfig.ts): the one place that reads process.env (an ESLint rule keeps it so).
 * `overrides` win over the environment. Throws ConfigError as loadConfig does.
 */
export function loadConfigFromEnv(overrides: Env = {}, settings: readonly Setting<unknown>[] = []): AppConfig {
  return loadConfig({ ...process.env, ...overrides }, settings);
}

/**
 * CALENDAR_EXTENSIONS of this process's environment: the extensions' module paths, relative to
 * the working directory, comma-separated (blank entries ignored). Read before the configuration
 * is, since the extensions declare settings of their own.
 */
export function extensionPathsFromEnv(): string[] {
  return (process.env.CALENDAR_EXTENSIONS ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * Reads and validates the environment once, with the installed features' settings (`settings`,
 * Feature.settings); throws ConfigError naming every bad variable.
 */
export function loadConfig(env: Env, settings: readonly Setting<unknown>[] = []): AppConfig {
  const given: Env = {};
  for (const [name, value] of Object.entries(env)) {
    // A blank variable counts as unset, except where set-but-empty has a meaning of its own.
    given[name] = value === undefined || (value.trim() === '' && !EMPTY_MEANS_SOMETHING.has(name)) ? undefined : value.trim();
  }
  const vars = plainToInstance(EnvironmentVariables, given);
  // Every broken rule, in the order of the variables above (this class's declaration order).
  const problems = validateSync(vars).flatMap((e) => Object.values(e.constraints ?? {}));
  for (const setting of settings) {
    const read = readSetting(setting, given[setting.name]);
    if ('problem' in read) problems.push(read.problem);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const cfg = new AppConfig();
  Object.defineProperty(cfg, 'given', { value: given, enumerable: false });
  cfg.host = vars.HOST ?? '127.0.0.1';
  cfg.port = Number(vars.PORT ?? 3000);
  if (vars.CALENDAR_BASE_URL === undefined) {
    const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
    cfg.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${cfg.port}`;
  } else {
    cfg.baseUrl = vars.CALENDAR_BASE_URL.replace(/\/+$/, '');
  }
  cfg.database = parseDatabaseUrl(vars.DATABASE_URL ?? 'sqlite:data/calendar.sqlite')!;
  cfg.migrate = onOff(vars.CALENDAR_MIGRATE, true);
  cfg.recurrenceMax = Number(vars.CALENDAR_RECURRENCE_MAX ?? 1000);
  cfg.recurrenceHorizonDays = Number(vars.CALENDAR_RECURRENCE_HORIZON_DAYS ?? 730);
  cfg.recurrencePollSeconds = Number(vars.CALENDAR_RECURRENCE_POLL_SECONDS ?? 3600);
  cfg.timezone = vars.CALENDAR_TIMEZONE ?? 'UTC';
  cfg.adminLogin = vars.CALENDAR_ADMIN_LOGIN;
  cfg.adminPassword = vars.CALENDAR_ADMIN_PASSWORD;
  cfg.authMaxFailures = Number(vars.CALENDAR_AUTH_MAX_FAILURES ?? 10);
  cfg.authFailureWindow = Number(vars.CALENDAR_AUTH_FAILURE_WINDOW ?? 60);
  cfg.rateLimit = Number(vars.CALENDAR_RATE_LIMIT ?? 0);
  cfg.redisUrl = vars.REDIS_URL;
  cfg.redisPrefix = vars.CALENDAR_REDIS_PREFIX ?? 'calendar-events:';
  cfg.allowPrivateUrls = onOff(vars.CALENDAR_ALLOW_PRIVATE_URLS, false);
  cfg.dbConnectWait = Number(vars.CALENDAR_DB_CONNECT_WAIT ?? 30);
  cfg.cacheMb = Number(vars.CALENDAR_CACHE_MB ?? 64);
  const cors = parseCorsOrigins(vars.CALENDAR_CORS_ORIGINS ?? '*');
  cfg.corsOrigins = cors === undefined ? '*' : cors; // validated above: undefined cannot reach here
  cfg.siteTitle = vars.CALENDAR_SITE_TITLE ?? 'Events';
  cfg.icsMaxEvents = Number(vars.CALENDAR_ICS_MAX_EVENTS ?? 1000);
  cfg.syncRetentionDays = Number(vars.CALENDAR_SYNC_RETENTION_DAYS ?? 30);
  cfg.wpCompat = onOff(vars.CALENDAR_WP_COMPAT, true);
  cfg.siteUrl = vars.CALENDAR_SITE_URL?.replace(/\/+$/, '');
  cfg.weekStart = WEEKDAYS.indexOf((vars.CALENDAR_WEEK_START ?? 'monday') as (typeof WEEKDAYS)[number]) + 1;
  cfg.metrics = onOff(vars.CALENDAR_METRICS, false);
  cfg.webhookMaxAttempts = Number(vars.CALENDAR_WEBHOOK_MAX_ATTEMPTS ?? 7);
  cfg.webhookRetryBaseSeconds = Number(vars.CALENDAR_WEBHOOK_RETRY_BASE_SECONDS ?? 30);
  cfg.webhookLeaseSeconds = Number(vars.CALENDAR_WEBHOOK_LEASE_SECONDS ?? 5);
  cfg.webhookAllowPrivate = onOff(vars.CALENDAR_WEBHOOK_ALLOW_PRIVATE, false);
  cfg.webhookWorker = onOff(vars.CALENDAR_WEBHOOK_WORKER, true);
  cfg.schedulePollSeconds = Number(vars.CALENDAR_SCHEDULE_POLL_SECONDS ?? 60);
  cfg.webhookKey = vars.CALENDAR_WEBHOOK_KEY === undefined ? undefined : Buffer.from(vars.CALENDAR_WEBHOOK_KEY, 'hex');
  cfg.sourcesAllowPrivate = onOff(vars.CALENDAR_SOURCES_ALLOW_PRIVATE, false);
  cfg.sourcesWorker = onOff(vars.CALENDAR_SOURCES_WORKER, true);
  cfg.sourcesPollSeconds = Number(vars.CALENDAR_SOURCES_POLL_SECONDS ?? 15);
  cfg.sourcesLeaseSeconds = Number(vars.CALENDAR_SOURCES_LEASE_SECONDS ?? 30);
  cfg.sourcesTimeoutSeconds = Number(vars.CALENDAR_SOURCES_TIMEOUT_SECONDS ?? 30);
  cfg.sourcesMinuteSeconds = Number(vars.CALENDAR_SOURCES_MINUTE_SECONDS ?? 60);
  cfg.sourcesMaxAnswerBytes = Math.round(Number(vars.CALENDAR_SOURCES_MAX_ANSWER_MB ?? 50) * 1024 * 1024);
  cfg.sourcesMaxRunBytes = Math.round(Number(vars.CALENDAR_SOURCES_MAX_RUN_MB ?? 200) * 1024 * 1024);
  cfg.sourcesMaxPages = Number(vars.CALENDAR_SOURCES_MAX_PAGES ?? 200);
  cfg.sourcesMaxEvents = Number(vars.CALENDAR_SOURCES_MAX_EVENTS ?? 10_000);
  cfg.sourcesMaxTerms = Number(vars.CALENDAR_SOURCES_MAX_TERMS ?? 100);
  cfg.sourcesDeadlineSeconds = Number(vars.CALENDAR_SOURCES_DEADLINE_SECONDS ?? 3600);
  cfg.logLevel = (vars.LOG_LEVEL ?? 'info') as LogLevel;
  cfg.migrationTimestamp = vars.MIGRATION_TIMESTAMP;
  return cfg;
}

function onOff(value: string | undefined, fallback: boolean): boolean {
  return value === undefined ? fallback : ON_OFF[value.toLowerCase()];
}

/**
 * CALENDAR_CORS_ORIGINS: `*` (the default), empty (CORS off: null), or origins separated by
 * commas (`scheme://host[:port]`, no path). undefined when it is none of these.
 */
export function parseCorsOrigins(value: string): '*' | string[] | null | undefined {
  const text = value.trim();
  if (text === '') return null;
  if (text === '*') return '*';
  const origins = text.split(',').map((o) => o.trim().replace(/\/+$/, ''));
  return origins.every((o) => /^https?:\/\/[^/\s?#]+$/i.test(o)) ? origins : undefined;
}

export function isValidLogin(login: string): boolean {
  return /^[^\s:]{1,60}$/.test(login);
}

export function parseDatabaseUrl(url: string): DatabaseConfig | null {
  if (url === 'sqlite::memory:' || url === 'sqlite::memory') return { kind: 'sqlite', file: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') return null;
    return { kind: 'sqlite', file: resolve(path) };
  }
  if (/^(mysql|mariadb):\/\/[^/]+\/[^/?#]+/.test(url)) {
    return { kind: 'mysql', url: url.replace(/^mariadb:/, 'mysql:') };
  }
  return null;
}

/**
 * Creates the folder of a SQLite file so that a fresh clone starts without manual steps: the
 * folder readable by its owner only (0700) when we create it, the file 0600 (SQLite gives its
 * -wal and -shm files the file's mode). Other users on the machine have no business reading
 * password hashes or unpublished events. Throws DatabasePathError naming the path.
 */
export function ensureDatabaseFolder(db: DatabaseConfig): void {
  if (db.kind !== 'sqlite' || db.file === ':memory:') return;
  try {
    mkdirSync(dirname(db.file), { recursive: true, mode: 0o700 });
    closeSync(openSync(db.file, 'a', 0o600));
    chmodSync(db.file, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new DatabasePathError(`cannot use the SQLite file ${db.file} (${code}: ${describeFsError(code)})`);
  }
}

/** A SQLite path that cannot be created or opened. */
export class DatabasePathError extends Error {
  override name = 'DatabasePathError';
}

function describeFsError(code: string): string {
  const known: Record<string, string> = {
    ENOTDIR: 'a part of the path is a file, not a folder',
    EEXIST: 'a part of the path is a file, not a folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'the path is a folder',
    EROFS: 'read-only file system',
  };
  return known[code] ?? 'the file system refused it';
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
}
