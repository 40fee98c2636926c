import { version } from '../../../package.json';
import { outboundPost } from '../../common/net/outbound';
import { signDelivery } from './webhook-signature';

/** One delivery to POST: everything the attempt needs, plain data (it may cross to the post thread). */
export interface PostJob {
  url: string;
  body: string;
  event: string;
  deliveryId: string;
  secret: string;
  allowPrivate: boolean;
  timeoutMs: number;
}

/** What the attempt got: the receiver's status (null when none answered) and the error, if it failed. */
export interface PostResult {
  status: number | null;
  error: string | null;
}

/**
 * Signs a delivery (sync.md: HMAC-SHA256 over `<timestamp>.<raw body>`, the timestamp taken
 * now) and POSTs it with the headers of sync.md. Any 2xx is success; another status, no answer
 * in time, a refused address or a broken connection is a failed attempt, said in `error`.
 */
export async function postDelivery(job: PostJob): Promise<PostResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const { status } = await outboundPost(
      job.url,
      job.body,
      {
        'content-type': 'application/json',
        'user-agent': `calendar-events/${version}`,
        'x-calendar-event': job.event,
        'x-calendar-delivery': job.deliveryId,
        'x-calendar-timestamp': String(timestamp),
        'x-calendar-signature': signDelivery(job.secret, timestamp, job.body),
      },
      { allowPrivate: job.allowPrivate, timeoutMs: job.timeoutMs },
    );
    return { status, error: status < 200 || status >= 300 ? `HTTP ${status}` : null };
  } catch (err) {
    return { status: null, error: ((err as Error).message || String(err)).slice(0, 500) };
  }
}
