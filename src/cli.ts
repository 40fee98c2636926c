import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { type CliCommand, UsageError } from './common/feature/cli-command';
import { type Feature, isEnabled, settingsOf } from './common/feature/feature';
import { CliModule } from './cli/cli.module';
import { commandsOf, ownerOf } from './cli/commands';
import { usageText } from './cli/usage';
import { createLogger, NestPinoLogger } from './common/logging/logger';
import { AppConfig, ConfigError, ensureDatabaseFolder, extensionPathsFromEnv, loadConfigFromEnv } from './config/app-config';
import { describeStartupError } from './config/startup-errors';
import { installedFeatures } from './features';
import { SeedRefusedError } from './seed/seeder';
// users.service directly, not the users index: the index loads the Redis client too (~0.1 s of start).
import { UserInputError } from './users/users.service';

/**
 * `npm run cli -- <command>`: each command runs inside a Nest application context built from
 * CliModule (the app's providers and connection options, the one validated AppConfig).
 * Output is for people; the exit code is for scripts (0 done, 1 refused or failed, 2 bad
 * usage or configuration).
 */
async function main(argv: string[]): Promise<number> {
  let config: AppConfig | undefined;
  let usage = '';
  try {
    // The installed features (the extensions too) declare the commands.
    const features = installedFeatures(extensionPathsFromEnv());
    const commands = commandsOf(features);
    usage = usageText(commands);
    const [name, ...rest] = argv;
    if (!name || name === 'help' || name === '--help') {
      process.stdout.write(`${usage}\n`);
      return name ? 0 : 2;
    }
    const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!command) throw new UsageError(`Unknown command "${name}".`);
    const run = command.prepare(rest);

    // Loaded only now, so that `help` and bad usage are answered even with a broken configuration.
    config = loadConfigFromEnv({}, features.flatMap(settingsOf));
    const owner = ownerOf(features, name);
    if (owner && !isEnabled(owner, config)) {
      process.stderr.write(`${name}: the ${owner.name} feature is switched off${owner.switch ? ` (${owner.switch.name})` : ''}.\n`);
      return 1;
    }
    if (!command.readsOnly) ensureDatabaseFolder(config.database);
    const app = await startContext(config, features, command);
    try {
      return await run(app);
    } finally {
      await app.close();
    }
  } catch (err) {
    return failure(err, config, usage);
  }
}

async function startContext(config: AppConfig, features: readonly Feature[], command: CliCommand): Promise<INestApplicationContext> {
  const migrate = command.migratesAtStart && config.migrate;
  const context = command.context ?? 'cli';
  const debug = config.logLevel === 'debug' || config.logLevel === 'trace';
  // The importers' context applies migrations as the server does (when CALENDAR_MIGRATE is on).
  // Loaded only for import commands: the whole service is more to load than the other commands need.
  const module =
    context === 'import'
      ? (await import('./imports')).ImportModule.forRoot((await import('./app.module')).AppModule.forRoot(config, features))
      : CliModule.forRoot(config, { migrate, features, readsOnly: command.readsOnly ?? false, providers: command.providers });
  return NestFactory.createApplicationContext(module, {
    // Quiet unless asked: Nest's start-up lines only at LOG_LEVEL=debug, on stderr (stdout is the output).
    logger: debug ? new NestPinoLogger(createLogger(config.logLevel, pino.destination({ dest: 2, sync: true }))) : false,
    // A failure while starting (database down, a migration) is thrown to main(), said in one line.
    abortOnError: false,
  });
}

/** Says what went wrong on stderr; returns the exit code. */
function failure(err: unknown, config: AppConfig | undefined, usage: string): number {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n\n${usage}\n`);
    return 2;
  }
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  if (err instanceof UserInputError || err instanceof SeedRefusedError) {
    process.stderr.write(`${err.message}\n`);
    return 1;
  }
  // Operator errors (database down, bad path) in one line; the stack only at LOG_LEVEL=debug.
  const database = config?.database;
  process.stderr.write(`${describeStartupError(err, database && (database.kind === 'mysql' ? database.url : `sqlite:${database.file}`))}\n`);
  if ((config?.logLevel === 'debug' || config?.logLevel === 'trace') && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return 1;
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
