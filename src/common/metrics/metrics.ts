import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppConfig } from '../../config/app-config';
import { ReadModel } from '../cache/read-model';

/** Seconds; finer than prom-client's default at the low end, where cached reads answer. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The label of a request no route matched (a raw path would make the label set unbounded). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The registry of `GET /metrics` (names in the README), this app's own (not prom-client's
 * global one, so that several apps in one process, as in the tests, keep theirs apart), with
 * the requests' and the read model's metrics. What already exists elsewhere (the read model's
 * hit counts) is read when scraped, at no cost per request; the request counters are fed by an
 * onResponse hook only when CALENDAR_METRICS=on (request-metrics.ts). The layers and features
 * above add theirs to `registry` (the database pool: src/database/pool-metrics.ts; webhooks:
 * src/sync/webhooks/webhook-metrics.ts).
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  constructor(config: AppConfig, readModel: ReadModel) {
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
    registerCacheMetrics(registers, readModel);
    // The process's own (memory, CPU, event loop lag, handles), only when someone scrapes them.
    if (config.metrics) collectDefaultMetrics({ register: this.registry });
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
