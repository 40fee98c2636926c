import { invalidParam, WpError } from '../common/errors';
import { LINKED_MESSAGE } from '../linked-items';

/** One linked venue/organizer as an event write names it (spec endpoints.md §4.4). */
export type LinkedRef =
  | { kind: 'id'; id: number } // a bare id: must be an existing item of the kind (else param error)
  | { kind: 'ref'; id: number } // `{ "id": N }`: must be an item of the kind (else invalid-linked-post-id)
  | { kind: 'new'; data: Record<string, unknown> }; // the data of a new item (create rules, duplicate reuse)

export const INVALID_LINKED_POST_ID = 'invalid-linked-post-id';
export const invalidLinkedPostId = () => new WpError(INVALID_LINKED_POST_ID, 'The linked venue or organizer id is not valid.', 400);

const isEmpty = (v: unknown) => v === 0 || v === '0' || v === '' || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);

/** `venue`: undefined = leave as is, null = no venue, else the one venue to link. */
export function parseVenueInput(value: unknown): LinkedRef | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (isEmpty(value)) return null;
  const items = asItems(value);
  if (items) {
    // Adaptation: an event has at most one venue.
    if (items.length !== 1) throw invalidParam('venue', LINKED_MESSAGE);
    return parseVenueInput(items[0]);
  }
  return parseOne(value, 'venue');
}

/** `organizer`: undefined = leave as is, [] = none, else the organizers in order (duplicates kept for the caller to drop). */
export function parseOrganizerInput(value: unknown): LinkedRef[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (isEmpty(value)) return [];
  const items =
    asItems(value) ??
    (typeof value === 'string' && value.includes(',')
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : [value]);
  return items.filter((item) => !isEmpty(item)).map((item) => parseOne(item, 'organizer'));
}

function parseOne(value: unknown, param: 'venue' | 'organizer'): LinkedRef {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return { kind: 'id', id: value };
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
    const id = Number(value);
    if (Number.isSafeInteger(id) && id > 0) return { kind: 'id', id };
  }
  if (isPlainObject(value)) {
    const id = value.id;
    if (id === undefined || id === null || id === '' || id === 0 || id === '0') {
      const { id: _ignored, ...data } = value;
      return { kind: 'new', data };
    }
    const n = typeof id === 'number' ? id : typeof id === 'string' && /^\s*\d+\s*$/.test(id) ? Number(id) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) throw invalidLinkedPostId();
    return { kind: 'ref', id: n };
  }
  throw invalidParam(param, LINKED_MESSAGE);
}

/** Arrays, and objects whose keys are all indexes (form bodies beyond the parser's array limit). */
function asItems(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => /^\d+$/.test(k))) {
    return Object.entries(value)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, v]) => v);
  }
  return null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
