import { decodeSyncToken, encodeSyncToken } from './sync-token';

describe('sync tokens', () => {
  it('round-trip any seq', () => {
    for (const seq of [0, 1, 57, 1_000_000, Number.MAX_SAFE_INTEGER]) expect(decodeSyncToken(encodeSyncToken(seq))).toBe(seq);
  });

  it('are opaque strings, not bare numbers', () => {
    expect(encodeSyncToken(42)).not.toContain('42');
  });

  it('refuse what we did not write', () => {
    for (const bad of [
      '',
      '42',
      's1.',
      's1.***',
      's2.NDI',
      `s1.${Buffer.from('-1').toString('base64url')}`,
      `s1.${Buffer.from('042').toString('base64url')}`,
      `s1.${Buffer.from('1e3').toString('base64url')}`,
    ]) {
      expect(decodeSyncToken(bad)).toBeNull();
    }
  });
});
