import { createHash } from 'node:crypto';

/**
 * The key that makes two term names "the same" at one level (spec errors.md `term_exists`):
 * equal after Unicode case folding by lower-casing, compared byte for byte. Stored as a hex
 * digest so that neither engine's collation (MariaDB's utf8mb4_unicode_ci would also equate
 * accents; SQLite's LOWER() folds ASCII only) changes the rule.
 */
export function termNameKey(name: string): string {
  return createHash('sha256').update(name.normalize('NFC').toLowerCase()).digest('hex');
}

/** A key no lookup by name finds: for a term that had to join a namesake at its level. */
export function shadowNameKey(name: string, id: number): string {
  return createHash('sha256')
    .update(`${name.normalize('NFC').toLowerCase()}\u0000${id}`)
    .digest('hex');
}
