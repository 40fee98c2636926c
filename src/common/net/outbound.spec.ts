import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkOutboundUrl,
  guardedFetch,
  OutboundNotPublic,
  OutboundRefused,
  OutboundTooLarge,
  OutboundUnresolved,
  outboundPost,
  readBodyText,
  redirectHeaders,
  refusalOf,
} from './outbound';

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

  it('sends the body and headers, and answers the status, when private addresses are allowed', async () => {
    const res = await outboundPost(
      `http://hook.test:${port}/in`,
      '{"a":1}',
      { 'content-type': 'application/json', 'x-test': 'yes' },
      {
        allowPrivate: true,
        resolve: toLoopback,
        timeoutMs: 5000,
      },
    );
    expect(res.status).toBe(204);
    expect(got).toEqual([expect.objectContaining({ url: '/in', body: '{"a":1}' })]);
    expect(got[0].headers['x-test']).toBe('yes');
  });

  it('refuses a name that resolves to a private address, before connecting', async () => {
    await expect(outboundPost(`http://hook.test:${port}/in`, '{}', {}, { allowPrivate: false, resolve: toLoopback, timeoutMs: 5000 })).rejects.toThrow(
      /not public/,
    );
    expect(got).toHaveLength(0);
  });

  it('refuses a private address written in the URL', async () => {
    await expect(outboundPost(`http://127.0.0.1:${port}/in`, '{}', {}, { allowPrivate: false, timeoutMs: 5000 })).rejects.toThrow(/not a public address/);
    expect(got).toHaveLength(0);
  });

  it('sends once more on another connection when the receiver closes the connection under the request', async () => {
    let closed = 0;
    const closing = createServer((req, res) => {
      // The first request: the connection is torn down without an answer, as a receiver does when its idle timeout fires as we send.
      if (closed++ === 0) return req.socket.destroy();
      req.resume().on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const res = await outboundPost(`http://127.0.0.1:${(closing.address() as AddressInfo).port}/in`, '{}', {}, { allowPrivate: true, timeoutMs: 5000 });
      expect(res.status).toBe(200);
      expect(closed).toBe(2);
    } finally {
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    }
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    answer = 302;
    const res = await outboundPost(`http://127.0.0.1:${port}/in`, '{}', {}, { allowPrivate: true, timeoutMs: 5000 });
    expect(res.status).toBe(302);
    expect(got).toHaveLength(1);
  });
});

/** checkOutboundUrl with names resolved by the test: a name that does not resolve is said as such. */
describe('checkOutboundUrl', () => {
  /** A resolver that fails as getaddrinfo does, with `code`. */
  const failing = (code: string) =>
    ((host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException) => void) =>
      cb(Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code, syscall: 'getaddrinfo', hostname: host }))) as never;
  const resolvingTo = (address: string) =>
    ((_host: string, _opts: unknown, cb: (err: null, list: { address: string; family: number }[]) => void) => cb(null, [{ address, family: 4 }])) as never;

  it.each(['ENOTFOUND', 'EAI_AGAIN'])('names the host that does not resolve (%s), as an OutboundUnresolved', async (code) => {
    const checked = checkOutboundUrl('https://hooks.example.org/in', { allowPrivate: false, resolve: failing(code) });
    await expect(checked).rejects.toThrow(OutboundUnresolved);
    await expect(checked).rejects.toMatchObject({ host: 'hooks.example.org', code, message: `hooks.example.org does not resolve (${code})` });
  });

  it('keeps refusing a name that resolves to a private address, as not public', async () => {
    const checked = checkOutboundUrl('https://hooks.example.org/in', { allowPrivate: false, resolve: resolvingTo('10.0.0.7') });
    await expect(checked).rejects.toThrow(OutboundRefused);
    await expect(checked).rejects.not.toThrow(OutboundUnresolved);
  });

  it('accepts a name that resolves to a public address', async () => {
    await expect(checkOutboundUrl('https://hooks.example.org/in', { allowPrivate: false, resolve: resolvingTo('93.184.216.34') })).resolves.toBeUndefined();
  });
});

describe('refusalOf', () => {
  it("finds the address rule's refusal, thrown or as fetch's cause; a name that does not resolve is not one", () => {
    const refused = new OutboundNotPublic('10.0.0.1 is not a public address');
    expect(refusalOf(refused)).toBe(refused);
    expect(refusalOf(new TypeError('fetch failed', { cause: refused }))).toBe(refused);
    expect(refusalOf(new OutboundUnresolved('nowhere.invalid', 'ENOTFOUND'))).toBeUndefined();
    expect(refusalOf(new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') }))).toBeUndefined();
    expect(refusalOf(null)).toBeUndefined();
  });

  it('guardedFetch to a loopback address without allowPrivate: refused as not public, before any connection', async () => {
    const err: unknown = await guardedFetch('http://127.0.0.1:9/x', { headers: {}, signal: AbortSignal.timeout(5000) }, { allowPrivate: false }).catch(
      (e: unknown) => e,
    );
    expect(refusalOf(err)).toBeInstanceOf(OutboundNotPublic);
  });
});

describe('redirectHeaders', () => {
  const given = { authorization: 'Basic eDp5', Cookie: 'a=b', accept: 'application/json' };
  it('keeps the credentials on the same origin', () => {
    expect(redirectHeaders(given, new URL('https://site.test/a'), new URL('https://site.test/b?x=1'))).toEqual(given);
  });
  it.each([
    ['another host', 'https://other.test/a'],
    ['another port', 'https://site.test:8443/a'],
    ['https to http', 'http://site.test/a'],
  ])('drops Authorization and Cookie on a redirect to %s, keeps the rest', (_why, to) => {
    expect(redirectHeaders(given, new URL('https://site.test/a'), new URL(to))).toEqual({ accept: 'application/json' });
  });
});

describe('readBodyText', () => {
  it('reads a body within the limit, a BOM dropped', async () => {
    expect(await readBodyText(new Response('\ufeff{"a":1}'), 100)).toBe('{"a":1}');
  });
  it('stops at the limit while reading, whatever the length header says (none here)', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    await expect(readBodyText(new Response(endless), 10 * 1024)).rejects.toBeInstanceOf(OutboundTooLarge);
    expect(pulled).toBeLessThan(20);
  });
  it('refuses a declared Content-Length above the limit before reading', async () => {
    await expect(readBodyText(new Response('x'.repeat(50), { headers: { 'content-length': '50' } }), 10)).rejects.toThrow('larger than 10 bytes');
  });
});
