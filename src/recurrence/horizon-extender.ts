import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { SeriesOccurrences } from './series-occurrences';
import { SeriesRepository } from './series.repository';

/** Series extended per batch read of the due ones. */
const BATCH = 100;

/**
 * Keeps every open series made up to now + CALENDAR_RECURRENCE_HORIZON_DAYS (recurrence.md §3):
 * at start, then every CALENDAR_RECURRENCE_POLL_SECONDS. One unit of work per series, so that a
 * failure costs one series and a long run holds no lock for long. Several instances may run at
 * once; SeriesOccurrences.extend makes each occurrence once whoever comes first.
 */
@Injectable()
export class HorizonExtender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('HorizonExtender');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly repository: SeriesRepository,
    private readonly occurrences: SeriesOccurrences,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Extends every due series now (the timer's work; tests call it); answers how many occurrences this instance made. */
  async tick(): Promise<number> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.extendDue();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async extendDue(): Promise<number> {
    let made = 0;
    const seen = new Set<number>();
    for (;;) {
      const horizon = this.occurrences.limits().horizon;
      const due = (await this.repository.dueSeriesIds(horizon, BATCH)).filter((id) => !seen.has(id));
      if (due.length === 0 || this.stopped) return made;
      for (const id of due) {
        const n = await this.unitOfWork.run((tx, changes) => this.occurrences.extend(tx, changes, id));
        made += n;
        // A series that made some may have more (a unit of work makes at most
        // CALENDAR_RECURRENCE_MAX): it is due again until it makes none.
        if (n === 0) seen.add(id);
      }
    }
  }

  private async run(): Promise<void> {
    try {
      await this.tick();
    } catch (err) {
      if (!this.stopped) this.logger.error(`extending series failed: ${(err as Error).message}`);
    }
    const pollMs = this.config.recurrencePollSeconds * 1000;
    if (this.stopped || pollMs === 0) return;
    this.timer = setTimeout(() => void this.run(), pollMs);
    this.timer.unref();
  }
}
