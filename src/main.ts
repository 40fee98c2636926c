import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { buildAdapter, configureApp } from './app.setup';
import { createLogger, NestPinoLogger } from './common/logging/logger';
import { ConfigError, ensureDatabaseFolder, loadConfig, redactUrl } from './config/app-config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  ensureDatabaseFolder(config.database);
  const logger = createLogger(config.logLevel);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), buildAdapter(logger), {
    logger: new NestPinoLogger(logger),
    bodyParser: false,
  });
  await configureApp(app);
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
  await app.listen(config.port, config.host);
  logger.info(
    {
      url: config.apiRoot,
      database: config.database.kind === 'sqlite' ? `sqlite:${config.database.file}` : redactUrl(config.database.url),
      timezone: config.timezone,
      geo: config.geo,
    },
    'calendar-events is listening',
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`calendar-events failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
