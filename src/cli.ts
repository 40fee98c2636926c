import 'reflect-metadata';
import { writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { ConfigError } from './config/app-config';
import { Dialect } from './database/dialect';
import { UserInputError, UsersService } from './users/users.service';

/**
 * Command line: `npm run cli -- <command>`. Output is for people; the exit code is for scripts
 * (0 done, 1 refused or failed, 2 bad usage or configuration).
 */
const USAGE = `Usage: npm run cli -- <command>

Commands:
  user:create LOGIN --role ROLE [--password PW]   create a user; prints its application password
  migration:run                                   apply pending migrations
  migration:revert                                undo the last applied migration
  migration:show                                  list migrations and whether they are applied
  migration:generate NAME                         (development) write a migration for entity changes
  migration:check                                 (CI) fail when entities and migrations disagree

The database is the one DATABASE_URL names (default sqlite:data/calendar.sqlite).`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  // Loaded lazily so that `help` works even with a broken configuration.
  const dataSource = (await import('../ormconfig')).default as DataSource;
  const mustMigrate = process.env.CALENDAR_MIGRATE?.toLowerCase() !== 'off';
  await dataSource.initialize();
  try {
    switch (command) {
      case 'user:create':
        return await userCreate(dataSource, rest, mustMigrate);
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
    if (err instanceof UserInputError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
