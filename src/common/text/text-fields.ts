// The one rule for text written by callers without the unfiltered-HTML capability (spec
// README §8, auth.md §2 "store unfiltered HTML", resources.md: plain-text fields); each feature
// declares which of its fields are HTML and which plain text.
import { sanitizeHtml, sanitizePlainText } from './sanitize';

/** `html`: formatting kept, anything active removed; `plain`: every tag removed. */
export type TextRule = 'html' | 'plain';

/**
 * The text fields of one kind of write, as its feature declares them beside its code
 * (`EVENT_TEXT`, `VENUE_TEXT`, …): how each is cleaned, and the characters of those stored in a
 * varchar column (the entity's length). Every other text field is stored in a `text` column.
 */
export interface TextFields {
  readonly rules: Readonly<Record<string, TextRule>>;
  readonly varchars?: Readonly<Record<string, number>>;
}

/**
 * The value to store for `field` of a kind with these text fields, written by a caller with
 * (`unfiltered`) or without the unfiltered-HTML capability; fields the kind does not name are
 * not text and pass as given.
 */
export function cleanTextField(fields: TextFields, field: string, value: string, unfiltered: boolean): string {
  const rule = fields.rules[field] as TextRule | undefined;
  const text = wellFormed(value);
  if (unfiltered || rule === undefined) return text;
  return rule === 'html' ? sanitizeHtml(text) : sanitizePlainText(text);
}

/** Lone UTF-16 surrogates (valid in JSON, not in UTF-8: MariaDB refuses them) become U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** What a MySQL `text` column holds: 65,535 bytes of UTF-8. */
export const TEXT_COLUMN_BYTES = 65_535;

/**
 * null when `value` (as it will be stored) fits the column of `field`, else the parameter
 * message saying what fits. The same limits on both engines: SQLite would store anything,
 * MariaDB would refuse the row ("Data too long"). Characters are counted as the database counts
 * them (code points).
 */
export function columnOverflow(fields: TextFields, field: string, value: string): string | null {
  const chars = fields.varchars?.[field];
  if (chars !== undefined) return countCodePoints(value) > chars ? `Must be at most ${chars} characters long.` : null;
  return Buffer.byteLength(value, 'utf8') > TEXT_COLUMN_BYTES ? `Must be at most ${TEXT_COLUMN_BYTES} bytes long.` : null;
}

/** The most characters `field` may hold, when its column is a varchar (for the DTOs). */
export function varcharLimit(fields: TextFields, field: string): number | undefined {
  return fields.varchars?.[field];
}

function countCodePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) n++;
  }
  return n;
}
