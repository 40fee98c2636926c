import { randomBytes } from 'node:crypto';
import { Test } from '@nestjs/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createConnection } from 'mysql2/promise';
import { AppModule } from '../../src/app.module';
import { type Feature, settingsOf } from '../../src/common/feature/feature';
import { buildAdapter, configureApp } from '../../src/app.setup';
import { createLogger, NestPinoLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/app-config';
import { FEATURES, installedFeatures } from '../../src/features';
import { UsersService } from '../../src/users/users.service';

export interface TestApp {
  app: NestFastifyApplication;
  /** The base URL links are built from (no server socket is opened). */
  baseUrl: string;
  /** The database this app runs on (another instance can share it: `createTestApp(env, { sharing })`). */
  databaseUrl: string;
  /** The features it was built with (src/features.ts', or the test's own list). */
  features: readonly Feature[];
  /** Creates a user and returns an `Authorization` header value for it. */
  userHeader(login: string, role: string): Promise<{ id: number; authorization: string }>;
  close(): Promise<void>;
}

/**
 * The real application (same modules, same configureApp as main.ts) on a fresh database:
 * a new in-memory SQLite, or, when TEST_DATABASE_URL names a MySQL/MariaDB server, a new
 * database on it that close() drops again.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: { sharing?: Pick<TestApp, 'databaseUrl'>; through?: string; onLog?: (line: string) => void; features?: readonly Feature[] } = {},
): Promise<TestApp> {
  // `through`: another server of the same cluster (mysql://host:port), for the database of `sharing`.
  const shared = opts.sharing && opts.through ? onServer(opts.sharing.databaseUrl, opts.through) : opts.sharing?.databaseUrl;
  const target = shared ?? env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
  // A second instance on the database of `sharing` neither creates nor drops it.
  const dropDatabase = !opts.sharing && /^(mysql|mariadb):\/\//.test(target) ? await createScratchDatabase(target) : null;
  // `features`: the installed features instead of those the server would find (the core's, the
  // extensions in extensions/ and in env's CALENDAR_EXTENSIONS).
  const features = opts.features ?? installedFeatures((env.CALENDAR_EXTENSIONS ?? '').split(',').filter((p) => p.trim() !== ''));
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      CALENDAR_BASE_URL: 'http://127.0.0.1:3000',
      ...extensionDefaults(),
      ...(opts.features ? {} : extensionModuleSwitches(features)),
      ...env,
      DATABASE_URL: dropDatabase?.url ?? target,
    },
    features.flatMap(settingsOf),
  );
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config, features)] }).compile();
  // With onLog, what the app logs (Nest's messages included) goes there, as an operator would read it.
  const logger = createLogger(config.logLevel, opts.onLog ? { write: opts.onLog } : undefined);
  const app = moduleRef.createNestApplication<NestFastifyApplication>(buildAdapter(logger, config), {
    logger: opts.onLog ? new NestPinoLogger(logger) : false,
    bodyParser: false,
  });
  try {
    await configureApp(app);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  } catch (err) {
    // An app that refuses to start (a test of a start-up check) leaves no connection open and no database behind.
    await app.close().catch(() => undefined);
    await dropDatabase?.drop();
    throw err;
  }

  const users = app.get(UsersService);
  return {
    app,
    baseUrl: config.baseUrl,
    databaseUrl: dropDatabase?.url ?? target,
    features,
    async userHeader(login, role) {
      const { user, password } = await users.create(login, role);
      return { id: user.id, authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
    },
    async close() {
      await app.close();
      await dropDatabase?.drop();
    },
  };
}

/**
 * TEST_EXTENSIONS=on (.ci/run): the optional extensions a test does not set
 * itself are on, so that the contract suites run once with every extension off (the default)
 * and again with geo and recurrence on. A test that needs one off says so in its own env.
 */
export const EXTENSIONS_ON = process.env.TEST_EXTENSIONS === 'on';

/**
 * TEST_EXTENSION_MODULES=on: the extensions in extensions/ are switched on in every app whose
 * test does not choose its features, so that the core's own tests show they hold with a team's
 * extension installed (its keys, columns, joins and migrations added).
 */
export const EXTENSION_MODULES_INSTALLED = process.env.TEST_EXTENSION_MODULES === 'on';

/** With TEST_EXTENSION_MODULES=on, each installed extension's own switch set on (a test's env still decides). */
function extensionModuleSwitches(features: readonly Feature[]): Record<string, string> {
  if (!EXTENSION_MODULES_INSTALLED) return {};
  return Object.fromEntries(features.filter((f) => !FEATURES.includes(f) && f.switch).map((f) => [f.switch!.name, 'on']));
}

/** Every optional extension off, whatever TEST_EXTENSIONS says: for a test of the core alone. */
export const EXTENSIONS_OFF: Readonly<Record<string, string>> = { CALENDAR_GEO: 'off', CALENDAR_RECURRENCE: 'off' };

function extensionDefaults(): Record<string, string> {
  return EXTENSIONS_ON ? { CALENDAR_GEO: 'on', CALENDAR_RECURRENCE: 'on' } : {};
}

/** `url` (a database) on the server of `server` (user, host and port taken from it). */
function onServer(url: string, server: string): string {
  const db = new URL(url);
  const via = new URL(server.replace(/^mariadb:/, 'mysql:'));
  via.pathname = db.pathname;
  return via.toString();
}

/** A new database on the server of `url` (user, host and port taken from it); `drop` removes it. */
export async function createScratchDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  const name = `${parsed.pathname.slice(1) || 'calendar_test'}_${process.pid}_${randomBytes(3).toString('hex')}`;
  parsed.pathname = '';
  const server = parsed.toString();
  const admin = async () => createConnection({ uri: server });
  const conn = await admin();
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
  const dbUrl = new URL(server);
  dbUrl.pathname = `/${name}`;
  return {
    url: dbUrl.toString(),
    async drop() {
      const c = await admin();
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}
