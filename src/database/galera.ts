import type { DataSource } from 'typeorm';
import { Dialect } from './dialect';

/** The part of mysql2's (callback) pool this needs: it announces every connection it opens. */
interface AnnouncingPool {
  on(event: 'connection', listener: (connection: { query(sql: string, done: (err: unknown) => void): unknown }) => void): unknown;
}

const CAUSAL = 'SET SESSION wsrep_sync_wait = 1';

/**
 * On a node of a Galera cluster, every connection of the pool reads causally
 * (`wsrep_sync_wait = 1`): a read waits until this node has applied what the cluster committed
 * before it. Writes already set it (UnitOfWork), and the reads around them depend on it too:
 * the cluster race (test/e2e/database/cluster-race) answered stale slugs and terms when a connection
 * went back to the pool without it. Setting it when the pool opens a connection makes every
 * connection alike from the start, instead of only those a write once used. Call right after
 * `initialize()`, while the pool holds its one first connection. Returns whether it is a node.
 */
export async function causalReadsOnGalera(ds: DataSource): Promise<boolean> {
  if (!(await Dialect.of(ds).isGaleraNode(ds))) return false;
  const pool = (ds.driver as unknown as { pool: AnnouncingPool }).pool;
  // Queued on the new connection before the query it was opened for.
  pool.on('connection', (connection) => connection.query(CAUSAL, () => undefined));
  await ds.query(CAUSAL); // the connection initialize() opened
  return true;
}
