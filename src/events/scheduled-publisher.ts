import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { nowUtcSql } from '../common/datetime/clock';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { TermsService } from '../taxonomies';
import { EventsRepository } from './events.repository';

/** A published event counts in term counts; scheduled ones join when the publisher publishes them. */
export const countsAsPublished = (status: string) => status === 'publish';

/** How long a reader's "something is due" may rest on what this instance last read of the schedule before it is read again. */
const RECHECK_MS = 1000;
/** How long after a scheduled date the timer wakes: the second of `nowUtcSql` has then surely reached it. */
const DATE_SLACK_MS = 50;

/**
 * Publishes scheduled events whose date has come (spec endpoints.md §3 rule 5), on a timer of
 * its own: every CALENDAR_SCHEDULE_POLL_SECONDS, and at the date of the next scheduled event this
 * instance knows of. Reads never write: until the publisher has run, they show a due event as
 * published (`dueCutoff`, effectiveStatus) and bypass the caches that could hold it otherwise.
 *
 * With several instances, each one's timer may find the same due events. Each event is published
 * by a conditional UPDATE (`status = 'future'` still) inside the unit of work: the database lets
 * one of them change the row, and only that one records the change and moves the term counts
 * (the webhook worker's claims decide the same way, by what an UPDATE changed).
 */
@Injectable()
export class ScheduledPublisher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ScheduledPublisher');
  /** The earliest publication date among scheduled events, as this instance last knew it. */
  private nextUtc: string | null = null;
  private checkedAt = 0;
  private rechecking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly events: EventsRepository,
    private readonly terms: TermsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    this.arm();
  }

  /** Before the connection closes (its shutdown hook comes later): no run starts, the one under way ends. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** After every event write: a new scheduled date may come sooner than the timer would look. */
  noteScheduled(dateUtc: string, status: string): void {
    if (status !== 'future' || (this.nextUtc !== null && dateUtc >= this.nextUtc)) return;
    this.nextUtc = dateUtc;
    this.arm();
  }

  /**
   * Is a scheduled event due but perhaps not yet published? Then cached answers may not show
   * it, and reads go the whole way. Read again (in the background) at most every RECHECK_MS,
   * so that an instance that does not publish follows the one that does.
   */
  hasDue(): boolean {
    if (this.nextUtc === null || this.nextUtc > nowUtcSql()) return false;
    if (Date.now() - this.checkedAt >= RECHECK_MS && this.rechecking === null) {
      this.rechecking = this.refresh()
        .catch((err: Error) => this.logger.warn(`reading the schedule failed: ${err.message}`))
        .finally(() => (this.rechecking = null));
    }
    return true;
  }

  /** Now (UTC) while an event is due: lists then count `future` events up to it as published. */
  dueCutoff(): string | undefined {
    return this.hasDue() ? nowUtcSql() : undefined;
  }

  /** Publishes the due events now (the timer's work; tests call it); answers how many this instance published. */
  async tick(): Promise<number> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.publishDue();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async publishDue(): Promise<number> {
    await this.refresh();
    const now = nowUtcSql();
    if (this.nextUtc === null || this.nextUtc > now) return 0;
    const published = await this.unitOfWork.run(async (tx, changes) => {
      const ids: number[] = [];
      for (const id of await this.events.dueScheduledIds(now, tx)) {
        if (!(await this.events.publishIfScheduled(id, tx))) continue; // another instance came first
        changes.record('event', id);
        await this.terms.eventPublicationChanged(tx, id, true);
        ids.push(id);
      }
      return ids;
    });
    await this.refresh();
    return published.length;
  }

  private async refresh(): Promise<void> {
    this.checkedAt = Date.now();
    this.nextUtc = await this.events.nextScheduledUtc();
  }

  /**
   * The next run: after the poll interval, or just after the next known date if that comes
   * sooner. None when polling is off. After a failed run, a whole interval (no busy retry while
   * the database is away).
   */
  private arm(failed = false): void {
    const pollMs = this.config.schedulePollSeconds * 1000;
    if (this.stopped || pollMs === 0) return;
    if (this.timer) clearTimeout(this.timer);
    const untilNext = this.nextUtc === null || failed ? pollMs : Date.parse(`${this.nextUtc.replace(' ', 'T')}Z`) + DATE_SLACK_MS - Date.now();
    this.timer = setTimeout(() => void this.run(), Math.max(0, Math.min(pollMs, untilNext)));
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.timer = null;
    let failed = false;
    try {
      await this.tick();
    } catch (err) {
      failed = true;
      if (!this.stopped) this.logger.error(`publishing scheduled events failed: ${(err as Error).message}`);
    }
    this.arm(failed);
  }
}
