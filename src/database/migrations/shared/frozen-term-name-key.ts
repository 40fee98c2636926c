import { createHash } from 'node:crypto';

/**
 * FROZEN HISTORY. The term name keys of migration UniqueSlugsTermNames, as
 * taxonomies/term-name-key.ts made them when it was written. They must never change with the
 * live code: a later change of the rule gets a migration of its own that rewrites the keys.
 * frozen-helpers.spec.ts pins their output.
 */

/** Two names at one level are the same when equal after NFC and lower-casing: their SHA-256, in hex. */
export function frozenTermNameKey(name: string): string {
  return createHash('sha256').update(name.normalize('NFC').toLowerCase()).digest('hex');
}

/** The key of a term that had to join a namesake at its level: no lookup by name finds it. */
export function frozenShadowNameKey(name: string, id: number): string {
  return createHash('sha256')
    .update(`${name.normalize('NFC').toLowerCase()}\u0000${id}`)
    .digest('hex');
}
