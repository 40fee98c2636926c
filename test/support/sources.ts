import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from './test-app';

/**
 * The sources' settings of the tests (sources.md): 127.0.0.1 allowed, a minute of
 * `interval_minutes` of 0.1 s (an interval of 15 lasts 1.5 s), quick polls and 2 s leases.
 */
export const FAST_SOURCES: Readonly<Record<string, string>> = {
  CALENDAR_SOURCES_ALLOW_PRIVATE: 'on',
  CALENDAR_SOURCES_MINUTE_SECONDS: '0.1',
  CALENDAR_SOURCES_POLL_SECONDS: '0.2',
  CALENDAR_SOURCES_LEASE_SECONDS: '2',
  CALENDAR_SOURCES_TIMEOUT_SECONDS: '10',
  CALENDAR_METRICS: 'on',
};

/** A partner TEC site: another instance of the service, listening, whose global ids name `host`. */
export async function partnerSite(host: string): Promise<{ t: TestApp; url: string; admin: string }> {
  const t = await createTestApp({ CALENDAR_BASE_URL: `http://${host}`, CALENDAR_SOURCES_WORKER: 'off' });
  await t.app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  return { t, url, admin: (await t.userHeader('partneradmin', 'administrator')).authorization };
}

/** A test HTTP server with a handler that can be swapped; it records the requests it saw. */
export class Site {
  server: Server;
  url = '';
  seen: IncomingMessage[] = [];
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  constructor() {
    this.server = createServer((req, res) => {
      this.seen.push(req);
      this.handler(req, res);
    });
  }
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
