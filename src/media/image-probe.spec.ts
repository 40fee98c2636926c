import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeImage } from './image-probe';

/**
 * The outbound rules against a local server (traffic stays on loopback): 127.0.0.1 plays a
 * public host where a test says so, 127.0.0.2 stays private.
 */
describe('probeImage: outbound requests that cannot be turned against the service', () => {
  let server: Server;
  let base: string;
  let port: number;
  const hits: string[] = [];
  const onlyFirstLoopback = (address: string) => address === '127.0.0.1';

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      hits.push(`${req.method} ${req.url}`);
      const url = req.url ?? '';
      const hop = /^\/r(\d+)$/.exec(url);
      if (hop) {
        const left = Number(hop[1]);
        res.writeHead(302, { location: left > 1 ? `/r${left - 1}` : '/img.png' }).end();
      } else if (url === '/to-private') res.writeHead(302, { location: `http://127.0.0.2:${port}/img.png` }).end();
      else if (url === '/img.png') res.writeHead(200, { 'content-type': 'image/png' }).end();
      else if (url === '/silent')
        return; // never answers
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => (hits.length = 0));

  it.each([
    'http://127.0.0.1:PORT/img.png',
    'http://localhost:PORT/img.png',
    'http://[::1]:PORT/img.png',
    'http://0x7f000001:PORT/img.png',
    'http://127.1:PORT/img.png',
  ])('refuses %s by default, without sending anything', async (url) => {
    expect(await probeImage(url.replace('PORT', String(port)), { allowPrivate: false })).toBeNull();
    expect(hits).toEqual([]);
  });

  it('refuses the metadata address', async () => {
    expect(await probeImage('http://169.254.169.254/latest/meta-data/', { allowPrivate: false })).toBeNull();
  });

  it('reaches a private address when allowed', async () => {
    expect(await probeImage(`${base}/img.png`, { allowPrivate: true })).toBe('image/png');
    expect(hits).toEqual(['HEAD /img.png']);
  });

  it('follows 3 redirects, not 4', async () => {
    expect(await probeImage(`${base}/r3`, { allowPrivate: true })).toBe('image/png');
    hits.length = 0;
    expect(await probeImage(`${base}/r4`, { allowPrivate: true })).toBeNull();
    expect(hits).not.toContain('HEAD /img.png');
  });

  it('checks every redirect hop: a public host may not send the probe to a private one', async () => {
    expect(await probeImage(`${base}/img.png`, { allowPrivate: false, isAllowedAddress: onlyFirstLoopback })).toBe('image/png');
    hits.length = 0;
    expect(await probeImage(`${base}/to-private`, { allowPrivate: false, isAllowedAddress: onlyFirstLoopback })).toBeNull();
    expect(hits).toEqual(['HEAD /to-private']); // refused before connecting to 127.0.0.2, and no GET retry
  });

  it('checks the address a name resolves to, at connect time', async () => {
    const resolve = ((_name: string, _opts: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: '127.0.0.2', family: 4 }])) as never;
    expect(await probeImage(`http://images.example:${port}/img.png`, { allowPrivate: false, isAllowedAddress: onlyFirstLoopback, resolve })).toBeNull();
    expect(hits).toEqual([]);
  });

  it('abandons a server that never answers when the one budget is spent', async () => {
    expect(await probeImage(`${base}/silent`, { allowPrivate: true, budgetMs: 300 })).toBeNull();
    expect(hits).toEqual(['HEAD /silent']); // the budget covers both methods: no GET after it ran out
  });
});
