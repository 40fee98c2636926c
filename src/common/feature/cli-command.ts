import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { INestApplicationContext, Provider } from '@nestjs/common';

/** What a command does once the application context is up; resolves to the exit code. */
export type CliRun = (app: INestApplicationContext) => Promise<number>;

/**
 * One `npm run cli -- <name> …` command, declared by its feature (Feature.commands) in the
 * feature's own folder. src/cli only parses the command line, starts the context the command
 * asks for and runs it; `cli help` lists every installed feature's commands from `usage` and
 * `description`.
 */
export interface CliCommand {
  /** The command line after `npm run cli --`, for `cli help`: `user:create LOGIN --role ROLE [--password PW]`. */
  usage: string;
  /** What it does, for `cli help` (wrapped lines separated by `\n`). */
  description: string;
  /**
   * Whether the context applies pending migrations as it starts (when CALENDAR_MIGRATE is on).
   * False for the migration:* commands, which decide about migrations themselves.
   */
  migratesAtStart: boolean;
  /**
   * The command only reads the database (migration:check): a SQLite file is opened read-only
   * and is not created when missing (readOnlyDataSourceOptions). Default false.
   */
  readsOnly?: boolean;
  /**
   * The context the command runs in: the CLI's own (default: the database, the unit of work and
   * the caches, plus `providers`; no feature module, so no server start hooks), or the whole
   * service's with the importers (`import`: every feature that is on, with its services).
   */
  context?: 'cli' | 'import';
  /** What the command gets from the CLI's own context besides the database and the unit of work (its feature's services). */
  providers?: readonly Provider[];
  /** Reads the arguments before anything starts (bad usage throws UsageError) and returns the work. */
  prepare(args: string[]): CliRun;
}

/** Bad usage: reported with the usage text, exit code 2. */
export class UsageError extends Error {}

/** parseArgs, its complaints (unknown option, missing value) reported as usage errors. */
export function parseUsage<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}
