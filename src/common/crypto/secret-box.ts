import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Webhook secrets at rest (docs/security.md). The service must read a secret back to sign each
 * delivery, so it cannot be hashed like a password; with CALENDAR_WEBHOOK_KEY set it is stored
 * encrypted with that key (AES-256-GCM, a random 96-bit nonce per secret, the tag checked on
 * reading), as `enc1:` and the nonce, tag and ciphertext in base64url. Without a key it is
 * stored as given. A stored value without the prefix is a secret stored before a key was set.
 */
const PREFIX = 'enc1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/**
 * Binds a ciphertext to its use: a value encrypted with the same key for something else does not
 * open here. Webhook secrets by default; other secrets sealed with the key (a source's password)
 * name their own.
 */
const CONTEXT = 'calendar-events webhook secret';

/** A stored secret this instance cannot read: encrypted, and no key or another key configured. */
export class SecretUnreadable extends Error {
  override name = 'SecretUnreadable';
}

/** Is `stored` encrypted (needs the key to be read)? */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The form to store `secret` in: encrypted with `key`, or as it is without one. */
export function sealSecret(secret: string, key: Buffer | undefined, context = CONTEXT): string {
  if (key === undefined) return secret;
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.from(context));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The secret in `stored` (sealSecret's form, or a secret stored as given). Throws SecretUnreadable. */
export function openSecret(stored: string, key: Buffer | undefined, context = CONTEXT): string {
  if (!isSealed(stored)) return stored;
  if (key === undefined) throw new SecretUnreadable('the secret is stored encrypted and CALENDAR_WEBHOOK_KEY is not set');
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretUnreadable('the stored secret is damaged');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES))
      .setAAD(Buffer.from(context))
      .setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadable('the secret was encrypted with another CALENDAR_WEBHOOK_KEY');
  }
}
