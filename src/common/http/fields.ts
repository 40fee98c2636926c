// WordPress's global `_fields` parameter (compat.md, "TEC's public URLs"), as pure functions of
// parsed JSON: which keys a client asked for, and an answer narrowed to them.

/** A `_fields` selection: each key kept whole (`true`), or narrowed to the keys of its own selection (`a.b`). */
export type FieldSelection = ReadonlyMap<string, FieldSelection | true>;

type Level = Map<string, Level | true>;

/** How many names one `_fields` may give; the others are ignored (a query string holds at most 1000 parameters anyway). */
const MAX_NAMES = 200;

/**
 * The selection a `_fields` value names, or undefined when it names none (then the answer is
 * whole). As WordPress reads it (wp_parse_list, rest_filter_response_fields): names are
 * separated by commas or white space, also in each item of an array (`_fields[]=id`); `a.b`
 * keeps only `b` within `a`; a key asked whole stays whole whatever is asked within it.
 */
export function parseFields(value: unknown): FieldSelection | undefined {
  const names = fieldNames(value).slice(0, MAX_NAMES);
  if (names.length === 0) return undefined;
  const root: Level = new Map();
  for (const name of names) {
    const path = name.split('.');
    const last = path.pop()!;
    let level: Level | undefined = root;
    for (const key of path) {
      const known: Level | true | undefined = level.get(key);
      if (known === true) {
        level = undefined; // kept whole already: nothing within it to narrow
        break;
      }
      const next: Level = known ?? new Map();
      level.set(key, next);
      level = next;
    }
    level?.set(last, true);
  }
  return root;
}

/** The names in a `_fields` value as the query string parser gave it: a string, an array or a `[key]` object of them. */
function fieldNames(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((name) => name !== '');
  if (depth > 2 || value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap((item) => fieldNames(item, depth + 1));
}

/**
 * `value` narrowed to `selection`: an object keeps its own keys that are selected (in its own
 * order), each whole or narrowed in turn; an array is narrowed item by item (an event's
 * `organizer` list, its `categories`); anything else is kept as it is, as WordPress keeps a
 * value that is not an array (`title.rendered` on a string title keeps the title). An object
 * within the item that keeps no key is `[]`, as WordPress sends the empty PHP array it becomes
 * (and as an event without venue has `venue: []`); the item itself stays an object.
 */
export function pickFields(value: unknown, selection: FieldSelection, within = false): unknown {
  if (Array.isArray(value)) return value.map((item) => pickFields(item, selection, within));
  if (value === null || typeof value !== 'object') return value;
  const kept = Object.entries(value).filter(([key]) => selection.has(key));
  if (within && kept.length === 0) return [];
  return Object.fromEntries(
    kept.map(([key, member]) => {
      const inner = selection.get(key)!;
      return [key, inner === true ? member : pickFields(member, inner, true)];
    }),
  );
}

/**
 * An answer narrowed to `selection` (compat.md): a list (`collection` names its key) keeps its
 * envelope whole (`total`, `rest_url`…) and narrows each item under the key; a single item is
 * narrowed itself.
 */
export function pickAnswerFields(body: unknown, collection: string | undefined, selection: FieldSelection): unknown {
  if (collection === undefined) return pickFields(body, selection);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const items = (body as Record<string, unknown>)[collection];
  if (!Array.isArray(items)) return body;
  return { ...body, [collection]: items.map((item) => pickFields(item, selection)) };
}
