import { parseArgs, ParseArgsConfig } from 'node:util';

/**
 * Command line: `npm run cli -- <command>`. Output is for people; the exit code is for scripts
 * (0 done, 1 refused or failed, 2 bad usage or configuration).
 */
export const USAGE = `Usage: npm run cli -- <command>

Commands:
  user:create LOGIN --role ROLE [--password PW]   create a user; prints its application password
  user:list                                       list users: id, login, role, application passwords
  user:password LOGIN [--password PW]             new application password (printed); the old ones stop working
  user:revoke LOGIN                               revoke every application password of the user
  user:delete LOGIN [--reassign OTHER] [--force]  delete a user; its events, venues and organizers go to
                                                  OTHER (refused without --reassign when it has any); the
                                                  last administrator is refused unless --force
  migration:run                                   apply pending migrations
  migration:revert                                undo the last applied migration
  migration:show                                  list migrations and whether they are applied
  migration:generate NAME                         (development) write a migration for entity changes
  migration:check                                 (CI) compare entities and migrations in a scratch database,
                                                  and list the migrations this database lacks; writes nothing.
                                                  Exit 0 agree and up to date, 1 the entities need a migration,
                                                  3 they agree but migrations are pending here
  seed [--events N] [--venues V] [--organizers O] [--categories C] [--tags T] [--seed S] [--today DATE] [--force]
                                                  fill the database with a generated dataset (default 100000
                                                  events; venues N/50, organizers N/100, 100 categories,
                                                  300 tags, seed 1, today); refuses a database that has
                                                  events unless --force
  cache:flush                                     every running instance drops its read caches (after data
                                                  was changed behind the service's back)
  import:tec SITE_URL [--user LOGIN --password APP_PASSWORD] [--since DATE] [--to DATE] [--as LOGIN] [--dry-run]
                                                  import categories, tags, venues, organizers and events from a
                                                  site running The Events Calendar (drafts too with --user/--password);
                                                  a re-run updates what changed and duplicates nothing
  import:ics FILE_OR_URL [--status publish|draft] [--category NAME]... [--author LOGIN] [--dry-run]
             [--from DATE] [--to DATE]            import the events of an iCalendar file or feed (recurring
                                                  events expanded from --from to --to, default 30 days ago
                                                  to one year ahead); a re-run updates what changed
  sources:list                                    list the sources (calendars kept in step): kind, schedule,
                                                  last run, next run, URL
  sources:run ID                                  run a source now, here; a run of it going elsewhere is refused

Imports and sources:run exit 0 when every record was written, 1 when some failed (each one is said), 2 when the
source cannot be used. They print a progress bar on a terminal and a summary at the end.

The database is the one DATABASE_URL names (default sqlite:data/calendar.sqlite).`;

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
