import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got: headers, the raw body and its JSON. */
export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: {
    id: string;
    event: string;
    created_utc: string;
    sync_token?: string;
    data: { type?: string; id?: number; rest_url?: string; item?: { id: number; title?: string }; deleted?: string; webhook_id?: number };
  };
}

/**
 * A webhook receiver on 127.0.0.1 for the tests: it records every POST, and `answer` decides
 * the status of each (200 by default); `'hang'` never answers (the kill -9 test), a promise
 * answers when it settles (a test holding a delivery while it looks at the outbox).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: (r: Received, nth: number) => number | 'hang' | Promise<number> = () => 200;
  private readonly server: Server;
  private readonly hanging: ServerResponse[] = [];
  private waiters: (() => void)[] = [];

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        const got: Received = { headers: req.headers, raw, body: JSON.parse(raw) as Received['body'] };
        this.received.push(got);
        const status = this.answer(got, this.received.length);
        for (const w of this.waiters) w();
        if (status === 'hang') {
          this.hanging.push(res);
          return;
        }
        if (typeof status === 'number') {
          res.writeHead(status).end('ok');
          return;
        }
        this.hanging.push(res);
        void status.then((later) => res.writeHead(later).end('ok'));
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Waits until `test` holds of what was received (checked after each POST); fails after `ms`. */
  async until(test: (all: Received[]) => boolean, ms = 20_000): Promise<Received[]> {
    const deadline = Date.now() + ms;
    while (!test(this.received)) {
      if (Date.now() > deadline) throw new Error(`receiver: condition not met; got ${JSON.stringify(this.received.map((r) => r.body.event))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.waiters = [];
    }
    return this.received;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** How a receiver checks a delivery: HMAC-SHA256 of "<timestamp>.<raw body>" (docs/webhooks.md). */
export function signatureValid(secret: string, r: Received): boolean {
  const timestamp = String(r.headers['x-calendar-timestamp']);
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${r.raw}`).digest('hex')}`);
  const given = Buffer.from(String(r.headers['x-calendar-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
