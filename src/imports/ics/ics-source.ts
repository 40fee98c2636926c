import { readFile } from 'node:fs/promises';
import { OutboundTooLarge, readBodyText } from '../../common/net/outbound';
import { IcsInputError } from './ics-calendar';

// Where a calendar comes from: a file, or an http(s) URL. `webcal://` names no scheme of its own
// (calendar apps try https, then http): the https URL is tried first and the http one when https
// gets no answer at all. The URL is one the operator typed on the command
// line, so it is trusted like a file path: unlike the image probe (src/common/net), it may name a
// private address (an intranet calendar server).

/** How long a download may take. */
export const FETCH_TIMEOUT_MS = 30_000;
/** A calendar larger than this is refused (a year of a busy calendar is a few megabytes). */
export const MAX_BYTES = 50 * 1024 * 1024;

/**
 * The URLs to try, in order: `webcal://host/x.ics` → https then http; `webcals://` (secure by its
 * name) → https only; http(s) URLs as they are; a file path → null.
 */
export function calendarUrls(arg: string): string[] | null {
  const webcal = /^webcal(s?):\/\//i.exec(arg);
  if (webcal) {
    const rest = arg.slice(webcal[0].length);
    return webcal[1] === '' ? [`https://${rest}`, `http://${rest}`] : [`https://${rest}`];
  }
  return /^https?:\/\//i.test(arg) ? [arg] : null;
}

/**
 * The calendar's text; unusable input throws IcsInputError with one clear line. `note` hears
 * what the operator should know of a read that worked (an https attempt that failed first).
 */
export async function readCalendarSource(arg: string, note: (line: string) => void = () => undefined, timeoutMs = FETCH_TIMEOUT_MS): Promise<string> {
  const urls = calendarUrls(arg);
  if (!urls) return readLocal(arg);
  const failed: string[] = [];
  for (const url of urls) {
    const answer = await download(url, timeoutMs);
    if (typeof answer === 'string') {
      if (failed.length > 0) note(`${failed.join('; ')}; read ${url} instead`);
      return answer;
    }
    failed.push(urls.length === 1 ? answer.why : `${url} failed (${answer.why})`);
  }
  throw new IcsInputError(`cannot fetch ${arg}: ${failed.join('; ')}`);
}

async function readLocal(path: string): Promise<string> {
  try {
    const data = await readFile(path);
    if (data.length > MAX_BYTES) throw new IcsInputError(`${path} is larger than ${MAX_BYTES / 1024 / 1024} MB`);
    return data.toString('utf8');
  } catch (err) {
    if (err instanceof IcsInputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(err);
    throw new IcsInputError(`cannot read ${path}: ${why}`);
  }
}

/** The text, or why no server answered (then the next URL may be tried); an answer that is not a calendar throws. */
async function download(url: string, timeoutMs: number): Promise<string | { why: string }> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'text/calendar, */*;q=0.5' }, redirect: 'follow' });
  } catch (err) {
    return { why: fetchFailure(err, timeoutMs) };
  }
  if (!res.ok) throw new IcsInputError(`cannot fetch ${url}: HTTP ${res.status}`);
  // Counted while it is read (inflated, when compressed): a server cannot make the import hold
  // more than the limit, whatever it declares or its compression inflates to.
  try {
    return await readBodyText(res, MAX_BYTES);
  } catch (err) {
    if (err instanceof OutboundTooLarge) throw new IcsInputError(`${url} is larger than ${MAX_BYTES / 1024 / 1024} MB`);
    throw err;
  }
}

/** Plain words for the usual ways a connection fails (Node's codes); never OpenSSL's own text. */
const FAILURES: [RegExp, string][] = [
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/, 'the host name does not resolve'],
  [/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN)$/, 'the host cannot be reached'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/, 'the server closed the connection'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)$/, 'no answer in time'],
  [/^(ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG|ERR_SSL_HTTP_REQUEST|EPROTO)$/, 'no TLS (https) on that port'],
  [/^(ERR_TLS_CERT_ALTNAME_INVALID)$/, 'its certificate is for another host name'],
  [/^(CERT_HAS_EXPIRED)$/, 'its certificate has expired'],
  [
    /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)$/,
    'its certificate is not trusted',
  ],
];

export function fetchFailure(err: unknown, timeoutMs: number): string {
  const name = (err as { name?: unknown } | null)?.name; // by name: undici's DOMException may not be an Error here
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = err instanceof Error && err.cause instanceof Error ? (err.cause as NodeJS.ErrnoException) : null;
  const code = cause?.code ?? '';
  const known = FAILURES.find(([pattern]) => pattern.test(code));
  if (known) return known[1];
  if (/^ERR_SSL_|^ERR_TLS_/.test(code)) return `the TLS (https) handshake failed (${code})`;
  // Anything else: the cause's first line, without an OpenSSL error string (`…:error:0A00…:SSL routines:…`).
  const message = (cause?.message ?? (err instanceof Error ? err.message : String(err)))
    .split('\n')[0]
    .replace(/[0-9A-F]{8,}:error:.*$/, '')
    .trim();
  return message !== '' ? message : code || 'the connection failed';
}
