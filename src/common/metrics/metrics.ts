import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { Dialect } from '../../database/dialect';
import { ReadModel } from '../cache/read-model';

/** Seconds; finer than prom-client's default at the low end, where cached reads answer. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The label of a request no route matched (a raw path would make the label set unbounded). */
export const UNMATCHED_ROUTE = 'unmatched';

/** How many webhook deliveries wait, as a module that queues them counts them (sync or async). */
export type QueueDepthSource = () => number | Promise<number>;

/**
 * Every metric of `GET /metrics` (issue 16, item 4; names in the README), in a registry of this
 * app's own (not prom-client's global one, so that several apps in one process, as in the
 * tests, keep theirs apart). What already exists elsewhere (the read model's hit counts, the
 * pool's connections) is read when scraped, at no cost per request; the request counters are
 * fed by an onResponse hook only when CALENDAR_METRICS=on (request-metrics.ts).
 *
 * For the webhook module: `webhookDeliveries.inc({ outcome })` after each delivery attempt,
 * and `countWebhookQueue(fn)` once, so the queue's depth is asked for at each scrape.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly webhookDeliveries: Counter<'outcome'>;
  private readonly queueDepths: QueueDepthSource[] = [];

  constructor(config: AppConfig, readModel: ReadModel, dialect: Dialect, @InjectDataSource() db: DataSource) {
    const registers = [this.registry];
    const labelNames = ['method', 'route', 'status'] as const;
    this.httpRequests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames,
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'calendar_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome.',
      labelNames: ['outcome'],
      registers,
    });
    const depths = this.queueDepths;
    new Gauge({
      name: 'calendar_webhook_queue_depth',
      help: 'Webhook deliveries waiting to be sent.',
      registers,
      async collect() {
        const counts = await Promise.all(depths.map(async (source) => source()));
        this.set(counts.reduce((sum, n) => sum + n, 0));
      },
    });
    registerCacheMetrics(registers, readModel);
    registerPoolMetrics(registers, () => dialect.poolUse(db));
    // The process's own (memory, CPU, event loop lag, handles), only when someone scrapes them.
    if (config.metrics) collectDefaultMetrics({ register: this.registry });
  }

  /** A source of the webhook queue's depth, asked at each scrape (the gauge is their sum). */
  countWebhookQueue(source: QueueDepthSource): void {
    this.queueDepths.push(source);
  }

  /** Every metric in Prometheus' text format, and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** The read model's counters, read at scrape time (NamedCache counts them anyway). */
function registerCacheMetrics(registers: Registry[], readModel: ReadModel): void {
  const labelNames = ['cache'] as const;
  const counter = (name: string, help: string, pick: (s: ReturnType<ReadModel['stats']>[number]) => number) =>
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        // The totals live in the caches: the counter is set to them (a counter cannot be set, so reset and add).
        this.reset();
        for (const stats of readModel.stats()) this.inc({ cache: stats.name }, pick(stats));
      },
    });
  const gauge = (name: string, help: string, pick: (s: ReturnType<ReadModel['stats']>[number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      collect() {
        for (const stats of readModel.stats()) this.set({ cache: stats.name }, pick(stats));
      },
    });
  counter('calendar_cache_hits_total', 'Reads answered from a read-model cache, by cache.', (s) => s.hits);
  counter('calendar_cache_misses_total', 'Reads a read-model cache could not answer, by cache.', (s) => s.misses);
  gauge('calendar_cache_entries', 'Entries held, by cache.', (s) => s.entries);
  gauge('calendar_cache_bytes', 'Approximate bytes held, by cache (bounded by its share of CALENDAR_CACHE_MB).', (s) => s.bytes);
}

function registerPoolMetrics(registers: Registry[], use: () => ReturnType<Dialect['poolUse']>): void {
  new Gauge({
    name: 'calendar_db_pool_connections',
    help: 'Database connections by state: used (lent out) or free (open, idle). SQLite: its one connection, used while a transaction holds it.',
    labelNames: ['state'],
    registers,
    collect() {
      const now = use();
      this.set({ state: 'used' }, now.used);
      this.set({ state: 'free' }, now.free);
    },
  });
  new Gauge({
    name: 'calendar_db_pool_max',
    help: 'Connections the pool may open (SQLite: 1).',
    registers,
    collect() {
      this.set(use().max);
    },
  });
  new Gauge({
    name: 'calendar_db_pool_waiting',
    help: 'Callers waiting for a database connection (SQLite: transactions queued behind the open one).',
    registers,
    collect() {
      this.set(use().waiting);
    },
  });
}
