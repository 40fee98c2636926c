import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { outboundPost } from './outbound';

/** outboundPost against a server on loopback, with names resolved by the test. */
describe('outboundPost', () => {
  let server: Server;
  let port: number;
  const got: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  let answer = 204;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        got.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(answer, answer === 302 ? { location: 'http://127.0.0.1:9/elsewhere' } : {}).end('ignored');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    got.length = 0;
    answer = 204;
  });

  /** A resolver that sends every name to loopback. */
  const toLoopback = ((_host: string, _opts: unknown, cb: (err: null, list: { address: string; family: number }[]) => void) =>
    cb(null, [{ address: '127.0.0.1', family: 4 }])) as never;
  const signal = () => AbortSignal.timeout(5000);

  it('sends the body and headers, and answers the status, when private addresses are allowed', async () => {
    const res = await outboundPost(
      `http://hook.test:${port}/in`,
      '{"a":1}',
      { 'content-type': 'application/json', 'x-test': 'yes' },
      {
        allowPrivate: true,
        resolve: toLoopback,
        signal: signal(),
      },
    );
    expect(res.status).toBe(204);
    expect(got).toEqual([expect.objectContaining({ url: '/in', body: '{"a":1}' })]);
    expect(got[0].headers['x-test']).toBe('yes');
  });

  it('refuses a name that resolves to a private address, before connecting', async () => {
    await expect(outboundPost(`http://hook.test:${port}/in`, '{}', {}, { allowPrivate: false, resolve: toLoopback, signal: signal() })).rejects.toThrow(
      /not public/,
    );
    expect(got).toHaveLength(0);
  });

  it('refuses a private address written in the URL', async () => {
    await expect(outboundPost(`http://127.0.0.1:${port}/in`, '{}', {}, { allowPrivate: false, signal: signal() })).rejects.toThrow(/not a public address/);
    expect(got).toHaveLength(0);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    answer = 302;
    const res = await outboundPost(`http://127.0.0.1:${port}/in`, '{}', {}, { allowPrivate: true, signal: signal() });
    expect(res.status).toBe(302);
    expect(got).toHaveLength(1);
  });
});
