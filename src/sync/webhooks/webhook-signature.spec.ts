import { createHmac } from 'node:crypto';
import { subscribes } from './webhook-outbox';
import { RETRY_STEPS, retryDelayMs, signDelivery } from './webhook-signature';

describe('webhook signatures', () => {
  it('sign "<timestamp>.<body>" with HMAC-SHA256, hex, prefixed sha256=', () => {
    const expected = createHmac('sha256', 'k').update('1700000000.{"a":1}').digest('hex');
    expect(signDelivery('k', 1700000000, '{"a":1}')).toBe(`sha256=${expected}`);
  });

  it('change with the secret, the timestamp and the body', () => {
    const base = signDelivery('k', 1, 'b');
    expect(signDelivery('k2', 1, 'b')).not.toBe(base);
    expect(signDelivery('k', 2, 'b')).not.toBe(base);
    expect(signDelivery('k', 1, 'b ')).not.toBe(base);
  });
});

describe('retry schedule', () => {
  it.each([
    [1, 30_000],
    [2, 120_000],
    [3, 600_000],
    [4, 3_600_000],
    [5, 21_600_000],
    [6, 86_400_000],
    [9, 86_400_000],
  ])('after attempt %i waits about %i ms at base 30 s', (attempts, ms) => {
    expect(retryDelayMs(attempts, 30, () => 0.5)).toBe(ms);
  });

  it('jitters between half and one and a half of the step', () => {
    expect(retryDelayMs(1, 30, () => 0)).toBe(15_000);
    expect(retryDelayMs(1, 30, () => 0.999999)).toBeLessThanOrEqual(45_000);
    expect(RETRY_STEPS).toHaveLength(6);
  });

  it('scales with fractional bases', () => {
    expect(retryDelayMs(2, 0.05, () => 0.5)).toBe(200);
  });
});

describe('subscription patterns', () => {
  it.each([
    [['*'], 'venue', 'deleted', true],
    [['event.*'], 'event', 'updated', true],
    [['event.*'], 'venue', 'updated', false],
    [['event.created'], 'event', 'created', true],
    [['event.created'], 'event', 'updated', false],
    [[], 'event', 'created', false],
  ])('%j takes %s.%s: %s', (patterns, type, action, expected) => {
    expect(subscribes(patterns, type, action)).toBe(expected);
  });
});
