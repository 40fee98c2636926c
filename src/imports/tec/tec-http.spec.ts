import { OutboundNotPublic, OutboundUnresolved } from '../../common/net/outbound';
import { backoffMs, delayBeforeRetry, isRetryableStatus, retryAfterMs, SiteError, TecHttp } from './tec-http';

describe('retryAfterMs (RFC 9110 Retry-After)', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it.each([
    ['absent', null, undefined],
    ['seconds', '3', 3000],
    ['zero seconds', '0', 0],
    ['seconds with spaces', ' 2 ', 2000],
    ['an HTTP date ahead', 'Tue, 01 Jan 2030 00:00:05 GMT', 5000],
    ['an HTTP date past', 'Mon, 31 Dec 2029 23:59:00 GMT', 0],
    ['garbage', 'soon', undefined],
    ['a negative number', '-5', undefined],
  ])('%s', (_name, header, expected) => {
    expect(retryAfterMs(header, now)).toBe(expected);
  });
});

describe('backoff', () => {
  const policy = { attempts: 5, timeoutMs: 1000, baseDelayMs: 500, maxDelayMs: 4000 };
  it('doubles its ceiling per attempt up to the cap (full jitter)', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, policy, () => 1))).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(backoffMs(3, policy, () => 0)).toBe(0);
    expect(backoffMs(3, policy, () => 0.5)).toBe(1000);
  });
  it('a Retry-After wins over the backoff, capped at the longest backoff', () => {
    expect(delayBeforeRetry(1, 2000, policy, () => 1)).toBe(2000);
    expect(delayBeforeRetry(1, 60_000, policy, () => 1)).toBe(4000);
    expect(delayBeforeRetry(2, undefined, policy, () => 1)).toBe(1000);
  });
});

describe('isRetryableStatus', () => {
  it.each([
    [429, true],
    [500, true],
    [503, true],
    [599, true],
    [200, false],
    [400, false],
    [401, false],
    [404, false],
  ])('%i → %s', (status, expected) => expect(isRetryableStatus(status)).toBe(expected));
});

describe('TecHttp and the address rule', () => {
  const policy = { attempts: 3, timeoutMs: 1000, baseDelayMs: 1, maxDelayMs: 1 };
  it('a refused address is not tried again: one request, a SiteError with the reason', async () => {
    let calls = 0;
    const http = new TecHttp(undefined, policy, undefined, () => {
      calls++;
      return Promise.reject(new TypeError('fetch failed', { cause: new OutboundNotPublic('intranet.example resolves to an address that is not public') }));
    });
    const err: unknown = await http.getJson('http://intranet.example/wp-json').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SiteError);
    expect((err as Error).message).toBe('http://intranet.example/wp-json: intranet.example resolves to an address that is not public');
    expect([calls, http.requests]).toEqual([1, 1]);
  });
  it('a name that does not resolve is tried again (DNS may answer later)', async () => {
    let calls = 0;
    const http = new TecHttp(undefined, policy, undefined, () => {
      calls++;
      return Promise.reject(new OutboundUnresolved('slow-dns.example', 'EAI_AGAIN'));
    });
    await expect(http.getJson('http://slow-dns.example/')).rejects.toThrow('slow-dns.example does not resolve (EAI_AGAIN) (gave up after 3 attempts)');
    expect(calls).toBe(3);
  });
});
