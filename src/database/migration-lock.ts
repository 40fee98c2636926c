import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource, Migration } from 'typeorm';
import { Dialect } from './dialect';

/** A holder that has not renewed its lock for this long is taken to be dead; its lock is taken over. */
export const MIGRATION_LOCK_TTL_SECONDS = 600;
/** How often a holder renews its lock while it migrates (a backfill may take longer than the TTL). */
export const MIGRATION_LOCK_RENEW_MS = 60_000;
/** How long a second instance waits for the first one's migrations before it gives up. */
export const MIGRATION_LOCK_WAIT_MS = 15 * 60_000;
const POLL_MS = 250;

export class MigrationLockTimeout extends Error {
  override name = 'MigrationLockTimeout';
}

/**
 * Applies pending migrations, one instance at a time. Instances starting together on an empty
 * database raced each other's DDL ("Table … already exists"). The lock is a row in a table of
 * its own, not GET_LOCK: a named lock is local to one node of a Galera cluster, while an
 * inserted primary key is certified by every node. A holder renews the row every
 * MIGRATION_LOCK_RENEW_MS while it migrates; one that died leaves the row behind, which expires
 * MIGRATION_LOCK_TTL_SECONDS after its last renewal. The other instances wait, then find nothing
 * pending. Returns the migrations this instance applied.
 *
 * On SQLite the renewal waits while a migration's transaction is open (one connection, see
 * sqlite-transactions.ts); there a migration that writes holds the file's write lock, which
 * keeps any other process from taking the lock row meanwhile.
 */
export async function runMigrationsExclusively(
  ds: DataSource,
  opts: { waitMs?: number; onWait?: (holder: string) => void; ttlSeconds?: number; renewMs?: number } = {},
): Promise<Migration[]> {
  const dialect = Dialect.of(ds);
  // Outside the migrations, which it guards; the same SQL on both engines.
  await ds.query('CREATE TABLE IF NOT EXISTS migration_lock (id INT NOT NULL PRIMARY KEY, holder VARCHAR(100) NOT NULL, expires_at BIGINT NOT NULL)');
  const me = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const deadline = Date.now() + (opts.waitMs ?? MIGRATION_LOCK_WAIT_MS);
  const ttl = opts.ttlSeconds ?? MIGRATION_LOCK_TTL_SECONDS;
  let told = false;
  for (;;) {
    const holder = await tryTake(ds, dialect, me, ttl);
    if (holder === null) break;
    if (!told) opts.onWait?.(holder);
    told = true;
    if (Date.now() > deadline) throw new MigrationLockTimeout(`another instance (${holder}) is still applying migrations`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  let renewing: Promise<unknown> = Promise.resolve();
  const renew = setInterval(() => {
    const expires = Math.floor(Date.now() / 1000) + ttl;
    // One renewal at a time; a failed one is tried again at the next tick (the TTL is ten of them).
    renewing = renewing.then(() => ds.query('UPDATE migration_lock SET expires_at = ? WHERE id = 1 AND holder = ?', [expires, me]).catch(() => undefined));
  }, opts.renewMs ?? MIGRATION_LOCK_RENEW_MS);
  try {
    return await ds.runMigrations({ transaction: 'each' });
  } finally {
    clearInterval(renew);
    await renewing;
    await ds.query('DELETE FROM migration_lock WHERE id = 1 AND holder = ?', [me]);
  }
}

/** null when this instance now holds the lock, else the holder's name. */
async function tryTake(ds: DataSource, dialect: Dialect, me: string, ttl: number): Promise<string | null> {
  const now = Math.floor(Date.now() / 1000);
  await ds.query('DELETE FROM migration_lock WHERE id = 1 AND expires_at < ?', [now]);
  try {
    await ds.query('INSERT INTO migration_lock (id, holder, expires_at) VALUES (1, ?, ?)', [me, now + ttl]);
    return null;
  } catch (err) {
    if (!dialect.isRetryable(err)) throw err; // a duplicate key (someone holds it) or a lost certification
    const rows = (await ds.query('SELECT holder FROM migration_lock WHERE id = 1')) as { holder: string }[];
    return rows[0]?.holder ?? 'unknown';
  }
}
