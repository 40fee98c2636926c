// GET /metrics with CALENDAR_METRICS=on (sync.md "Operations"): Prometheus'
// text format, request counts and latency histograms by method, route pattern and status, the
// read model's hits and misses, the webhook queue and deliveries, the database pool.
import { Metrics } from '../../../src/common/metrics';
import { MetricsController } from '../../../src/ops/metrics.controller';
import { WebhookMetrics } from '../../../src/sync/webhooks/webhook-metrics';
import { API, http } from '../../support/http';
import { createTestApp, TestApp } from '../../support/test-app';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (`name{a="x",b="y"} value` lines; comments skipped). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The samples named `name` whose labels include `labels`. */
const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) => find(samples, name, labels).reduce((sum, s) => sum + s.value, 0);

describe('GET /metrics with CALENDAR_METRICS=on', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ CALENDAR_METRICS: 'on' })));
  afterAll(async () => t?.close());

  const scrape = async () => {
    const res = await http(t).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: res.text, samples: parseExposition(res.text) };
  };

  it('counts a request under its route pattern, not its raw path, with its method and status', async () => {
    const before = (await scrape()).samples;
    const labels = { method: 'GET', route: '/calendar/events/v1/events/:id', status: '404' };
    expect((await http(t).get(`${API}/events/123`)).status).toBe(404);
    expect((await http(t).get(`${API}/events/124`)).status).toBe(404);
    const { text, samples } = await scrape();
    expect(total(samples, 'http_requests_total', labels) - total(before, 'http_requests_total', labels)).toBe(2);
    expect(text).not.toContain('events/123');
    expect(find(samples, 'http_requests_total').every((s) => s.labels.method && s.labels.route && s.labels.status)).toBe(true);
  });

  it('labels a request no route matches `unmatched`', async () => {
    expect((await http(t).get('/no/such/path/42')).status).toBe(404);
    const { text, samples } = await scrape();
    expect(total(samples, 'http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/no/such/path');
  });

  it('has the latency histogram: buckets, sum and count by method, route and status', async () => {
    expect((await http(t).get(`${API}/events`)).status).toBe(200);
    const { text, samples } = await scrape();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE http_requests_total counter');
    const labels = { method: 'GET', route: '/calendar/events/v1/events', status: '200' };
    const buckets = find(samples, 'http_request_duration_seconds_bucket', labels);
    expect(buckets.map((b) => b.labels.le)).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
    const count = total(samples, 'http_request_duration_seconds_count', labels);
    expect(count).toBeGreaterThanOrEqual(1);
    expect(buckets.find((b) => b.labels.le === '+Inf')!.value).toBe(count);
    expect(total(samples, 'http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
  });

  it('moves the cache hit and miss counters as the same list is read again', async () => {
    const path = `${API}/events?start_date=2031-01-01&end_date=2031-12-31&per_page=7`;
    const before = (await scrape()).samples;
    expect((await http(t).get(path)).status).toBe(200);
    const afterFirst = (await scrape()).samples;
    expect((await http(t).get(path)).status).toBe(200);
    expect((await http(t).get(path)).status).toBe(200);
    const afterRepeat = (await scrape()).samples;
    expect(total(afterFirst, 'calendar_cache_misses_total')).toBeGreaterThan(total(before, 'calendar_cache_misses_total'));
    // The repeats are answered from the caches (the whole answer, kept by the second; or, in the
    // next second, the list's total and ids): each is at least one hit.
    expect(total(afterRepeat, 'calendar_cache_hits_total')).toBeGreaterThanOrEqual(total(afterFirst, 'calendar_cache_hits_total') + 2);
    expect(find(afterRepeat, 'calendar_cache_entries', { cache: 'responses' })[0].value).toBeGreaterThanOrEqual(1);
  });

  it('reports the database pool', async () => {
    const { samples } = await scrape();
    const max = total(samples, 'calendar_db_pool_max');
    expect(max).toBe(process.env.TEST_DATABASE_URL ? 10 : 1);
    const used = total(samples, 'calendar_db_pool_connections', { state: 'used' });
    const free = total(samples, 'calendar_db_pool_connections', { state: 'free' });
    expect(used + free).toBeGreaterThanOrEqual(1);
    expect(used + free).toBeLessThanOrEqual(max);
    expect(find(samples, 'calendar_db_pool_waiting')).toHaveLength(1);
  });

  it('has the webhook queue depth (summed from the registered sources) and the delivery outcomes', async () => {
    expect(total((await scrape()).samples, 'calendar_webhook_queue_depth')).toBe(0);
    const metrics = t.app.get(WebhookMetrics);
    metrics.countQueue(() => 3);
    metrics.countQueue(async () => 2);
    metrics.deliveries.inc({ outcome: 'delivered' });
    metrics.deliveries.inc({ outcome: 'delivered' });
    metrics.deliveries.inc({ outcome: 'failed' });
    const { samples } = await scrape();
    expect(total(samples, 'calendar_webhook_queue_depth')).toBe(5);
    expect(total(samples, 'calendar_webhook_deliveries_total', { outcome: 'delivered' })).toBe(2);
    expect(total(samples, 'calendar_webhook_deliveries_total', { outcome: 'failed' })).toBe(1);
  });

  it('is one registry: the webhooks count into the one GET /metrics shows (MetricsModule is imported, not global)', () => {
    const shown = t.app.get(MetricsController)['metrics'];
    expect(shown).toBe(t.app.get(Metrics));
    expect(shown.registry.getSingleMetric('calendar_webhook_deliveries_total')).toBe(t.app.get(WebhookMetrics).deliveries);
  });

  it("includes the process's own metrics", async () => {
    const { samples } = await scrape();
    expect(find(samples, 'process_resident_memory_bytes').length + find(samples, 'nodejs_heap_size_used_bytes').length).toBeGreaterThan(0);
  });
});
