// The webhook worker's post thread (src/sync/webhooks/post-thread.ts), as the built service runs
// it: a worker thread of the compiled entry signs and POSTs each delivery it is handed, to a
// receiver started here, and answers with what the attempt got (sync.md "Webhooks").
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Logger } from '@nestjs/common';
import { version } from '../../package.json';
import type { PostJob } from '../../src/sync/webhooks/delivery-post';
import { PostThread } from '../../src/sync/webhooks/post-thread';
import { signatureValid, WebhookReceiver } from '../support/webhook-receiver';

const ROOT = join(__dirname, '..', '..');
const ENTRY = join(ROOT, 'dist', 'src', 'sync', 'webhooks', 'post-thread-main.js');

describe('the webhook post thread (built service)', () => {
  let receiver: WebhookReceiver;
  let target: string;
  let thread: PostThread;
  const job = (fields: Partial<PostJob> = {}): PostJob => ({
    url: target,
    body: JSON.stringify({ id: 'd-1', event: 'event.updated', data: { type: 'event', id: 7 } }),
    event: 'event.updated',
    deliveryId: 'd-1',
    secret: 'the-secret',
    allowPrivate: true,
    timeoutMs: 10_000,
    ...fields,
  });

  beforeAll(async () => {
    // Builds dist when the sources changed (what `npm start` does), without starting anything.
    await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'start.js'), '--cli', 'migration:show'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'post-thread-')), 'x.sqlite')}` },
    }).catch(() => null);
    expect(PostThread.available(ENTRY)).toBe(true);
    receiver = new WebhookReceiver();
    target = await receiver.start();
  }, 300_000);
  beforeEach(() => {
    thread = new PostThread(new Logger('test'), ENTRY);
    receiver.received.length = 0;
    receiver.answer = () => 200;
  });
  afterEach(async () => thread.close());
  afterAll(async () => receiver.stop());

  it('POSTs the delivery signed, with the headers of sync.md, and reports the 2xx', async () => {
    expect(await thread.post(job())).toEqual({ status: 200, error: null });
    const [got] = receiver.received;
    expect(got.raw).toBe(job().body);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe(`calendar-events/${version}`);
    expect(got.headers['x-calendar-event']).toBe('event.updated');
    expect(got.headers['x-calendar-delivery']).toBe('d-1');
    expect(Math.abs(Number(got.headers['x-calendar-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(signatureValid('the-secret', got)).toBe(true);
    expect(signatureValid('another-secret', got)).toBe(false);
  });

  it('reports a receiver that failed, and an address the SSRF rule refuses, as failed attempts', async () => {
    receiver.answer = () => 500;
    expect(await thread.post(job())).toEqual({ status: 500, error: 'HTTP 500' });
    const refused = await thread.post(job({ allowPrivate: false }));
    expect(refused.status).toBeNull();
    expect(refused.error).toBe('127.0.0.1 is not a public address');
    expect(receiver.received).toHaveLength(1);
  });

  it('sends many at once, each answered for itself', async () => {
    receiver.answer = (r) => ((JSON.parse(r.raw) as { n: number }).n % 3 === 0 ? 503 : 204);
    const results = await Promise.all(Array.from({ length: 30 }, (_, n) => thread.post(job({ body: JSON.stringify({ n }), deliveryId: `d-${n}` }))));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 30 }, (_, n) => (n % 3 === 0 ? 503 : 204)));
    expect(new Set(receiver.received.map((r) => r.headers['x-calendar-delivery'])).size).toBe(30);
  });

  it('an attempt in flight when the thread ends fails (to be retried), and is not left hanging', async () => {
    receiver.answer = () => 'hang';
    const inFlight = thread.post(job());
    await receiver.until((all) => all.length >= 1);
    await thread.close();
    expect(await inFlight).toEqual({ status: null, error: 'the delivery thread exited before an answer' });
  });
});
