import { randomBytes } from 'node:crypto';
import { DataSource, DataSourceOptions } from 'typeorm';
import { Dialect } from './dialect';

/** The prefix of the scratch databases' names on a MySQL/MariaDB server (findable if one is ever left behind). */
export const SCRATCH_DATABASE_PREFIX = 'calendar_check_';

/**
 * Runs `work` on a new, empty database of the same engine and options as `like`, which it never
 * writes to: an in-memory SQLite database, or a database created for the purpose on the same
 * MySQL/MariaDB server (with the default character set and collation of `like`'s), dropped
 * afterwards whether `work` succeeds or fails. Needs the right to create databases there.
 */
export async function withScratchDatabase<T>(like: DataSource, work: (scratch: DataSource) => Promise<T>): Promise<T> {
  if (Dialect.of(like).kind === 'sqlite') {
    return useScratch({ ...like.options, database: ':memory:', readonly: false, fileMustExist: false } as DataSourceOptions, work);
  }
  const [defaults] = (await like.query(
    'SELECT DEFAULT_CHARACTER_SET_NAME AS charset, DEFAULT_COLLATION_NAME AS collation FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()',
  )) as { charset: string; collation: string }[];
  const name = `${SCRATCH_DATABASE_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  // Names of character sets and collations are plain words; anything else falls back to the server's defaults.
  const word = /^\w+$/;
  const charset =
    defaults && word.test(defaults.charset) && word.test(defaults.collation) ? ` CHARACTER SET ${defaults.charset} COLLATE ${defaults.collation}` : '';
  await like.query(`CREATE DATABASE \`${name}\`${charset}`);
  try {
    return await useScratch({ ...like.options, url: onDatabase(like.options as { url?: string }, name), database: name } as DataSourceOptions, work);
  } finally {
    await like.query(`DROP DATABASE IF EXISTS \`${name}\``);
  }
}

async function useScratch<T>(options: DataSourceOptions, work: (scratch: DataSource) => Promise<T>): Promise<T> {
  const scratch = await new DataSource(options).initialize();
  try {
    return await work(scratch);
  } finally {
    await scratch.destroy();
  }
}

/** The connection URL of `options` pointed at database `name` (undefined when the options have no URL). */
function onDatabase(options: { url?: string }, name: string): string | undefined {
  if (options.url === undefined) return undefined;
  const url = new URL(options.url);
  url.pathname = `/${name}`;
  return url.toString();
}
