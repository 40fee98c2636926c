import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** How long another process's write may stay unseen by this process's caches. */
export const SHARED_VERSION_POLL_MS = 250;

/**
 * The version of the data that read caches are keyed by. A write in this process moves it at
 * once (so the next read here sees the write); writes of other processes sharing the database
 * are noticed within SHARED_VERSION_POLL_MS, through the change log every write appends to.
 *
 * The shared part is the change log's counter: every write raises it in its transaction, and
 * seqs are given in commit order (database/change-log.ts), so a committed write always moves it.
 */
@Injectable()
export class DataVersion {
  private local = 0;
  private shared = '0';
  private checkedAt = 0;
  private checking: Promise<void> | null = null;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The current version (cheap: reads the change log at most every SHARED_VERSION_POLL_MS; the
   * first call reads it, so a process that never reads, such as the CLI, never asks).
   */
  async current(): Promise<string> {
    if (Date.now() - this.checkedAt > SHARED_VERSION_POLL_MS) {
      this.checking ??= this.poll().finally(() => (this.checking = null));
      await this.checking;
    }
    return this.known();
  }

  /** current() when it would not read the change log now, else undefined (then call current()). */
  fresh(): string | undefined {
    return Date.now() - this.checkedAt > SHARED_VERSION_POLL_MS ? undefined : this.known();
  }

  /** The version as last seen, without asking the change log. */
  known(): string {
    return `${this.shared}.${this.local}`;
  }

  /** After the commit of a write (ReadModel.committed, called by the unit of work only): the version moves on. */
  committed(): void {
    this.local += 1;
  }

  private async poll(): Promise<void> {
    const now = Date.now();
    const rows = (await this.db.query("SELECT seq FROM change_counter WHERE name = 'log'")) as { seq: number | string }[];
    this.shared = String(rows[0]?.seq ?? 0);
    this.checkedAt = now;
  }
}
