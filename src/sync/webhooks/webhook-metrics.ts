import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { Metrics } from '../../common/metrics';

/** How many webhook deliveries wait, asked at each scrape (sync or async). */
export type QueueDepthSource = () => number | Promise<number>;

/**
 * The webhooks' metrics in the app's registry: `deliveries.inc({ outcome })` after each
 * delivery attempt, and `countQueue(fn)` once, so the queue's depth is asked for at each scrape.
 */
@Injectable()
export class WebhookMetrics {
  readonly deliveries: Counter<'outcome'>;
  private readonly queueDepths: QueueDepthSource[] = [];

  constructor(metrics: Metrics) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
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
  }

  /** A source of the webhook queue's depth, asked at each scrape (the gauge is their sum). */
  countQueue(source: QueueDepthSource): void {
    this.queueDepths.push(source);
  }
}
