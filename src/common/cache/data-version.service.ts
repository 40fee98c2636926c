import { Injectable, Optional } from '@nestjs/common';
import { CacheBus } from './cache-bus';

/** How long another process's write may stay unseen by this process's caches, without Redis. */
export const SHARED_VERSION_POLL_MS = 250;

/**
 * The poll's interval while writes are pushed through Redis (CacheBus): the fallback for an
 * instance whose announcement could not go out (its own link to Redis down while ours is up).
 */
export const PUSHED_VERSION_POLL_MS = 2000;

/**
 * The part of the data version that every process sharing the database sees: a value that
 * every committed write moves. The database layer provides it (the change log's counter,
 * database/change-log-version.ts), so the caches read no table themselves.
 */
export abstract class CommittedVersion {
  abstract read(): Promise<string>;
}

/**
 * The version of the data that read caches are keyed by. A write in this process moves it at
 * once (so the next read here sees the write); writes of other processes sharing the database
 * are noticed within SHARED_VERSION_POLL_MS, through the change log every write appends to.
 * With Redis (CacheBus), another process's commit is announced: the next read here reads the
 * change log at once, and the poll slows to PUSHED_VERSION_POLL_MS while the subscription is up.
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
  /** Announcements of other instances' commits heard so far (see nudge()). */
  private nudges = 0;
  /**
   * The poll's intervals, in ms: `pushed` while CacheBus's subscription is up, `polled` otherwise.
   * Tests lengthen both to show that what made a write visible was the push.
   */
  readonly intervals = { pushed: PUSHED_VERSION_POLL_MS, polled: SHARED_VERSION_POLL_MS };

  constructor(
    private readonly committedVersion: CommittedVersion,
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
    this.shared = await this.committedVersion.read();
    // A commit announced while this query ran may not be in what it read: read again next time.
    this.checkedAt = nudges === this.nudges ? now : 0;
  }
}
