/**
 * Lenient parsing of request parameters (spec README §3–§5). Pure functions: each returns the
 * parsed value, or INVALID when the input cannot be read as that type.
 */
export const INVALID: unique symbol = Symbol('invalid parameter');
export type Invalid = typeof INVALID;

const INT_TEXT = /^[+-]?\d+(?:\.0*)?$/;

/** JSON numbers or decimal strings; `"3"`, `3`, `3.0` pass, `"1.5"`, `"foo"`, `""` fail. */
export function toInt(value: unknown): number | Invalid {
  if (typeof value === 'number') return Number.isInteger(value) ? value : INVALID;
  if (typeof value === 'string' && INT_TEXT.test(value.trim())) {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : INVALID;
  }
  return INVALID;
}

const TRUE_STRICT = new Set(['true', '1']);
const FALSE_STRICT = new Set(['false', '0', '']);

/** Typed booleans: true/"true"/"1"/1 and false/"false"/"0"/0/"" (case-insensitive); else INVALID. */
export function toStrictBool(value: unknown): boolean | Invalid {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (TRUE_STRICT.has(v)) return true;
    if (FALSE_STRICT.has(v)) return false;
  }
  return INVALID;
}

const TRUE_LOOSE = new Set(['true', 'yes', 'on', '1']);

/** Loose flags: true/"true"/"yes"/"on"/"1"/1 are true, everything else false; never an error. */
export function toLooseBool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1;
  return typeof value === 'string' && TRUE_LOOSE.has(value.trim().toLowerCase());
}

/**
 * Array parameters: a comma list (`"12, 15"`), a JSON/qs array (`x[]=` and `x[0]=`), an object
 * with numeric keys (qs beyond its array limit), or a single value. Empty items are dropped.
 * Nested arrays or objects inside are INVALID.
 */
export function toList(value: unknown): string[] | Invalid {
  const items = listItems(value);
  if (items === INVALID) return INVALID;
  return items.flatMap(splitCommas);
}

/**
 * Names given as a list (spec endpoints.md §4.5): `items` to resolve one by one and, when the
 * value was one string with a comma in it, `whole`: that string trimmed, which names a single
 * term instead of its parts when a term has exactly that name.
 */
export interface NameList {
  items: string[];
  whole?: string;
}

/**
 * A list of names: an item of an array is one name and is never split (a category may be called
 * "Jazz, Blues"); a single string is a comma list, kept whole beside its parts. INVALID as toList.
 */
export function toNameList(value: unknown): NameList | Invalid {
  if (typeof value === 'string') {
    const items = splitCommas(value);
    return value.includes(',') ? { items, whole: value.trim() } : { items };
  }
  const items = listItems(value);
  if (items === INVALID) return INVALID;
  return { items: items.map((item) => item.trim()).filter((item) => item !== '') };
}

export function isNameList(value: unknown): value is NameList {
  return value !== null && typeof value === 'object' && Array.isArray((value as NameList).items);
}

/** The items of an array parameter in any of its forms, as text (numbers written out), unsplit. */
function listItems(value: unknown): string[] | Invalid {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.every(([k]) => /^\d+$/.test(k))) return INVALID;
    items = entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  } else items = [value];

  const out: string[] = [];
  for (const item of items) {
    if (typeof item === 'number' && Number.isFinite(item)) out.push(String(item));
    else if (typeof item === 'string') out.push(item);
    else if (item !== null && item !== undefined) return INVALID;
  }
  return out;
}

const splitCommas = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** A list of positive integers (ids). */
export function toIdList(value: unknown): number[] | Invalid {
  const list = toList(value);
  if (list === INVALID) return INVALID;
  const ids: number[] = [];
  for (const item of list) {
    const n = toInt(item);
    if (n === INVALID || n < 1 || !Number.isSafeInteger(n)) return INVALID;
    ids.push(n);
  }
  return ids;
}

/** Digits-only path ids; an id too large for storage can never exist, so it maps to 0. */
export function toPathId(segment: string): number | Invalid {
  if (!/^\d+$/.test(segment)) return INVALID;
  const n = Number(segment);
  return Number.isSafeInteger(n) && n <= 2147483647 ? n : 0;
}
