import type { INestApplicationContext } from '@nestjs/common';

/** What a command does once the application context is up; resolves to the exit code. */
export type CliRun = (app: INestApplicationContext) => Promise<number>;

/** One `npm run cli -- <name> …` command. */
export interface CliCommand {
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
   * The context the command runs in: the CLI's own (default; no feature module), or the
   * importers' (src/imports: the whole service, with the features' services).
   */
  context?: 'cli' | 'import';
  /** Reads the arguments before anything starts (bad usage throws UsageError) and returns the work. */
  prepare(args: string[]): CliRun;
}
