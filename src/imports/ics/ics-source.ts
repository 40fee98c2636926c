import { readFile } from 'node:fs/promises';
import { IcsInputError } from './ics-calendar';

// Where a calendar comes from: a file, or an http(s) URL (`webcal://` is https). The URL is
// one the operator typed on the command line, so it is trusted like a file path: unlike the
// image probe (src/common/net), it may name a private address (an intranet calendar server).

/** How long a download may take. */
export const FETCH_TIMEOUT_MS = 30_000;
/** A calendar larger than this is refused (a year of a busy calendar is a few megabytes). */
export const MAX_BYTES = 50 * 1024 * 1024;

/** `webcal://host/x.ics` → `https://host/x.ics`; http(s) URLs as they are; anything else is a file path (null). */
export function calendarUrl(arg: string): string | null {
  const webcal = /^webcals?:\/\//i.exec(arg);
  if (webcal) return `https://${arg.slice(webcal[0].length)}`;
  return /^https?:\/\//i.test(arg) ? arg : null;
}

/** The calendar's text; unusable input throws IcsInputError with one clear line. */
export async function readCalendarSource(arg: string, timeoutMs = FETCH_TIMEOUT_MS): Promise<string> {
  const url = calendarUrl(arg);
  return url ? download(url, timeoutMs) : readLocal(arg);
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

async function download(url: string, timeoutMs: number): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'text/calendar, */*;q=0.5' }, redirect: 'follow' });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
    throw new IcsInputError(timedOut ? `${url}: no answer within ${timeoutMs / 1000} s` : `cannot fetch ${url}: ${cause}`);
  }
  if (!res.ok) throw new IcsInputError(`cannot fetch ${url}: HTTP ${res.status}`);
  const length = Number(res.headers.get('content-length') ?? 0);
  if (length > MAX_BYTES) throw new IcsInputError(`${url} is larger than ${MAX_BYTES / 1024 / 1024} MB`);
  const text = await res.text();
  if (Buffer.byteLength(text) > MAX_BYTES) throw new IcsInputError(`${url} is larger than ${MAX_BYTES / 1024 / 1024} MB`);
  return text;
}
