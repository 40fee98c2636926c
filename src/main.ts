import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createConnection } from 'mysql2/promise';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { buildAdapter, configureApp } from './app.setup';
import { createLogger, NestPinoLogger } from './common/logging/logger';
import { type Feature, settingsOf } from './common/feature/feature';
import { AppConfig, ConfigError, DatabasePathError, ensureDatabaseFolder, extensionPathsFromEnv, loadConfigFromEnv, redactUrl } from './config/app-config';
import { installedFeatures } from './features';
import { ApiDocsService } from './rest-root/api-docs.service';
import { describeStartupError, isUnreachable } from './config/startup-errors';

/** Pause between two tries of a database that is down at start. */
const RETRY_PAUSE_MS = 2000;

async function main(): Promise<void> {
  let config: AppConfig;
  let features: Feature[];
  try {
    features = installedFeatures(extensionPathsFromEnv());
    config = loadConfigFromEnv({}, features.flatMap(settingsOf));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  try {
    ensureDatabaseFolder(config.database);
    await waitForDatabase(config, logger);
    await serve(config, features, logger);
  } catch (err) {
    const listen = { host: config.host, port: config.port };
    const line = err instanceof DatabasePathError ? err.message : describeStartupError(err, databaseUrl(config), listen);
    if (logger.isLevelEnabled('debug')) logger.debug({ err }, 'start-up failure');
    process.stderr.write(`${line}\n`);
    process.exit(1);
  }
}

async function serve(config: AppConfig, features: readonly Feature[], logger: Logger): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, features), buildAdapter(logger, config), {
    logger: new NestPinoLogger(logger),
    bodyParser: false,
    // A failure while starting is thrown to main(), which says it in one line (no abort, no trace).
    abortOnError: false,
  });
  await configureApp(app);
  // Built before listening, so that a route whose documentation cannot be built stops the start
  // rather than a later GET /doc.
  app.get(ApiDocsService).getDocument();
  // Graceful shutdown: stop accepting, let in-flight requests finish, close the database.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      app.close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  try {
    await app.listen(config.port, config.host);
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  logger.info(
    {
      url: config.apiRoot,
      database: config.database.kind === 'sqlite' ? `sqlite:${config.database.file}` : redactUrl(config.database.url),
      timezone: config.timezone,
    },
    'calendar-events is listening',
  );
}

/**
 * A MySQL/MariaDB server that is down at start (starting with the service, restarting) is
 * waited for up to CALENDAR_DB_CONNECT_WAIT seconds, one log line per try; anything else (a
 * refused login, a missing database) fails at once.
 */
async function waitForDatabase(config: AppConfig, logger: Logger): Promise<void> {
  if (config.database.kind !== 'mysql') return;
  const deadline = Date.now() + config.dbConnectWait * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      const conn = await createConnection({ uri: config.database.url, connectTimeout: 5000 });
      await conn.end();
      return;
    } catch (err) {
      if (!isUnreachable(err) || Date.now() + RETRY_PAUSE_MS > deadline) throw err;
      logger.warn(
        `${describeStartupError(err, config.database.url)}; trying again in ${RETRY_PAUSE_MS / 1000} s (try ${attempt}, waiting up to ${config.dbConnectWait} s in all)`,
      );
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}

function databaseUrl(config: AppConfig): string {
  return config.database.kind === 'mysql' ? config.database.url : `sqlite:${config.database.file}`;
}

main().catch((err: unknown) => {
  process.stderr.write(`calendar-events failed to start: ${describeStartupError(err)}\n`);
  process.exit(1);
});
