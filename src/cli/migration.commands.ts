import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { Dialect } from '../database/dialect';
import type { CliCommand } from '../common/feature/cli-command';
import { withScratchDatabase } from '../database/scratch-database';
import { applyMigrations } from './cli-data-source';
import { UsageError } from './usage';

// The migration commands start the context without migrating (migratesAtStart: false) and
// decide themselves what to apply or undo.

export const migrationRun: CliCommand = {
  migratesAtStart: false,
  prepare: () => async (app) => {
    const done = await applyMigrations(app.get(DataSource));
    process.stdout.write(done.length === 0 ? 'No pending migrations.\n' : done.map((m) => `applied ${m.name}\n`).join(''));
    return 0;
  },
};

export const migrationRevert: CliCommand = {
  migratesAtStart: false,
  prepare: () => async (app) => {
    await app.get(DataSource).undoLastMigration({ transaction: 'each' });
    process.stdout.write('Reverted the last migration.\n');
    return 0;
  },
};

export const migrationShow: CliCommand = {
  migratesAtStart: false,
  prepare: () => async (app) => {
    const dataSource = app.get(DataSource);
    const executed = await appliedMigrations(dataSource);
    for (const name of knownMigrations(dataSource)) process.stdout.write(`[${executed.has(name) ? 'X' : ' '}] ${name}\n`);
    return 0;
  },
};

/** migration:check's exit code when entities and migrations agree but the database has migrations to apply. */
export const CHECK_PENDING_EXIT = 3;

/**
 * Compares entities and migrations in a scratch database (withScratchDatabase), never in the
 * database it checks, which it only reads: which of the migrations are applied there.
 * Exit 0: they agree and the database is up to date; 1: the entities need a migration (or the
 * check could not run); 3 (CHECK_PENDING_EXIT): they agree, and the database has migrations
 * to apply.
 */
export const migrationCheck: CliCommand = {
  migratesAtStart: false,
  readsOnly: true,
  prepare: () => async (app) => {
    const dataSource = app.get(DataSource);
    const drift = (await withScratchDatabase(dataSource, schemaChanges)).upQueries.map((q) => q.query);
    const applied = await appliedMigrations(dataSource);
    const known = knownMigrations(dataSource);
    const pending = known.filter((name) => !applied.has(name));
    const unknown = [...applied].filter((name) => !known.includes(name));
    const out: string[] = [drift.length === 0 ? 'Entities and migrations agree.' : 'The entities need a migration (see stderr).'];
    if (pending.length === 0) out.push('The database is up to date: every migration is applied.');
    else {
      const one = pending.length === 1;
      out.push(
        `${pending.length} migration${one ? ' is' : 's are'} not applied to this database (npm run cli -- migration:run applies ${one ? 'it' : 'them'}):`,
        ...pending.map((name) => `  ${name}`),
      );
    }
    if (unknown.length > 0) out.push(`Applied to this database but unknown to this version: ${unknown.join(', ')}.`);
    const { database } = app.get(AppConfig);
    // readOnlyDataSourceOptions reads a SQLite file that does not exist as an empty database.
    if (database.kind === 'sqlite' && dataSource.options.database !== database.file) out.push(`(${database.file} does not exist: read as an empty database.)`);
    process.stdout.write(`${out.join('\n')}\n`);
    if (drift.length > 0) {
      process.stderr.write(`The entities need a migration:\n${drift.map((q) => `  ${q}`).join('\n')}\n`);
      return 1;
    }
    return pending.length === 0 ? 0 : CHECK_PENDING_EXIT;
  },
};

export const migrationGenerate: CliCommand = {
  migratesAtStart: false,
  prepare(args) {
    const name = args[0];
    if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new UsageError('migration:generate needs a PascalCase NAME.');
    return async (app) => {
      const dataSource = app.get(DataSource);
      const sql = await schemaChanges(dataSource);
      if (sql.upQueries.length === 0) {
        process.stdout.write('The schema is up to date; nothing to generate.\n');
        return 0;
      }
      // MIGRATION_TIMESTAMP: scripts/generate-migration.js gives both files of a pair the same one.
      const timestamp = app.get(AppConfig).migrationTimestamp ?? String(Date.now());
      const dialect = Dialect.of(dataSource).kind;
      const folder = join(process.cwd(), 'src', 'database', 'migrations', dialect);
      writeFileSync(join(folder, `${timestamp}-${name}.ts`), migrationFile(name, timestamp, dialect, sql));
      writeMigrationIndex(folder, dialect);
      process.stdout.write(`Wrote src/database/migrations/${dialect}/${timestamp}-${name}.ts\n`);
      return 0;
    };
  },
};

type Query = { query: string; parameters?: unknown[] };

/**
 * The SQL the entities need beyond what the migrations create, after applying them: to
 * `dataSource` itself (migration:generate, on a development database), or to a scratch
 * database (migration:check).
 */
async function schemaChanges(dataSource: DataSource): Promise<{ upQueries: Query[]; downQueries: Query[] }> {
  await applyMigrations(dataSource);
  return dataSource.driver.createSchemaBuilder().log();
}

/** The names of the migrations this version knows, in the order they apply. */
function knownMigrations(dataSource: DataSource): string[] {
  return dataSource.migrations.map((m) => m.name ?? m.constructor.name);
}

/** The names of the migrations applied to the database (none when it has no migrations table yet); only reads. */
async function appliedMigrations(dataSource: DataSource): Promise<Set<string>> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const runner = dataSource.createQueryRunner();
  try {
    if (!(await runner.hasTable(table))) return new Set();
    const rows = (await runner.query(`SELECT name FROM ${table}`)) as { name: string }[];
    return new Set(rows.map((r) => r.name));
  } finally {
    await runner.release();
  }
}

function migrationFile(name: string, timestamp: string, dialect: string, sql: { upQueries: Query[]; downQueries: Query[] }): string {
  const className = `${name}${timestamp}`;
  const lines = (queries: Query[]) =>
    queries.map((q) => `    await queryRunner.query(${JSON.stringify(q.query)}${q.parameters?.length ? `, ${JSON.stringify(q.parameters)}` : ''});`).join('\n');
  return `import { MigrationInterface, QueryRunner } from 'typeorm';

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
