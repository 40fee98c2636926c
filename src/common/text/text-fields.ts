// The one rule for text written by callers without the unfiltered-HTML capability (spec
// README §8, auth.md §2 "store unfiltered HTML", resources.md: plain-text fields).
import { sanitizeHtml, sanitizePlainText } from './sanitize';

/** `html`: formatting kept, anything active removed; `plain`: every tag removed. */
export type TextRule = 'html' | 'plain';

/** Every text field of every write, by kind, and how it is cleaned. */
export const TEXT_FIELDS = {
  event: { title: 'plain', description: 'html', excerpt: 'html', cost: 'plain', website: 'plain' },
  venue: {
    venue: 'plain',
    description: 'html',
    address: 'plain',
    city: 'plain',
    country: 'plain',
    province: 'plain',
    state: 'plain',
    zip: 'plain',
    phone: 'plain',
    website: 'plain',
    stateprovince: 'plain',
  },
  organizer: { organizer: 'plain', description: 'html', phone: 'plain', website: 'plain', email: 'plain' },
  term: { name: 'plain', description: 'html' },
} as const satisfies Record<string, Record<string, TextRule>>;

export type TextKind = keyof typeof TEXT_FIELDS;

/**
 * The value to store for `field` of `kind` written by a caller with (`unfiltered`) or without
 * the unfiltered-HTML capability; fields the table does not name are not text and pass as given.
 */
export function cleanTextField(kind: TextKind, field: string, value: string, unfiltered: boolean): string {
  const rule = (TEXT_FIELDS[kind] as Record<string, TextRule | undefined>)[field];
  const text = wellFormed(value);
  if (unfiltered || rule === undefined) return text;
  return rule === 'html' ? sanitizeHtml(text) : sanitizePlainText(text);
}

/** Lone UTF-16 surrogates (valid in JSON, not in UTF-8: MariaDB refuses them) become U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/**
 * Characters the `varchar` columns behind text fields hold (the entities' lengths); every other
 * text field is stored in a `text` column. The same limits on both engines: SQLite would store
 * anything, MariaDB would refuse the row ("Data too long").
 */
const VARCHAR_CHARS: { [K in TextKind]?: Record<string, number> } = {
  venue: { address: 255, city: 255, country: 255, province: 255, state: 255, zip: 64, phone: 255, stateprovince: 255 },
  organizer: { phone: 255, email: 255 },
  term: { name: 200 },
};

/** What a MySQL `text` column holds: 65,535 bytes of UTF-8. */
export const TEXT_COLUMN_BYTES = 65_535;

/**
 * null when `value` (as it will be stored) fits the column of `field`, else the parameter
 * message saying what fits. Characters are counted as the database counts them (code points).
 */
export function columnOverflow(kind: TextKind, field: string, value: string): string | null {
  const chars = VARCHAR_CHARS[kind]?.[field];
  if (chars !== undefined) return countCodePoints(value) > chars ? `Must be at most ${chars} characters long.` : null;
  return Buffer.byteLength(value, 'utf8') > TEXT_COLUMN_BYTES ? `Must be at most ${TEXT_COLUMN_BYTES} bytes long.` : null;
}

/** The most characters `field` of `kind` may hold, when its column is a varchar (for the DTOs). */
export function varcharLimit(kind: TextKind, field: string): number | undefined {
  return VARCHAR_CHARS[kind]?.[field];
}

function countCodePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) n++;
  }
  return n;
}
