import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheBus } from './cache-bus';

/** How long another process's write may stay unseen by this process's caches, without Redis. */
export const SHARED_VERSION_POLL_MS = 250;

/**
 * The poll's interval while writes are pushed through Redis (CacheBus): the fallback for an
 * instance whose announcement could not go out (its own link to Redis down while ours is up).
 */
export const PUSHED_VERSION_POLL_MS = 2000;

/**
 * How long after a change row is first seen its transaction may still be committing others
 * with lower seq. A change row is inserted as the last statement before COMMIT, so the window
 * is one commit (milliseconds, a Galera certification included); ten seconds is ample.
 */
export const COMMIT_LAG_MS = 10_000;

/**
 * The version of the data that read caches are keyed by. A write in this process moves it at
 * once (so the next read here sees the write); writes of other processes sharing the database
 * are noticed within SHARED_VERSION_POLL_MS, through the change log every write appends to.
 * With Redis (CacheBus), another process's commit is announced: the next read here reads the
 * change log at once, and the poll slows to PUSHED_VERSION_POLL_MS while the subscription is up.
 *
 * The shared part is the highest seq plus the number of changes above a watermark that trails
 * the highest seq by COMMIT_LAG_MS: sequence numbers are handed out at insert and become
 * visible at commit, so a transaction holding seq 10 may commit after one holding seq 11. The
 * highest seq alone would then not move; the count above the watermark does.
 */
@Injectable()
export class DataVersion {
  private local = 0;
  private shared = '0';
  private checkedAt = 0;
  private checking: Promise<void> | null = null;
  /** Changes at or below this seq have all committed (see COMMIT_LAG_MS). */
  private watermark = 0;
  /** Highest seqs seen, oldest first, waiting to become the watermark. */
  private readonly seen: { at: number; top: number }[] = [];
  /** Announcements of other instances' commits heard so far (see nudge()). */
  private nudges = 0;
  /**
   * The poll's intervals, in ms: `pushed` while CacheBus's subscription is up, `polled` otherwise.
   * Tests lengthen both to show that what made a write visible was the push.
   */
  readonly intervals = { pushed: PUSHED_VERSION_POLL_MS, polled: SHARED_VERSION_POLL_MS };

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Optional() private readonly bus?: CacheBus,
  ) {
    bus?.on('remote', () => this.nudge());
  }

  /**
   * The current version (cheap: reads the change log at most every poll interval; the first
   * call reads it, so a process that never reads, such as the CLI, never asks).
   */
  async current(): Promise<string> {
    // Twice at most: a poll already under way when another instance's commit was announced
    // may have read before that commit, and then it is read again (never more, so that a
    // stream of announcements cannot hold a read up).
    for (let round = 0; round < 2 && this.due(); round++) {
      this.checking ??= this.poll().finally(() => (this.checking = null));
      await this.checking;
    }
    return this.known();
  }

  /** current() when it would not read the change log now, else undefined (then call current()). */
  fresh(): string | undefined {
    return this.due() ? undefined : this.known();
  }

  /** Another instance committed a write (CacheBus): the next read reads the change log. */
  nudge(): void {
    this.nudges += 1;
    this.checkedAt = 0;
  }

  private due(): boolean {
    const interval = this.bus?.pushed ? this.intervals.pushed : this.intervals.polled;
    return Date.now() - this.checkedAt > interval;
  }

  /** The version as last seen, without asking the change log. */
  known(): string {
    return `${this.shared}.${this.local}`;
  }

  /** After the commit of a write (ReadModel.committed, called by the unit of work only): the version moves on. */
  committed(): void {
    this.local += 1;
    this.bus?.publish();
  }

  private async poll(): Promise<void> {
    const now = Date.now();
    const nudges = this.nudges;
    const rows = (await this.db.query('SELECT MAX(seq) AS top, COUNT(*) AS n FROM changes WHERE seq > ?', [this.watermark])) as {
      top: number | string | null;
      n: number | string;
    }[];
    const top = Number(rows[0]?.top ?? this.watermark);
    this.shared = `${top}:${Number(rows[0]?.n ?? 0)}`;
    // A commit announced while this query ran may not be in what it read: read again next time.
    this.checkedAt = nudges === this.nudges ? now : 0;
    if (this.seen.length === 0 || this.seen[this.seen.length - 1].top !== top) this.seen.push({ at: now, top });
    while (this.seen.length > 0 && now - this.seen[0].at >= COMMIT_LAG_MS) {
      // Moving the watermark changes the count: one extra miss per lag, only after writes.
      this.watermark = this.seen.shift()!.top;
    }
  }
}
