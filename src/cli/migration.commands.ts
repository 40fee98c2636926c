import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { Dialect } from '../database/dialect';
import { type CliCommand, parseUsage, UsageError } from '../common/feature/cli-command';
import { type Feature, InstalledFeatures } from '../common/feature/feature';
import { appliedMigrations, knownMigrations } from '../database/applied-migrations';
import { withScratchDatabase } from '../database/scratch-database';
import { applyMigrations } from './cli-data-source';

// The migration commands start the context without migrating (migratesAtStart: false) and
// decide themselves what to apply or undo.

export const migrationRun: CliCommand = {
  usage: 'migration:run',
  description: 'apply pending migrations',
  migratesAtStart: false,
  prepare: () => async (app) => {
    const done = await applyMigrations(app.get(DataSource));
    process.stdout.write(done.length === 0 ? 'No pending migrations.\n' : done.map((m) => `applied ${m.name}\n`).join(''));
    return 0;
  },
};

export const migrationRevert: CliCommand = {
  usage: 'migration:revert',
  description: 'undo the last applied migration',
  migratesAtStart: false,
  prepare: () => async (app) => {
    await app.get(DataSource).undoLastMigration({ transaction: 'each' });
    process.stdout.write('Reverted the last migration.\n');
    return 0;
  },
};

export const migrationShow: CliCommand = {
  usage: 'migration:show',
  description: 'list migrations and whether they are applied',
  migratesAtStart: false,
  prepare: () => async (app) => {
    const dataSource = app.get(DataSource);
    const executed = await appliedMigrations(dataSource, 'none');
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
  usage: 'migration:check',
  description:
    '(CI) compare entities and migrations in a scratch database,\nand list the migrations this database lacks; writes nothing.\nExit 0 agree and up to date, 1 the entities need a migration,\n3 they agree but migrations are pending here',
  migratesAtStart: false,
  readsOnly: true,
  prepare: () => async (app) => {
    const dataSource = app.get(DataSource);
    const drift = (await withScratchDatabase(dataSource, schemaChanges)).upQueries.map((q) => q.query);
    const applied = await appliedMigrations(dataSource, 'none');
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
  usage: 'migration:generate NAME [--feature NAME]',
  description:
    '(development) write a migration for entity changes, into the\nmigrations folder of the feature whose tables changed (--feature\nsays which when several did) and its index.ts',
  migratesAtStart: false,
  prepare(args) {
    const { values, positionals } = parseUsage({ args, allowPositionals: true, options: { feature: { type: 'string' } } });
    const name = positionals[0];
    if (!name || positionals.length > 1 || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new UsageError('migration:generate needs a PascalCase NAME.');
    return async (app) => {
      const dataSource = app.get(DataSource);
      const sql = await schemaChanges(dataSource);
      if (sql.upQueries.length === 0) {
        process.stdout.write('The schema is up to date; nothing to generate.\n');
        return 0;
      }
      const target = migrationFolder(dataSource, app.get(InstalledFeatures).all, sql.upQueries, values.feature);
      if ('problem' in target) {
        process.stderr.write(`migration:generate: ${target.problem}\n`);
        return 1;
      }
      // MIGRATION_TIMESTAMP: scripts/generate-migration.js gives both files of a pair the same one.
      const timestamp = app.get(AppConfig).migrationTimestamp ?? String(Date.now());
      const dialect = Dialect.of(dataSource).kind;
      const folder = join(target.folder, dialect);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${timestamp}-${name}.ts`), migrationFile(name, timestamp, dialect, sql));
      writeMigrationIndex(folder, dialect);
      const shown = relative(process.cwd(), folder);
      process.stdout.write(`Wrote ${shown}/${timestamp}-${name}.ts and ${shown}/index.ts\n`);
      if (target.feature)
        process.stdout.write(`(the ${target.feature} feature lists ${dialect.toUpperCase()}_MIGRATIONS of that index.ts in its migrations)\n`);
      return 0;
    };
  },
};

/** The core's migrations (the tables of the core features that keep no folder of their own). */
const CORE_MIGRATIONS = join('src', 'database', 'migrations');

/**
 * Where a migration goes: the migrations folder of the feature `named`, or else of the one
 * feature whose tables the SQL changes (Feature.migrations.folder, as a source path: a folder
 * under the build's dist/ is the same folder in the repository); the core's folder for tables
 * of features without one.
 */
function migrationFolder(
  dataSource: DataSource,
  features: readonly Feature[],
  queries: readonly Query[],
  named: string | undefined,
): { folder: string; feature?: string } | { problem: string } {
  const ownFolder = (f: Feature) => f.migrations?.folder;
  if (named !== undefined) {
    const feature = features.find((f) => f.name === named);
    if (!feature) return { problem: `no installed feature is named ${named}.` };
    const folder = ownFolder(feature);
    return folder
      ? { folder: sourceFolder(folder), feature: feature.name }
      : { problem: `the ${named} feature declares no migrations folder (Feature.migrations.folder).` };
  }
  const owners = features.filter((f) =>
    (f.entities ?? []).some((entity) => queries.some((q) => namesTable(q.query, dataSource.getMetadata(entity).tableName))),
  );
  const withFolder = [...new Set(owners.filter(ownFolder))];
  if (withFolder.length > 1 || (withFolder.length === 1 && owners.length > withFolder.length)) {
    return { problem: `the changes touch the tables of ${owners.map((f) => f.name).join(', ')}: generate them one feature at a time (--feature NAME).` };
  }
  if (withFolder.length === 1) return { folder: sourceFolder(ownFolder(withFolder[0])!), feature: withFolder[0].name };
  return { folder: join(process.cwd(), CORE_MIGRATIONS) };
}

/** Whether a statement names a table (quoted as either engine quotes it). */
function namesTable(sql: string, table: string): boolean {
  return sql.includes(`"${table}"`) || sql.includes(`\`${table}\``);
}

/** The repository's folder of a folder the build runs from (dist/x → x); the folder itself otherwise. */
function sourceFolder(folder: string): string {
  const inBuild = relative(join(process.cwd(), 'dist'), folder);
  return inBuild.startsWith('..') ? folder : join(process.cwd(), inBuild);
}

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
