import { createHmac } from 'node:crypto';

/** `sha256=<hex>`: the HMAC-SHA256 of `<timestamp>.<raw body>` with the subscription's secret (sync.md); a string body as UTF-8. */
export function signDelivery(secret: string, timestamp: number, body: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/** Retry delays as multiples of CALENDAR_WEBHOOK_RETRY_BASE_SECONDS: about 30 s, 2 min, 10 min, 1 h, 6 h, 24 h at 30 (sync.md). */
export const RETRY_STEPS = [1, 4, 20, 120, 720, 2880];

/**
 * Milliseconds to wait after failed attempt number `attempts` (1-based): the step for it (the
 * last step repeats) times the base, times a jitter of 0.5–1.5 so that receivers that failed
 * together are not all retried at once. `random` is Math.random unless a test pins it.
 */
export function retryDelayMs(attempts: number, baseSeconds: number, random: () => number = Math.random): number {
  const step = RETRY_STEPS[Math.min(Math.max(attempts, 1), RETRY_STEPS.length) - 1];
  return Math.round(step * baseSeconds * 1000 * (0.5 + random()));
}
