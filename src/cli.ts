import 'reflect-metadata';
import { writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, ParseArgsConfig } from 'node:util';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ConfigError } from './config/app-config';
import { describeStartupError } from './config/startup-errors';
import { Dialect } from './database/dialect';
import { EventsRepository } from './events/events.repository';
import { OrganizersRepository } from './organizers/organizers.repository';
import { PostsService } from './posts';
import { Progress } from './seed/progress';
import { checkSeedOptions, resolveSeedOptions, SeedOptions } from './seed/seed-plan';
import { SeedRepository } from './seed/seed.repository';
import { SeedRefusedError, Seeder, SeedSummary } from './seed/seeder';
import { TermsRepository } from './taxonomies/taxonomies.repository';
import { UserInputError, UsersService } from './users/users.service';
import { VenuesRepository } from './venues/venues.repository';

/**
 * Command line: `npm run cli -- <command>`. Output is for people; the exit code is for scripts
 * (0 done, 1 refused or failed, 2 bad usage or configuration).
 */
const USAGE = `Usage: npm run cli -- <command>

Commands:
  user:create LOGIN --role ROLE [--password PW]   create a user; prints its application password
  user:list                                       list users: id, login, role, application passwords
  user:password LOGIN [--password PW]             new application password (printed); the old ones stop working
  user:revoke LOGIN                               revoke every application password of the user
  user:delete LOGIN [--reassign OTHER]            delete a user; its events, venues and organizers go to
                                                  OTHER (refused without --reassign when it has any)
  migration:run                                   apply pending migrations
  migration:revert                                undo the last applied migration
  migration:show                                  list migrations and whether they are applied
  migration:generate NAME                         (development) write a migration for entity changes
  migration:check                                 (CI) fail when entities and migrations disagree
  seed [--events N] [--venues V] [--organizers O] [--categories C] [--tags T] [--seed S] [--today DATE] [--force]
                                                  fill the database with a generated dataset (default 100000
                                                  events; venues N/50, organizers N/100, 100 categories,
                                                  300 tags, seed 1, today); refuses a database that has
                                                  events unless --force

The database is the one DATABASE_URL names (default sqlite:data/calendar.sqlite).`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  // Loaded lazily so that `help` works even with a broken configuration.
  const dataSource = await withServerFlavour((await import('../ormconfig')).default as DataSource);
  const mustMigrate = process.env.CALENDAR_MIGRATE?.toLowerCase() !== 'off';
  if (!dataSource.isInitialized) await dataSource.initialize();
  try {
    switch (command) {
      case 'user:create':
        return await userCreate(dataSource, rest, mustMigrate);
      case 'user:list':
      case 'user:password':
      case 'user:revoke':
      case 'user:delete':
        if (mustMigrate) await dataSource.runMigrations({ transaction: 'each' });
        return await userCommand(new UsersService(dataSource), command, rest);
      case 'migration:run': {
        const done = await dataSource.runMigrations({ transaction: 'each' });
        process.stdout.write(done.length === 0 ? 'No pending migrations.\n' : done.map((m) => `applied ${m.name}\n`).join(''));
        return 0;
      }
      case 'migration:revert':
        await dataSource.undoLastMigration({ transaction: 'each' });
        process.stdout.write('Reverted the last migration.\n');
        return 0;
      case 'migration:show':
        return await migrationShow(dataSource);
      case 'seed':
        return await seed(dataSource, rest, mustMigrate);
      case 'migration:generate':
        return await migrationGenerate(dataSource, rest);
      case 'migration:check': {
        const pending = await schemaChanges(dataSource);
        if (pending.length === 0) {
          process.stdout.write('Entities and migrations agree.\n');
          return 0;
        }
        process.stderr.write(`The entities need a migration:\n${pending.map((q) => `  ${q}`).join('\n')}\n`);
        return 1;
      }
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } finally {
    await dataSource.destroy();
  }
}

/**
 * TypeORM reads MariaDB's column metadata differently from MySQL's (defaults of nullable
 * columns), and only knows which one it talks to from the `type` option. Schema comparisons
 * (migration:generate/check) must use the right one, so a mysql:// URL that reaches a MariaDB
 * server is reopened as `mariadb`.
 */
async function withServerFlavour(dataSource: DataSource): Promise<DataSource> {
  if (dataSource.options.type !== 'mysql') return dataSource;
  await dataSource.initialize();
  const [row] = (await dataSource.query('SELECT VERSION() AS version')) as { version: string }[];
  if (!/mariadb/i.test(row?.version ?? '')) return dataSource;
  await dataSource.destroy();
  const mariadb = new DataSource({ ...dataSource.options, type: 'mariadb' } as DataSourceOptions);
  await mariadb.initialize();
  return mariadb;
}

async function userCreate(dataSource: DataSource, args: string[], mustMigrate: boolean): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { role: { type: 'string' }, password: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length !== 1 || !values.role) throw new UsageError('user:create needs LOGIN and --role ROLE.');
  if (mustMigrate) await dataSource.runMigrations({ transaction: 'each' });
  const { user, password } = await new UsersService(dataSource).create(positionals[0], values.role, values.password);
  process.stdout.write(`Created ${user.role} "${user.login}" (id ${user.id}).\nApplication password: ${password}\n`);
  return 0;
}

async function userCommand(users: UsersService, command: string, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { password: { type: 'string' }, reassign: { type: 'string' } },
    allowPositionals: true,
  });
  if (command === 'user:list') {
    const rows = await users.list();
    process.stdout.write(rows.length === 0 ? 'No users.\n' : `${['id\tlogin\trole\tpasswords', ...rows.map((u) => `${u.id}\t${u.login}\t${u.role}\t${u.passwords}`)].join('\n')}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`${command} needs LOGIN.`);
  const [login] = positionals;
  if (command === 'user:password') {
    const password = await users.setPassword(login, values.password);
    process.stdout.write(`New application password for "${login}" (the old ones are revoked): ${password}\n`);
  } else if (command === 'user:revoke') {
    const n = await users.revoke(login);
    process.stdout.write(`Revoked ${n} application password${n === 1 ? '' : 's'} of "${login}".\n`);
  } else {
    const { reassigned } = await users.delete(login, values.reassign);
    process.stdout.write(`Deleted "${login}"${reassigned > 0 ? `; ${reassigned} items now belong to "${values.reassign}"` : ''}.\n`);
  }
  return 0;
}

async function seed(dataSource: DataSource, args: string[], mustMigrate: boolean): Promise<number> {
  const counts = ['events', 'venues', 'organizers', 'categories', 'tags', 'seed'] as const;
  const text = { type: 'string' } as const;
  const { values } = parseUsage({
    args,
    options: { events: text, venues: text, organizers: text, categories: text, tags: text, seed: text, today: text, force: { type: 'boolean' } },
  });
  const given: Partial<SeedOptions> = { today: values.today };
  for (const name of counts) {
    const value = values[name];
    if (value !== undefined) given[name] = /^\d+$/.test(value) ? Number(value) : NaN;
  }
  const options = resolveSeedOptions(given);
  const problems = checkSeedOptions(options);
  if (problems.length > 0) throw new UsageError(problems.join('\n'));

  if (mustMigrate) await dataSource.runMigrations({ transaction: 'each' });
  const dialect = Dialect.of(dataSource);
  const users = new UsersService(dataSource);
  const seeder = new Seeder(
    {
      db: dataSource,
      posts: new PostsService(dataSource, dialect),
      events: new EventsRepository(dataSource, dialect),
      venues: new VenuesRepository(dataSource, dialect),
      organizers: new OrganizersRepository(dataSource, dialect),
      terms: new TermsRepository(dataSource, dialect),
      users,
      reads: new SeedRepository(dataSource),
    },
    (label, total) => new Progress(label, total),
  );
  const summary = await seeder.run(options, values.force === true);
  const author = await users.findById(summary.authorId);
  process.stdout.write(seedReport(options, summary, author?.login ?? String(summary.authorId)));
  return 0;
}

function seedReport(o: SeedOptions, s: SeedSummary, author: string): string {
  const n = (x: number) => x.toLocaleString('en-US').padStart(9);
  const e = s.events;
  const terms = (t: { created: number; reused: number }) => `${n(t.created + t.reused)}${t.reused > 0 ? `  (${t.reused} existing reused)` : ''}`;
  return [
    `Seeded in ${s.seconds.toFixed(1)} s (--seed ${o.seed} --today ${o.today}), authored by ${author}:`,
    `  events      ${n(e.total)}  (${e.publish} published, ${e.draft} draft, ${e.trash} trash; ${e.hidden} hidden from listings, ${e.featured} featured; ${e.listed} listed)`,
    `  venues      ${n(s.venues)}`,
    `  organizers  ${n(s.organizers)}`,
    `  categories  ${terms(s.categories)}`,
    `  tags        ${terms(s.tags)}`,
    `  links       ${n(s.organizerLinks)} event-organizer, ${s.termLinks.toLocaleString('en-US')} event-term`,
    '',
  ].join('\n');
}

/** parseArgs, its complaints (unknown option, missing value) reported as usage errors. */
function parseUsage<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

async function migrationShow(dataSource: DataSource): Promise<number> {
  const executed = new Set(
    (await dataSource.query(`SELECT name FROM ${dataSource.options.migrationsTableName ?? 'migrations'}`).catch(() => [])).map(
      (r: { name: string }) => r.name,
    ),
  );
  for (const migration of dataSource.migrations) {
    const name = migration.name ?? migration.constructor.name;
    process.stdout.write(`[${executed.has(name) ? 'X' : ' '}] ${name}\n`);
  }
  return 0;
}

/** The SQL the entities need beyond what the migrations create (after applying them). */
async function schemaChanges(dataSource: DataSource): Promise<string[]> {
  await dataSource.runMigrations({ transaction: 'each' });
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((q) => q.query);
}

async function migrationGenerate(dataSource: DataSource, args: string[]): Promise<number> {
  const name = args[0];
  if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new UsageError('migration:generate needs a PascalCase NAME.');
  await dataSource.runMigrations({ transaction: 'each' });
  const sql = await dataSource.driver.createSchemaBuilder().log();
  if (sql.upQueries.length === 0) {
    process.stdout.write('The schema is up to date; nothing to generate.\n');
    return 0;
  }
  const timestamp = process.env.MIGRATION_TIMESTAMP ?? String(Date.now());
  const dialect = Dialect.of(dataSource).kind;
  const folder = join(process.cwd(), 'src', 'database', 'migrations', dialect);
  const className = `${name}${timestamp}`;
  const lines = (queries: { query: string; parameters?: unknown[] }[]) =>
    queries
      .map((q) => `    await queryRunner.query(${JSON.stringify(q.query)}${q.parameters?.length ? `, ${JSON.stringify(q.parameters)}` : ''});`)
      .join('\n');
  const file = `import { MigrationInterface, QueryRunner } from 'typeorm';

/** Generated by \`npm run migration:generate -- ${name}\` (${dialect}). Never edit once merged. */
export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${lines(sql.upQueries)}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${lines([...sql.downQueries].reverse())}
  }
}
`;
  writeFileSync(join(folder, `${timestamp}-${name}.ts`), file);
  writeMigrationIndex(folder, dialect);
  process.stdout.write(`Wrote src/database/migrations/${dialect}/${timestamp}-${name}.ts\n`);
  return 0;
}

function writeMigrationIndex(folder: string, dialect: string): void {
  const files = readdirSync(folder)
    .filter((f) => /^\d+-[A-Za-z0-9]+\.ts$/.test(f))
    .sort();
  const imports = files.map((f) => {
    const [ts, name] = f.replace(/\.ts$/, '').split('-');
    return { cls: `${name}${ts}`, path: `./${f.replace(/\.ts$/, '')}` };
  });
  const constName = `${dialect.toUpperCase()}_MIGRATIONS`;
  writeFileSync(
    join(folder, 'index.ts'),
    `${imports.map((i) => `import { ${i.cls} } from '${i.path}';`).join('\n')}\n\n/** Applied in this order; generated by migration:generate. */\nexport const ${constName} = [${imports.map((i) => i.cls).join(', ')}];\n`,
  );
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    if (err instanceof UserInputError || err instanceof SeedRefusedError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    // Operator errors (database down, bad path) in one line; the stack only at LOG_LEVEL=debug.
    process.stderr.write(`${describeStartupError(err, process.env.DATABASE_URL)}\n`);
    if (/^(debug|trace)$/i.test(process.env.LOG_LEVEL ?? '') && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  },
);
