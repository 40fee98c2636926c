import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isValidTimezone } from '../common/datetime/zones';

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
  geo: boolean;
  logLevel: LogLevel;
  /** Failed authentications a login or a client address may have per window before 429 (beyond.md #9). */
  authMaxFailures: number;
  /** The window of authMaxFailures, in seconds. */
  authFailureWindow: number;
  /** Requests per minute per credential or address; 0 = no general limit (CALENDAR_RATE_LIMIT). */
  rateLimit: number;
  /** Redis shared by every instance for rate-limit counters (REDIS_URL); unset = in process. */
  redisUrl?: string;
  /** Prefix of this service's Redis keys (CALENDAR_REDIS_PREFIX), for a Redis shared with others. */
  redisPrefix: string;
  /** Outbound requests (image probe) may reach loopback/private/link-local addresses. */
  allowPrivateUrls: boolean;
  /** How long the server waits for a database that is down at start, in seconds. */
  dbConnectWait: number;

  /** `{base_url}/calendar/events/v1` */
  get apiRoot(): string {
    return `${this.baseUrl}/${API_NAMESPACE}`;
  }
}

export const API_NAMESPACE = 'calendar/events/v1';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

const ON_OFF: Record<string, boolean> = { on: true, true: true, '1': true, yes: true, off: false, false: false, '0': false, no: false };

/** Reads and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const cfg = new AppConfig();
  const get = (name: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };

  cfg.host = get('HOST') ?? '127.0.0.1';

  const port = get('PORT') ?? '3000';
  cfg.port = Number(port);
  if (!/^\d+$/.test(port) || cfg.port < 1 || cfg.port > 65535) {
    problems.push(`PORT must be a whole number from 1 to 65535 (got "${port}")`);
  }

  const baseUrl = get('CALENDAR_BASE_URL');
  if (baseUrl === undefined) {
    const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
    cfg.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${cfg.port}`;
  } else if (!/^https?:\/\/[^/\s]+(\/[^\s?#]*)?$/i.test(baseUrl)) {
    problems.push(`CALENDAR_BASE_URL must be an http(s) URL without query or fragment (got "${baseUrl}")`);
  } else {
    cfg.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  const dbUrl = get('DATABASE_URL') ?? 'sqlite:data/calendar.sqlite';
  const db = parseDatabaseUrl(dbUrl);
  if (db) cfg.database = db;
  else problems.push(`DATABASE_URL must be sqlite:PATH, sqlite::memory: or mysql://user:pass@host:port/db (got "${redactUrl(dbUrl)}")`);

  cfg.migrate = readOnOff(get('CALENDAR_MIGRATE'), true, 'CALENDAR_MIGRATE', problems);
  cfg.geo = readOnOff(get('CALENDAR_GEO'), false, 'CALENDAR_GEO', problems);

  cfg.timezone = get('CALENDAR_TIMEZONE') ?? 'UTC';
  if (!isValidTimezone(cfg.timezone)) {
    problems.push(`CALENDAR_TIMEZONE must be an IANA time zone name such as Europe/Paris (got "${cfg.timezone}")`);
  }

  cfg.adminLogin = get('CALENDAR_ADMIN_LOGIN');
  cfg.adminPassword = env.CALENDAR_ADMIN_PASSWORD?.replace(/\s+/g, '') || undefined;
  if ((cfg.adminLogin === undefined) !== (cfg.adminPassword === undefined)) {
    problems.push('CALENDAR_ADMIN_LOGIN and CALENDAR_ADMIN_PASSWORD must be set together');
  }
  if (cfg.adminLogin !== undefined && !isValidLogin(cfg.adminLogin)) {
    problems.push('CALENDAR_ADMIN_LOGIN must be 1-60 characters without spaces or ":"');
  }
  if (cfg.adminPassword !== undefined && cfg.adminPassword.length < 8) {
    problems.push('CALENDAR_ADMIN_PASSWORD must have at least 8 characters');
  }

  cfg.authMaxFailures = readCount(get('CALENDAR_AUTH_MAX_FAILURES'), 10, 'CALENDAR_AUTH_MAX_FAILURES', 1, problems);
  cfg.authFailureWindow = readCount(get('CALENDAR_AUTH_FAILURE_WINDOW'), 60, 'CALENDAR_AUTH_FAILURE_WINDOW', 1, problems);
  cfg.rateLimit = readCount(get('CALENDAR_RATE_LIMIT'), 0, 'CALENDAR_RATE_LIMIT', 0, problems);
  cfg.redisUrl = get('REDIS_URL');
  if (cfg.redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/i.test(cfg.redisUrl)) {
    problems.push(`REDIS_URL must be redis://[user:pass@]host:port[/db] or rediss://… (got "${redactUrl(cfg.redisUrl)}")`);
  }
  cfg.redisPrefix = get('CALENDAR_REDIS_PREFIX') ?? 'calendar-events:';
  cfg.allowPrivateUrls = readOnOff(get('CALENDAR_ALLOW_PRIVATE_URLS'), false, 'CALENDAR_ALLOW_PRIVATE_URLS', problems);
  cfg.dbConnectWait = readCount(get('CALENDAR_DB_CONNECT_WAIT'), 30, 'CALENDAR_DB_CONNECT_WAIT', 0, problems);

  const level = (get('LOG_LEVEL') ?? 'info').toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) cfg.logLevel = level as LogLevel;
  else problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`);

  if (problems.length > 0) throw new ConfigError(problems);
  return cfg;
}

function readOnOff(value: string | undefined, fallback: boolean, name: string, problems: string[]): boolean {
  if (value === undefined) return fallback;
  const v = ON_OFF[value.toLowerCase()];
  if (v === undefined) {
    problems.push(`${name} must be on or off (got "${value}")`);
    return fallback;
  }
  return v;
}

function readCount(value: string | undefined, fallback: number, name: string, min: number, problems: string[]): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    problems.push(`${name} must be a whole number of at least ${min} (got "${value}")`);
    return fallback;
  }
  return Number(value);
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
