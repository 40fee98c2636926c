import { randomBytes } from 'node:crypto';
import { isSealed, openSecret, sealSecret, SecretUnreadable } from './secret-box';

describe('webhook secrets at rest (secret-box.ts)', () => {
  const key = randomBytes(32);

  it('with a key: stored encrypted, never as given, and read back', () => {
    const secret = 'whsec-Ünïcødé-' + 'x'.repeat(240);
    const stored = sealSecret(secret, key);
    expect(isSealed(stored)).toBe(true);
    expect(stored).not.toContain('whsec');
    expect(stored.length).toBeLessThanOrEqual(2000);
    expect(openSecret(stored, key)).toBe(secret);
    // A fresh nonce each time: the same secret is stored differently.
    expect(sealSecret(secret, key)).not.toBe(stored);
  });

  it('without a key: stored as given; a secret stored before a key was set is read as it is', () => {
    expect(sealSecret('plain', undefined)).toBe('plain');
    expect(openSecret('plain', key)).toBe('plain');
    expect(openSecret('plain', undefined)).toBe('plain');
  });

  it('refuses to read with no key, another key, or a changed value', () => {
    const stored = sealSecret('s3cret', key);
    expect(() => openSecret(stored, undefined)).toThrow(SecretUnreadable);
    expect(() => openSecret(stored, randomBytes(32))).toThrow(SecretUnreadable);
    const flipped = stored.slice(0, -2) + (stored.endsWith('AA') ? 'BA' : 'AA');
    expect(() => openSecret(flipped, key)).toThrow(SecretUnreadable);
    expect(() => openSecret('enc1:AAAA', key)).toThrow(SecretUnreadable);
  });
  it('opens only for the use it was sealed for', () => {
    const key = randomBytes(32);
    const stored = sealSecret('pw', key, 'calendar-events source password');
    expect(openSecret(stored, key, 'calendar-events source password')).toBe('pw');
    expect(() => openSecret(stored, key)).toThrow(SecretUnreadable);
  });
});
