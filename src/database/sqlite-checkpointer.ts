import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** How often committed WAL pages are copied into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * SQLite WAL checkpoints on a timer instead of inside a commit. With SQLite's automatic
 * checkpoint, the commit that takes the WAL past 1,000 pages copies them into the database file
 * and syncs both files: a profile of POST /events under load showed one commit in ~25 taking
 * ~12 ms, three quarters of all COMMIT time, with every other request waiting meanwhile. Once
 * a second instead, a PASSIVE checkpoint copies each page written since once, however often it
 * changed (the same index and full-text pages change on every write), with two syncs a second
 * rather than two every 25 commits; with nothing new in the WAL it returns at once.
 *
 * Durability is unchanged: a commit is in the WAL either way (synchronous = NORMAL), and a
 * checkpoint only moves committed pages. The WAL grows to what a second of writes adds.
 * (A worker thread with a connection of its own would take the copy off the event loop
 * altogether, but its isolate costs ~10 MB of RSS, and the budget is 256 MB.)
 * In-memory databases and MySQL/MariaDB have nothing to do.
 */
@Injectable()
export class SqliteCheckpointer implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  onApplicationBootstrap(): void {
    const options = this.ds.options;
    if (options.type !== 'better-sqlite3') return;
    const file = options.database;
    if (typeof file !== 'string' || file === '' || file === ':memory:' || file.startsWith('file::memory:')) return;
    const connection = (this.ds.driver as unknown as { databaseConnection?: SqliteConnection }).databaseConnection;
    if (!connection || connection.pragma('journal_mode', { simple: true }) !== 'wal') return;
    connection.pragma('wal_autocheckpoint = 0');
    this.timer = setInterval(() => {
      try {
        if (connection.open) connection.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // SQLITE_BUSY (another process is checkpointing) and the like: the next tick tries again.
      }
    }, CHECKPOINT_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

interface SqliteConnection {
  readonly open: boolean;
  pragma(source: string, options?: { simple?: boolean }): unknown;
}
