import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Counter, Gauge } from 'prom-client';
import { nowUtcSql } from '../common/datetime/clock';
import { outsideRequestLinks } from '../common/http/api-links';
import { Metrics } from '../common/metrics';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import type { ReportStream } from '../imports';
import { RunOutcome, SourceRunner } from './source-runner';
import { addSeconds, waitSeconds } from './source-schedule';
import { SourceEntity, SourceRunEntity } from './source.entity';
import { leaseTime, SourceRunsRepository } from './source-runs.repository';
import { SourcesRepository } from './sources.repository';
import { SourcesService } from './sources.service';

/** How many times per lease a running run has it renewed: a lease outlives two missed renewals. */
const RENEWALS_PER_LEASE = 3;
/** The run's counts are written to its row at most this often while it goes. */
const PROGRESS_EVERY_MS = 1000;

/**
 * The sources' worker (sources.md §3), in every instance unless CALENDAR_SOURCES_WORKER=off.
 * Every CALENDAR_SOURCES_POLL_SECONDS (and at once when a run is queued here) it queues a run of
 * each due source (SourcesService.start: one active run per source, whoever starts it), then
 * takes queued runs — and runs whose lease ran out, left by an instance that died — one at a
 * time, each with a lease that only one instance can hold (an UPDATE that succeeds only on a
 * run nobody holds), renewed while it runs. A run taken over starts again from the beginning:
 * the importers skip what is unchanged, so it continues where the other stopped.
 */
@Injectable()
export class SourceWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly instance = randomUUID();
  private readonly logger = new Logger('Sources');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly runsTotal: Counter<'kind' | 'status'>;

  constructor(
    private readonly sources: SourcesRepository,
    private readonly runs: SourceRunsRepository,
    private readonly config: AppConfig,
    private readonly service: SourcesService,
    private readonly runner: SourceRunner,
    metrics: Metrics,
    private readonly adapterHost: HttpAdapterHost,
    private readonly unitOfWork: UnitOfWork,
  ) {
    const registers = [metrics.registry];
    this.runsTotal = new Counter({
      name: 'calendar_source_runs_total',
      help: 'Source runs this instance finished, by source kind and status.',
      labelNames: ['kind', 'status'],
      registers,
    });
    const sourcesOf = () => this.sources.lastSuccesses();
    new Gauge({
      name: 'calendar_source_last_success_age_seconds',
      help: "Seconds since each source's last succeeded or partial run ended (+Inf: never).",
      labelNames: ['source', 'kind'],
      registers,
      async collect() {
        this.reset();
        const now = Date.now();
        for (const s of await sourcesOf()) {
          const at = s.lastSuccessUtc === null ? NaN : Date.parse(`${s.lastSuccessUtc.replace(' ', 'T')}Z`);
          this.set({ source: String(s.id), kind: s.kind }, Number.isNaN(at) ? Infinity : Math.max(0, (now - at) / 1000));
        }
      },
    });
  }

  onApplicationBootstrap(): void {
    // Only in a server: a command's context (sources:run) runs what it is told, nothing else.
    if (!this.config.sourcesWorker || !this.adapterHost.httpAdapter) return;
    this.service.onQueued(() => this.wake());
    this.schedule();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** A round now, or right after the current one. */
  wake(): void {
    if (this.stopped || !this.config.sourcesWorker) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = outsideRequestLinks(() => this.round())
      .catch((err: unknown) => this.logger.error(`sources round failed: ${(err as Error).message}`))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.wake();
      this.schedule();
    }, this.config.sourcesPollSeconds * 1000);
    this.timer.unref();
  }

  /** Queues the due sources' runs, then runs what it can lease until nothing is left. */
  private async round(): Promise<void> {
    const now = nowUtcSql();
    for (const id of await this.sources.dueIds(now)) await this.service.start(id, 'schedule');
    for (let run = await this.lease(); run !== null && !this.stopped; run = await this.lease()) await this.execute(run);
  }

  /**
   * Runs the run `runId` here, now (`sources:run`), its progress on `out`; null when another
   * instance holds it.
   */
  async runHere(runId: number, out: ReportStream): Promise<RunOutcome | null> {
    const run = await this.lease(runId);
    return run && this.execute(run, out);
  }

  /** Takes the oldest run (or run `only`) that is queued, or whose lease ran out; null when there is none to take. */
  private async lease(only?: number): Promise<SourceRunEntity | null> {
    const now = Date.now();
    for (const candidate of await this.runs.takeable(now, only)) {
      const token = `${this.instance}:${candidate.id}:${now}`;
      const startedUtc = candidate.startedUtc ?? nowUtcSql();
      try {
        if (await this.runs.lease(candidate, token, now, now + this.config.sourcesLeaseSeconds * 1000, startedUtc)) {
          if (candidate.status === 'running') this.logger.warn(`run ${candidate.id} of source ${candidate.sourceId}: its lease ran out; taken over`);
          return { ...candidate, leasedBy: token, status: 'running', startedUtc };
        }
      } catch (err) {
        // A conflict on the cluster (another node took it first): the next candidate.
        this.logger.debug(`leasing run ${candidate.id}: ${(err as Error).message}`);
      }
    }
    return null;
  }

  private async execute(run: SourceRunEntity, out?: ReportStream): Promise<RunOutcome | null> {
    const source = await this.sources.find(run.sourceId);
    if (!source) {
      await this.runs.remove(run.id);
      return null;
    }
    const held = this.keepLeased(run);
    // The counts of the attempts before this one (a run taken over) are kept and added to.
    const before = {
      created: run.created,
      updated: run.updated,
      unchanged: run.unchanged,
      kept_local: run.keptLocal,
      trashed: run.trashed,
      failed: run.failed,
    };
    let savedAt = 0;
    let outcome: RunOutcome;
    try {
      outcome = await this.runner.run(
        source,
        (o) => {
          if (Date.now() - savedAt < PROGRESS_EVERY_MS) return;
          savedAt = Date.now();
          void this.saveProgress(run, before, o).catch(() => undefined);
        },
        out,
      );
    } catch (err) {
      // A fault of the service (not of the source): the run is failed and said, the schedule goes on.
      this.logger.error(`run ${run.id} of source ${source.id} failed: ${(err as Error).stack ?? String(err)}`);
      outcome = {
        status: 'failed',
        counts: { created: 0, updated: 0, unchanged: 0, kept_local: 0, failed: 0, trashed: 0 },
        errors: [{ record: `source ${source.id}`, message: `internal error: ${(err as Error).message}` }],
      };
    } finally {
      await held.stop();
    }
    await this.finish(run, source, before, outcome);
    return outcome;
  }

  private counts(before: Record<string, number>, o: RunOutcome): Partial<SourceRunEntity> {
    return {
      created: before.created + o.counts.created,
      updated: before.updated + o.counts.updated,
      // What the attempts before wrote, this one finds unchanged: counted once, as written.
      unchanged: Math.max(0, o.counts.unchanged - before.created - before.updated),
      keptLocal: o.counts.kept_local,
      trashed: before.trashed + o.counts.trashed,
      failed: o.counts.failed,
      errors: JSON.stringify(o.errors),
    };
  }

  private async saveProgress(run: SourceRunEntity, before: Record<string, number>, o: RunOutcome): Promise<void> {
    await this.runs.updateLeased(run.id, run.leasedBy!, this.counts(before, o));
  }

  /** The run's record and the source's schedule, together; nothing when the lease was lost to another instance. */
  private async finish(run: SourceRunEntity, source: SourceEntity, before: Record<string, number>, o: RunOutcome): Promise<void> {
    const finished = nowUtcSql();
    const failures = o.status === 'failed' ? source.failures + 1 : 0;
    await this.unitOfWork.runUnlogged(async (tx) => {
      const ended = await this.runs.updateLeased(
        run.id,
        run.leasedBy!,
        { ...this.counts(before, o), status: o.status, finishedUtc: finished, leasedBy: null, leaseUntil: null },
        tx,
      );
      if (!ended) {
        this.logger.warn(`run ${run.id} of source ${source.id}: its lease was taken over before it ended; the other instance records it`);
        return;
      }
      const current = (await this.sources.find(source.id, tx)) ?? source;
      await this.sources.release(tx, source.id, run.id, {
        lastRunId: run.id,
        failures,
        nextRunUtc:
          current.enabled && current.intervalMinutes > 0
            ? addSeconds(finished, waitSeconds(current.intervalMinutes, failures, this.config.sourcesMinuteSeconds))
            : null,
        ...(o.status === 'failed' ? {} : { lastSuccessUtc: finished }),
        ...(o.validators && o.status === 'succeeded' ? { etag: o.validators.etag, lastModified: o.validators.lastModified } : {}),
      });
    });
    this.runsTotal.inc({ kind: source.kind, status: o.status });
    this.logger.log(
      `source ${source.id} (${source.kind}) run ${run.id} ${o.status}: created ${o.counts.created}, updated ${o.counts.updated}, unchanged ${o.counts.unchanged}, ` +
        `kept ${o.counts.kept_local}, trashed ${o.counts.trashed}, failed ${o.counts.failed}`,
    );
  }

  /** Renews the run's lease every 1/RENEWALS_PER_LEASE of a lease until stopped. */
  private keepLeased(run: SourceRunEntity): { stop: () => Promise<void> } {
    const leaseMs = this.config.sourcesLeaseSeconds * 1000;
    let pending: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      pending = this.runs
        .updateLeased(run.id, run.leasedBy!, { leaseUntil: leaseTime(Date.now() + leaseMs) })
        .catch((err: unknown) => this.logger.error(`renewing the lease of run ${run.id} failed: ${(err as Error).message}`));
    }, leaseMs / RENEWALS_PER_LEASE);
    return {
      stop: async () => {
        clearInterval(timer);
        await pending;
      },
    };
  }
}
