// The webhook worker's post thread (src/sync/webhooks/post-thread.ts), as the built service runs
// it: a worker thread of the compiled entry signs and POSTs the chains of deliveries it is
// handed, to a receiver started here, and answers with the attempts made (sync.md "Webhooks").
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Logger } from '@nestjs/common';
import { version } from '../../../package.json';
import type { PostChain, PostItem, PostTarget } from '../../../src/sync/webhooks/delivery-post';
import { deliveryBody } from '../../../src/sync/webhooks/post-messages';
import { PostThread } from '../../../src/sync/webhooks/post-thread';
import { signatureValid, WebhookReceiver } from '../../support/webhook-receiver';

const ROOT = join(__dirname, '..', '..', '..');
const ENTRY = join(ROOT, 'dist', 'src', 'sync', 'webhooks', 'post-thread-main.js');

describe('the webhook post thread (built service)', () => {
  let receiver: WebhookReceiver;
  let thread: PostThread;
  const BODY = JSON.stringify({ id: 'd-1', event: 'event.updated', data: { type: 'event', id: 7 } });
  const item = (fields: Partial<PostItem> = {}): PostItem => ({ body: BODY, event: 'event.updated', deliveryId: 'd-1', ...fields });
  /** A chain of the given deliveries (one by default) to the receiver. */
  const chain = (items: PostItem[] = [item()], target: Partial<PostTarget> = {}): PostChain => ({
    target: { url, secret: 'the-secret', allowPrivate: true, timeoutMs: 10_000, ...target },
    items,
  });
  let url: string;

  beforeAll(async () => {
    // Builds dist when the sources changed (what `npm start` does), without starting anything.
    await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'start.js'), '--cli', 'migration:show'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'post-thread-')), 'x.sqlite')}` },
    }).catch(() => null);
    expect(PostThread.available(ENTRY)).toBe(true);
    receiver = new WebhookReceiver();
    url = await receiver.start();
  }, 300_000);
  beforeEach(() => {
    thread = new PostThread(new Logger('test'), ENTRY);
    receiver.received.length = 0;
    receiver.answer = () => 200;
  });
  afterEach(async () => thread.close());
  afterAll(async () => receiver.stop());

  it('POSTs the delivery signed, with the headers of sync.md, and reports the 2xx', async () => {
    expect(await thread.post(chain())).toEqual([{ status: 200, error: null }]);
    const [got] = receiver.received;
    expect(got.raw).toBe(BODY);
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
    expect(await thread.post(chain())).toEqual([{ status: 500, error: 'HTTP 500' }]);
    expect(await thread.post(chain([item()], { allowPrivate: false }))).toEqual([{ status: null, error: '127.0.0.1 is not a public address' }]);
    expect(receiver.received).toHaveLength(1);
  });

  it("sends a chain's deliveries one after another, each after its predecessor's answer, and stops at the first that fails", async () => {
    let inFlight = 0;
    let most = 0;
    receiver.answer = async (r) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return r.headers['x-calendar-delivery'] === 'd-3' ? 503 : 204;
    };
    const items = [1, 2, 3, 4, 5].map((n) => item({ deliveryId: `d-${n}`, body: JSON.stringify({ n }) }));
    expect(await thread.post(chain(items))).toEqual([
      { status: 204, error: null },
      { status: 204, error: null },
      { status: 503, error: 'HTTP 503' },
    ]);
    expect(receiver.received.map((r) => r.headers['x-calendar-delivery'])).toEqual(['d-1', 'd-2', 'd-3']);
    expect(most).toBe(1);
  });

  it('sends many chains at once, each answered for itself', async () => {
    receiver.answer = (r) => ((JSON.parse(r.raw) as { n: number }).n % 3 === 0 ? 503 : 204);
    const results = await Promise.all(Array.from({ length: 30 }, (_, n) => thread.post(chain([item({ body: JSON.stringify({ n }), deliveryId: `d-${n}` })]))));
    expect(results.map((r) => r.map((a) => a.status))).toEqual(Array.from({ length: 30 }, (_, n) => [n % 3 === 0 ? 503 : 204]));
    expect(new Set(receiver.received.map((r) => r.headers['x-calendar-delivery'])).size).toBe(30);
  });

  it("moves the worker's bodies to the thread instead of copying them, and they arrive whole and signed", async () => {
    const bodies = [1, 2, 3].map((n) => deliveryBody({ id: `d-${n}`, event: 'event.updated' }, { type: 'event', id: n }, Buffer.from(`{"title":"Fête ${n}"}`)));
    const texts = bodies.map((b) => Buffer.from(b).toString('utf8'));
    const sent = thread.post(chain(bodies.map((body, i) => item({ body, deliveryId: `d-${i + 1}` }))));
    // Moved with the message: nothing is left of them on this side once it went.
    await new Promise((resolve) => setImmediate(resolve));
    expect(bodies.map((b) => b.byteLength)).toEqual([0, 0, 0]);
    expect(await sent).toEqual([1, 2, 3].map(() => ({ status: 200, error: null })));
    expect(receiver.received.map((r) => r.raw)).toEqual(texts);
    expect(receiver.received.every((r) => signatureValid('the-secret', r))).toBe(true);
  });

  it('a chain in flight when the thread ends fails at its first delivery (to be retried), and is not left hanging', async () => {
    receiver.answer = () => 'hang';
    const inFlight = thread.post(chain([item(), item({ deliveryId: 'd-2' })]));
    await receiver.until((all) => all.length >= 1);
    await thread.close();
    expect(await inFlight).toEqual([{ status: null, error: 'the delivery thread exited before an answer' }]);
  });
});
