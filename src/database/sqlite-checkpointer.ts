import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** How often committed WAL pages are copied into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/** How long shutdown waits for the thread to close its connection before it is stopped. */
const STOP_WAIT_MS = 2000;

/**
 * The checkpoint thread's code (run with `eval`, so that it needs no compiled file of its own
 * and runs the same from the TypeScript sources in the tests): a connection of its own to the
 * file, a PASSIVE checkpoint every `intervalMs`, and on `stop` the connection closed and the
 * thread left to end.
 */
const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // SQLITE_BUSY (another connection is checkpointing) and the like: the next tick tries again.
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

/**
 * SQLite WAL checkpoints on a timer, on a thread of their own, instead of inside a commit. With
 * SQLite's automatic checkpoint, the commit that takes the WAL past 1,000 pages copies them into
 * the database file and syncs both files: a profile of POST /events under load showed one commit
 * in ~25 taking ~12 ms, three quarters of all COMMIT time, with every other request waiting
 * meanwhile. Once a second instead, a PASSIVE checkpoint copies each page written since once,
 * however often it changed (the same index and full-text pages change on every write), with two
 * syncs a second rather than two every 25 commits; with nothing new in the WAL it returns at once.
 *
 * Run on the request thread, that copy still held it 60–80 ms a second under sustained writes.
 * So it runs on a worker thread with a connection of its own to the same file: in WAL mode a
 * checkpoint runs beside the writer (PASSIVE copies what no reader still needs and never waits),
 * and the serving thread only commits. The thread costs ~10 MB of RSS (docs/performance.md, "the
 * checkpoint on a thread"). Should it fail to start, the checkpoint runs on the serving thread.
 *
 * Durability is unchanged: a commit is in the WAL either way (synchronous = NORMAL), and a
 * checkpoint only moves committed pages. The WAL grows to what a second of writes adds.
 * In-memory databases and MySQL/MariaDB have nothing to do.
 */
@Injectable()
export class SqliteCheckpointer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SqliteCheckpointer');
  private timer: NodeJS.Timeout | null = null;
  private worker: Worker | null = null;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Do the checkpoints run on their own thread (rather than on this one, or not at all)? */
  get threaded(): boolean {
    return this.worker !== null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const options = this.ds.options;
    if (options.type !== 'better-sqlite3') return;
    const file = options.database;
    if (typeof file !== 'string' || file === '' || file === ':memory:' || file.startsWith('file::memory:')) return;
    const connection = (this.ds.driver as unknown as { databaseConnection?: SqliteConnection }).databaseConnection;
    if (!connection || connection.pragma('journal_mode', { simple: true }) !== 'wal') return;
    connection.pragma('wal_autocheckpoint = 0');
    try {
      this.worker = await startThread(connection.name);
    } catch (err) {
      this.logger.warn(`no checkpoint thread (${(err as Error).message}); checkpoints run on the serving thread`);
      this.onThisThread(connection);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = once(worker, 'exit');
    worker.postMessage('stop');
    const late = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
    await exited;
    clearTimeout(late);
  }

  private onThisThread(connection: SqliteConnection): void {
    this.timer = setInterval(() => {
      try {
        if (connection.open) connection.pragma('wal_checkpoint(PASSIVE)');
      } catch {
        // SQLITE_BUSY (another process is checkpointing) and the like: the next tick tries again.
      }
    }, CHECKPOINT_INTERVAL_MS);
    this.timer.unref();
  }
}

/** The checkpoint thread on `file`, once it has opened its connection. */
async function startThread(file: string): Promise<Worker> {
  const worker = new Worker(THREAD_CODE, {
    eval: true,
    workerData: { driver: require.resolve('better-sqlite3'), file, intervalMs: CHECKPOINT_INTERVAL_MS },
    // It holds a connection and a timer: the smallest heaps will do.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
  });
  // It never keeps the process alive by itself; shutdown stops it (onApplicationShutdown).
  worker.unref();
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread exited (${code})`)));
  });
  worker.removeAllListeners();
  // From here on, a failure is logged and checkpoints stop until the next start; commits go on.
  worker.on('error', (err) => new Logger('SqliteCheckpointer').error(`checkpoint thread failed: ${err.message}`));
  return worker;
}

interface SqliteConnection {
  readonly open: boolean;
  /** The file the connection has open. */
  readonly name: string;
  pragma(source: string, options?: { simple?: boolean }): unknown;
}
