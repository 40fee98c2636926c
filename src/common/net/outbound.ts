import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch, request as undiciRequest } from 'undici';
import { isPublicAddress } from './public-address';

/** Every outbound request of the service (image probes now; webhooks and imports later) goes through here. */
export interface OutboundOptions {
  /** CALENDAR_ALLOW_PRIVATE_URLS: may the request reach loopback/private/link-local addresses? */
  allowPrivate: boolean;
  /** Ends every hop of the request (one budget for the whole exchange). */
  signal: AbortSignal;
  /** Redirects followed at most (each hop checked again). */
  maxRedirects?: number;
  /** Name resolution (tests give their own); node's dns.lookup by default. */
  resolve?: typeof dnsLookup;
  /** The address rule when private addresses are not allowed (tests narrow it); isPublicAddress by default. */
  isAllowedAddress?: (address: string) => boolean;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Where the answer came from, after redirects. */
  url: string;
}

/** The request was not sent (or not followed) because of where it would go. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

/** Refused by the address rule: the host is, or resolves to, a loopback, private or link-local address. */
export class OutboundNotPublic extends OutboundRefused {}

/**
 * The host name did not resolve (no such name, or no answer from DNS, as when offline): there is
 * no address to apply the rule to. `code` is getaddrinfo's (ENOTFOUND, EAI_AGAIN, …).
 */
export class OutboundUnresolved extends OutboundRefused {
  override name = 'OutboundUnresolved';
  constructor(
    readonly host: string,
    readonly code: string,
  ) {
    super(`${host} does not resolve (${code})`);
  }
}

/**
 * The address rule's refusal behind a failed request, thrown or as the cause of fetch's
 * "fetch failed"; undefined for any other failure. A name that does not resolve is not one:
 * DNS may answer on a later try.
 */
export function refusalOf(err: unknown): OutboundRefused | undefined {
  for (const e of [err, (err as { cause?: unknown } | null)?.cause]) {
    if (e instanceof Error && e.name === 'OutboundRefused') return e as OutboundRefused;
  }
  return undefined;
}

const DEFAULT_MAX_REDIRECTS = 3;

/**
 * Sends one HTTP(S) request and returns its status and headers (the body is not read). The
 * address rule is applied to the address actually connected to, after name resolution (inside
 * the socket's lookup, so a name cannot resolve to a public address when checked and a private
 * one when used), and again on every redirect hop, at most `maxRedirects` of them.
 */
export async function outboundRequest(url: string, method: 'HEAD' | 'GET', opts: OutboundOptions): Promise<OutboundResponse> {
  let current = new URL(url);
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  for (let hop = 0; ; hop++) {
    const res = await send(current, method, opts);
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return { ...res, url: current.toString() };
    if (hop >= maxRedirects) throw new OutboundRefused(`more than ${maxRedirects} redirects`);
    current = new URL(location, current);
  }
}

/**
 * POSTs `body` once (webhook deliveries): redirects are not followed (a 3xx is just the answer),
 * the address rule is applied as for outboundRequest (a written address here, a name in the
 * socket's lookup), and the answer's body is read and dropped. Sent with undici, whose client
 * costs a third of node:http's CPU per request (measured: ~55 against ~125-175 µs of a 3 KB
 * POST on loopback, docs/performance.md), on one keep-alive pool per address rule.
 */
export interface PostOptions extends Omit<OutboundOptions, 'signal' | 'maxRedirects'> {
  /** How long the receiver has for its answer's headers, and then between parts of its body (undici's own timers: no AbortSignal and timer per request). */
  timeoutMs: number;
}

export async function outboundPost(url: string, body: string | Uint8Array, headers: Record<string, string>, opts: PostOptions): Promise<{ status: number }> {
  const target = new URL(url);
  refuseWritten(target, opts);
  const { agent, own } = postAgent(opts);
  try {
    for (let tries = 1; ; tries++) {
      try {
        const res = await undiciRequest(target, {
          method: 'POST',
          body,
          headers,
          dispatcher: agent,
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
          maxRedirections: 0,
        });
        await res.body.dump();
        return { status: res.statusCode };
      } catch (err) {
        // A kept-alive connection the receiver closed as we sent on it (its idle timeout; common
        // while we are busy): once more, on another connection. A receiver that had read the
        // request gets it twice, which at-least-once delivery allows (it de-duplicates by id).
        if (tries >= 2 || !CONNECTION_CLOSED.has((err as { code?: string }).code ?? '')) throw err;
      }
    }
  } finally {
    if (own) await agent.close();
  }
}

/**
 * A GET of a document (the sources' reads, sources.md §2) under the address rule: redirects are
 * followed by hand, at most `maxRedirects`, each hop's written address checked and every name
 * checked in the socket's lookup, as for outboundRequest. The answer is undici's Response (its
 * body unread). A refusal is an OutboundRefused, thrown as fetch throws its network errors.
 */
export async function guardedFetch(
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
  opts: Pick<OutboundOptions, 'allowPrivate' | 'maxRedirects'>,
): Promise<Response> {
  let current = new URL(url);
  let headers = init.headers;
  const agent = fetchAgent(opts.allowPrivate);
  for (let hop = 0; ; hop++) {
    refuseWritten(current, opts);
    const res = await undiciFetch(current, { ...init, headers, redirect: 'manual', dispatcher: agent });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res as unknown as Response;
    await res.body?.cancel();
    if (hop >= (opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS)) throw new OutboundRefused(`more than ${opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS} redirects`);
    const next = new URL(location, current);
    headers = redirectHeaders(headers, current, next);
    current = next;
  }
}

/** Headers that carry the caller's credentials: sent to the origin they were given for only. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * The headers of the next hop of a redirect: as given, less the credentials when the hop goes
 * to another origin (scheme, host or port) or from https to http, as browsers and fetch do: a
 * site must not be able to send its reader's password on to another host, or into clear text.
 */
export function redirectHeaders(headers: Record<string, string>, from: URL, to: URL): Record<string, string> {
  if (from.origin === to.origin) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

/** guardedFetch's pools, one per address rule. */
const fetchAgents = new Map<boolean, Agent>();

function fetchAgent(allowPrivate: boolean): Agent {
  let agent = fetchAgents.get(allowPrivate);
  if (agent === undefined)
    fetchAgents.set(allowPrivate, (agent = new Agent({ connect: { lookup: guardedLookup(allowPrivate ? () => true : isPublicAddress, dnsLookup) } })));
  return agent;
}

/** Errors of a connection closed under a request (before any answer). */
const CONNECTION_CLOSED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** The pools of outboundPost, by address rule; a caller with its own resolver or rule (tests) gets a pool of its own, closed after. */
const postAgents = new Map<boolean, Agent>();

function postAgent(opts: PostOptions): { agent: Agent; own: boolean } {
  const lookup = guardedLookup(opts.allowPrivate ? () => true : (opts.isAllowedAddress ?? isPublicAddress), opts.resolve ?? dnsLookup);
  if (opts.resolve !== undefined || opts.isAllowedAddress !== undefined) return { agent: new Agent({ connect: { lookup } }), own: true };
  let agent = postAgents.get(opts.allowPrivate);
  if (agent === undefined) postAgents.set(opts.allowPrivate, (agent = new Agent({ connect: { lookup } })));
  return { agent, own: false };
}

/** Refuses a URL of another scheme, or whose host is an address (not looked up, so checked here) the rule does not allow. */
function refuseWritten(url: URL, opts: Pick<OutboundOptions, 'allowPrivate' | 'isAllowedAddress'>): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`scheme ${url.protocol} is not fetched`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = opts.isAllowedAddress ?? isPublicAddress;
  if (!opts.allowPrivate && isLiteralAddress(host) && !allowed(host)) throw new OutboundNotPublic(`${host} is not a public address`);
}

/** Can `url` be fetched under the address rule? Resolves the name (all its addresses must be allowed). Throws OutboundRefused when not. */
export async function checkOutboundUrl(url: string, opts: Pick<OutboundOptions, 'allowPrivate' | 'resolve' | 'isAllowedAddress'>): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefused('not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OutboundRefused(`scheme ${parsed.protocol} is not fetched`);
  if (opts.allowPrivate) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const allowed = opts.isAllowedAddress ?? isPublicAddress;
  if (isLiteralAddress(host)) {
    if (!allowed(host)) throw new OutboundNotPublic(`${host} is not a public address`);
    return;
  }
  const lookup = guardedLookup(allowed, opts.resolve ?? dnsLookup);
  await new Promise<void>((resolve, reject) => lookup(host, { all: true }, (err) => (err ? reject(unresolved(host, err) ?? err) : resolve())));
}

/** An error of name resolution itself (getaddrinfo's), as OutboundUnresolved; null for any other. */
function unresolved(host: string, err: NodeJS.ErrnoException): OutboundUnresolved | null {
  return err.syscall === 'getaddrinfo' && typeof err.code === 'string' ? new OutboundUnresolved(host, err.code) : null;
}

function send(url: URL, method: 'HEAD' | 'GET', opts: OutboundOptions): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  // An address written in the URL is not looked up: check it here.
  try {
    refuseWritten(url, opts);
  } catch (err) {
    return Promise.reject(err as Error);
  }
  const allowed = opts.isAllowedAddress ?? isPublicAddress;
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method,
        signal: opts.signal,
        lookup: guardedLookup(opts.allowPrivate ? () => true : allowed, opts.resolve ?? dnsLookup),
        headers: { 'user-agent': 'calendar-events (image check)', accept: 'image/*' },
      },
      (res) => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
        res.destroy(); // the answer's head is all we read
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function isLiteralAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** A socket lookup that refuses names resolving to a non-public address (any of them). */
function guardedLookup(allowed: (address: string) => boolean, resolve: typeof dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (list.length === 0 || list.some((a) => !allowed(a.address))) {
        return callback(new OutboundNotPublic(`${hostname} resolves to an address that is not public`), '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** An answer's body was longer than the reader allows; reading stopped there. */
export class OutboundTooLarge extends Error {
  override name = 'OutboundTooLarge';
  constructor(readonly limit: number) {
    super(`the answer is larger than ${describeBytes(limit)}`);
  }
}

/** `50 MB`, `512 KB`, `100 bytes`. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/**
 * An answer's body as text, read chunk by chunk and counted as it comes: more than `maxBytes`
 * (as sent, when Content-Length says so; as inflated, when the answer is compressed) stops the
 * read and throws OutboundTooLarge, so what an answer costs in memory is bounded by the limit
 * and not by what the other side sends or what its compression inflates to. `spend` hears each
 * chunk's size (a run's budget over all its answers) and may throw to stop the read too.
 */
export async function readBodyText(res: Response, maxBytes: number, spend: (bytes: number) => void = () => undefined): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new OutboundTooLarge(maxBytes);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new OutboundTooLarge(maxBytes);
      spend(value.byteLength);
      chunks.push(value);
    }
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    throw err;
  }
  return new TextDecoder().decode(Buffer.concat(chunks, total)); // as Response.text(): UTF-8, a BOM dropped
}
