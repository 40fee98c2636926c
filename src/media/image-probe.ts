import { OutboundOptions, OutboundRefused, outboundRequest } from '../common/net/outbound';

/** Content types accepted for a featured image given by URL (spec endpoints.md §4.7). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff', 'image/x-icon'];

/** The whole probe (both methods, every redirect) takes at most this long (endpoints.md §4.7: 5 s). */
export const PROBE_BUDGET_MS = 5000;

/**
 * Asks the remote server whether `url` is an image: HEAD, falling back to GET when HEAD is not
 * answered with 200. Returns the image's content type, or null. Outbound rules (outbound.ts):
 * public addresses only unless allowed, at most 3 redirects each checked again, one 5-second
 * budget for all of it.
 */
export async function probeImage(url: string, opts: Omit<OutboundOptions, 'signal'> & { budgetMs?: number }): Promise<string | null> {
  const signal = AbortSignal.timeout(opts.budgetMs ?? PROBE_BUDGET_MS);
  for (const method of ['HEAD', 'GET'] as const) {
    try {
      const res = await outboundRequest(url, method, { ...opts, signal });
      if (res.status !== 200) continue;
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase();
      if (IMAGE_TYPES.includes(type)) return type;
    } catch (err) {
      // Refused by the address rule, or the budget is spent: GET would not do better.
      if (err instanceof OutboundRefused || signal.aborted) return null;
      // unreachable or refused by the server: try the next method, then give up
    }
  }
  return null;
}

/** `jpg` for `https://x/y/photo.JPG?w=2`; '' when the path has no extension. */
export function urlExtension(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    const dot = last.lastIndexOf('.');
    return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
  } catch {
    return '';
  }
}
