import { mkdirSync } from 'node:fs';
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

/** Creates the folder of a SQLite file so that a fresh clone starts without manual steps. */
export function ensureDatabaseFolder(db: DatabaseConfig): void {
  if (db.kind === 'sqlite' && db.file !== ':memory:') mkdirSync(dirname(db.file), { recursive: true });
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
