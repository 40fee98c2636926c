import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { buildAdapter, configureApp } from './app.setup';
import { createLogger } from './common/logging/logger';
import { settingsOf } from './common/feature/feature';
import { extensionPathsFromEnv, loadConfigFromEnv } from './config/app-config';
import { installedFeatures } from './features';
import { ApiDocsService } from './rest-root/api-docs.service';

/**
 * `node scripts/start.js --openapi [FILE]`: the OpenAPI document that GET {api_root}/doc serves,
 * written to FILE (stdout without one). The app is built as main.ts builds it, on a throwaway
 * in-memory SQLite database and without listening, so that CI can lint the document
 * (`npm run lint:openapi`) without a server or a database.
 */
async function main(file: string | undefined): Promise<void> {
  const features = installedFeatures(extensionPathsFromEnv());
  const config = loadConfigFromEnv({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }, features.flatMap(settingsOf));
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, features), buildAdapter(createLogger(config.logLevel), config), {
    logger: false,
    bodyParser: false,
    abortOnError: false,
  });
  try {
    await configureApp(app);
    const text = `${JSON.stringify(app.get(ApiDocsService).getDocument(), null, 2)}\n`;
    if (file) writeFileSync(file, text);
    else process.stdout.write(text);
  } finally {
    await app.close();
  }
}

main(process.argv[2]).catch((err: unknown) => {
  process.stderr.write(`could not build the OpenAPI document: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
