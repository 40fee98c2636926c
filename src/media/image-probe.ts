/** Content types accepted for a featured image given by URL (spec endpoints.md §4.7). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff', 'image/x-icon'];

const TIMEOUT_MS = 5000;

/**
 * Asks the remote server whether `url` is an image: HEAD, falling back to GET when HEAD is not
 * answered with 200; 5-second timeout. Returns the image's content type, or null.
 */
export async function probeImage(url: string, fetchImpl: typeof fetch = fetch): Promise<string | null> {
  for (const method of ['HEAD', 'GET']) {
    try {
      const res = await fetchImpl(url, { method, redirect: 'follow', signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (method === 'GET') void res.body?.cancel().catch(() => undefined);
      if (res.status !== 200) continue;
      const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
      if (IMAGE_TYPES.includes(type)) return type;
    } catch {
      // unreachable, refused or timed out: try the next method, then give up
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
