import { calendarUrls, fetchFailure } from './ics-source';

describe('calendarUrls', () => {
  it.each([
    ['webcal://example.org/cal.ics', ['https://example.org/cal.ics', 'http://example.org/cal.ics']],
    ['WEBCAL://example.org:8080/a?b=c', ['https://example.org:8080/a?b=c', 'http://example.org:8080/a?b=c']],
    ['webcals://example.org/cal.ics', ['https://example.org/cal.ics']],
    ['https://example.org/cal.ics', ['https://example.org/cal.ics']],
    ['http://example.org/cal.ics', ['http://example.org/cal.ics']],
    ['./team.ics', null],
  ])('%s → %j', (arg, urls) => expect(calendarUrls(arg)).toEqual(urls));
});

describe('fetchFailure', () => {
  /** A fetch rejection as undici makes it: `fetch failed`, the socket's error as its cause. */
  const failed = (code: string, message: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
  const openssl = '80BCC60AAD7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:';

  it.each([
    ['ECONNREFUSED', 'connection refused', 'connect ECONNREFUSED 127.0.0.1:9'],
    ['ENOTFOUND', 'the host name does not resolve', 'getaddrinfo ENOTFOUND nowhere.invalid'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'no TLS (https) on that port', openssl],
    ['ERR_SSL_SOMETHING_NEW', 'the TLS (https) handshake failed (ERR_SSL_SOMETHING_NEW)', openssl],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'its certificate is not trusted', 'self-signed certificate'],
    ['EWHATEVER', 'EWHATEVER', `${openssl}`],
    ['EOTHER', 'something odd happened', 'something odd happened'],
  ])('%s → %s', (code, expected, message) => {
    const why = fetchFailure(failed(code, message), 30_000);
    expect(why).toBe(expected);
    expect(why).not.toMatch(/SSL routines|ssl3_/);
  });

  it('says a timeout in seconds', () => {
    expect(fetchFailure(Object.assign(new Error('timed out'), { name: 'TimeoutError' }), 30_000)).toBe('no answer within 30 s');
  });
});
