import { version } from '../../../package.json';
import { outboundPost } from '../../common/net/outbound';
import { signDelivery } from './webhook-signature';

/** Where a subscription's deliveries go and how: plain data (it may cross to the post thread). */
export interface PostTarget {
  url: string;
  secret: string;
  allowPrivate: boolean;
  timeoutMs: number;
}

/** One delivery to POST there. */
export interface PostItem {
  /** The raw body, as sent and signed: bytes from the worker (moved to the thread, not copied, and never decoded to a string and back). */
  body: string | Uint8Array;
  event: string;
  deliveryId: string;
}

/** One item's deliveries to one subscription, in seq order: sent one after another. */
export interface PostChain {
  target: PostTarget;
  items: PostItem[];
}

/** What the attempt got: the receiver's status (null when none answered) and the error, if it failed. */
export interface PostResult {
  status: number | null;
  error: string | null;
}

/**
 * Sends a chain's deliveries one after another, each once its predecessor succeeded (sync.md:
 * one item's deliveries to one subscription go in seq order), and stops at the first that
 * fails. The results are the attempts made, in order: fewer than the deliveries when one
 * failed (the last result), the rest not tried.
 */
export async function postChain(chain: PostChain): Promise<PostResult[]> {
  const results: PostResult[] = [];
  for (const item of chain.items) {
    const result = await postDelivery(chain.target, item);
    results.push(result);
    if (result.error !== null) break;
  }
  return results;
}

/**
 * Signs a delivery (sync.md: HMAC-SHA256 over `<timestamp>.<raw body>`, the timestamp taken
 * now) and POSTs it with the headers of sync.md. Any 2xx is success; another status, no answer
 * in time, a refused address or a broken connection is a failed attempt, said in `error`.
 */
export async function postDelivery(target: PostTarget, item: PostItem): Promise<PostResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const { status } = await outboundPost(
      target.url,
      item.body,
      {
        'content-type': 'application/json',
        'user-agent': `calendar-events/${version}`,
        'x-calendar-event': item.event,
        'x-calendar-delivery': item.deliveryId,
        'x-calendar-timestamp': String(timestamp),
        'x-calendar-signature': signDelivery(target.secret, timestamp, item.body),
      },
      { allowPrivate: target.allowPrivate, timeoutMs: target.timeoutMs },
    );
    return { status, error: status < 200 || status >= 300 ? `HTTP ${status}` : null };
  } catch (err) {
    return { status: null, error: ((err as Error).message || String(err)).slice(0, 500) };
  }
}
