import { deliveryId, subscribes } from './webhook-outbox';

describe('deliveryId', () => {
  it('is a UUID of version 7 and the RFC 9562 variant, with the time in its first 48 bits', () => {
    const at = Date.UTC(2026, 10, 26, 7, 30, 0, 123);
    const id = deliveryId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by time, and differs within one millisecond', () => {
    const earlier = deliveryId(1_700_000_000_000);
    const later = deliveryId(1_700_000_000_001);
    expect(earlier < later).toBe(true);
    const same = new Set(Array.from({ length: 1000 }, () => deliveryId(1_700_000_000_000)));
    expect(same.size).toBe(1000);
  });
});

describe('subscribes', () => {
  it('takes *, {type}.* and the exact name, nothing else', () => {
    expect(subscribes(['*'], 'venue', 'deleted')).toBe(true);
    expect(subscribes(['venue.*'], 'venue', 'created')).toBe(true);
    expect(subscribes(['event.updated'], 'event', 'updated')).toBe(true);
    expect(subscribes(['event.updated'], 'event', 'created')).toBe(false);
    expect(subscribes(['venue.*'], 'event', 'created')).toBe(false);
    expect(subscribes([], 'event', 'created')).toBe(false);
  });
});
