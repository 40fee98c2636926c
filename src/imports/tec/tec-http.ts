// Reading a TEC site over HTTP: time-outs, retries with backoff, Retry-After, Basic auth.
// The pure parts (retryAfterMs, backoffMs, isRetryableStatus) are unit-tested.

import { OutboundTooLarge, readBodyText, refusalOf } from '../../common/net/outbound';

/** How a source is read: attempts, time-out per request, backoff. */
export interface HttpPolicy {
  attempts: number;
  timeoutMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_POLICY: HttpPolicy = { attempts: 5, timeoutMs: 30_000, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * How a reader GETs a URL: Node's fetch (redirects followed) for the commands, whose URL the
 * operator typed; the address-checked guardedFetch for sources (sources.md §2).
 */
export type Fetcher = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<Response>;

export const plainFetch: Fetcher = (url, init) => fetch(url, { ...init, redirect: 'follow' });

/** The site cannot be used (unreachable after the retries, refused credentials, not TEC): exit 2. */
export class SiteError extends Error {}

export interface JsonReply {
  status: number;
  body: unknown;
  headers: Headers;
}

/** 429 and 5xx are worth another try; anything else is the answer. */
export const isRetryableStatus = (status: number): boolean => status === 429 || (status >= 500 && status <= 599);

/**
 * `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or unreadable. A date in the past is 0.
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^[-+]?[\d.]+$/.test(text)) return undefined; // not delta-seconds, and no date either
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff with full jitter before attempt `attempt + 1` (attempt ≥ 1): random in [0, min(max, base·2^(attempt−1))]. */
export function backoffMs(attempt: number, policy: Pick<HttpPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/** A `Retry-After` is honoured, within reason: never more than the longest backoff. */
export function delayBeforeRetry(attempt: number, retryAfter: number | undefined, policy: HttpPolicy, random: () => number = Math.random): number {
  return retryAfter !== undefined ? Math.min(retryAfter, policy.maxDelayMs) : backoffMs(attempt, policy, random);
}

/** An answer larger than this is refused, also by the commands (a page of 50 events is well under a megabyte). */
export const DEFAULT_MAX_ANSWER_BYTES = 50 * 1024 * 1024;

/** What reading may cost (a source's run: sources.md §4, docs/security.md). */
export interface ReadBounds {
  /** The most one answer may be, counted while read (inflated); default DEFAULT_MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
  /** The setting that sets maxAnswerBytes, named in the refusal. */
  answerSetting?: string;
  /** Hears each chunk read (a run's budget over all its answers); throws a SiteError to stop. */
  spend?: (bytes: number) => void;
  /** Ends every request and wait when the run's time is up; its reason's message is the refusal. */
  deadline?: AbortSignal;
}

/**
 * GETs JSON with Node's fetch. Retries network errors, time-outs, 429 and 5xx (Retry-After
 * honoured, else backoff) up to `policy.attempts`; then a SiteError. Other statuses are returned.
 */
export class TecHttp {
  /** Requests sent, retries included (the summary says it). */
  requests = 0;

  constructor(
    private readonly authorization: string | undefined,
    private readonly policy: HttpPolicy = DEFAULT_POLICY,
    private readonly onRetry: (url: string, why: string, delayMs: number) => void = () => undefined,
    private readonly get: Fetcher = plainFetch,
    private readonly bounds: ReadBounds = {},
  ) {}

  async getJson(url: string): Promise<JsonReply> {
    for (let attempt = 1; ; attempt++) {
      let why: string;
      let retryAfter: number | undefined;
      try {
        this.requests++;
        const timeout = AbortSignal.timeout(this.policy.timeoutMs);
        const res = await this.get(url, {
          headers: { accept: 'application/json', ...(this.authorization ? { authorization: this.authorization } : {}) },
          signal: this.bounds.deadline ? AbortSignal.any([timeout, this.bounds.deadline]) : timeout,
        });
        const text = await readBodyText(res, this.bounds.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES, this.bounds.spend);
        if (!isRetryableStatus(res.status)) return { status: res.status, body: parseJson(text), headers: res.headers };
        why = `HTTP ${res.status}`;
        retryAfter = retryAfterMs(res.headers.get('retry-after'), Date.now());
      } catch (err) {
        this.refuseBeyondBounds(url, err);
        // Where the request may not go, it will not go on a later try either.
        const refused = refusalOf(err);
        if (refused) throw new SiteError(`${url}: ${refused.message}`);
        why = describeFetchError(err);
      }
      if (attempt >= this.policy.attempts) throw new SiteError(`${url}: ${why} (gave up after ${attempt} attempts)`);
      const delay = delayBeforeRetry(attempt, retryAfter, this.policy);
      this.onRetry(url, why, delay);
      await pause(delay, this.bounds.deadline);
      this.refuseBeyondBounds(url, undefined);
    }
  }

  /** A limit reached is the answer of every later try too: the read ends with a SiteError naming it. */
  private refuseBeyondBounds(url: string, err: unknown): void {
    if (err instanceof SiteError) throw err;
    if (err instanceof OutboundTooLarge) throw new SiteError(`${url}: ${err.message}${this.bounds.answerSetting ? ` (${this.bounds.answerSetting})` : ''}`);
    const deadline = this.bounds.deadline;
    if (deadline?.aborted) throw new SiteError(deadline.reason instanceof Error ? deadline.reason.message : String(deadline.reason));
  }
}

/** Waits `ms`, or less when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describeFetchError(err: unknown): string {
  if (err instanceof Error && err.name === 'OutboundUnresolved') return err.message;
  // DOMException: an Error in Node's own fetch, not always one in undici's (another realm), so by name.
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** `Authorization: Basic …` for an application password (WordPress accepts it with or without its spaces). */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
