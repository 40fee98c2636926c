// A TEC site's records (resources.md §1–§4 shapes) → the bodies of this service's writes (pure).
import { createHash } from 'node:crypto';
import { writtenNumbers } from '../../events';

export type Json = Record<string, unknown>;

/** Local ids of what a record links to, by the source's keys; undefined = not imported. */
export interface LocalLinks {
  venue: (globalId: string) => number | undefined;
  organizer: (globalId: string) => number | undefined;
  term: (taxonomy: 'category' | 'tag', sourceId: number) => number | undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
/** Only fields with something in them: the write DTOs refuse some empty strings (description, excerpt). */
const nonEmpty = (v: unknown): string | undefined => (str(v) !== '' ? str(v) : undefined);

/** The image as this service's writes take it: its URL (the service fetches and checks it). */
export function imageUrl(image: unknown): string {
  return image && typeof image === 'object' && typeof (image as Json).url === 'string' ? ((image as Json).url as string) : '';
}

/** A version for records that carry no modified date (terms): a digest of what is written. */
export function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/**
 * An item's version: the source's `modified_utc`, plus a digest of the local ids it links to,
 * so that a record is written again when what it links to was re-created locally (64 characters
 * at most, the column's size).
 */
export function itemVersion(modifiedUtc: unknown, links: unknown = null): string {
  return `${str(modifiedUtc)} #${digest(links).slice(0, 16)}`;
}

/** The fields every item writes: slug, status, publication date (UTC) and the author when known. */
function itemFields(src: Json, authorId: number | undefined): Json {
  return { slug: nonEmpty(src.slug), status: nonEmpty(src.status), date_utc: nonEmpty(src.date_utc), author: authorId };
}

/**
 * The cost strings behind `cost_details` (resources.md §6): numeric values with the currency
 * symbol where it stood, texts as they are, each number as the source's formatted `cost` wrote
 * it (`€10,50` stays `€10,50`: `values` has it as `10.50`; sources.md §4). Parsing them again
 * gives the same `cost` and `cost_details`.
 */
export function costStrings(details: unknown, cost: unknown): string[] {
  if (!details || typeof details !== 'object') return str(cost) !== '' ? [str(cost)] : [];
  const d = details as Json;
  const values = Array.isArray(d.values) ? d.values.map(str).filter((v) => v !== '') : [];
  const symbol = str(d.currency_symbol);
  const written = writtenNumbers(str(cost));
  return values.map((v) => {
    if (!/^\d+(\.\d+)?$/.test(v)) return v;
    const number = written.get(v) ?? v;
    return symbol === '' ? number : d.currency_position === 'postfix' ? `${number}${symbol}` : `${symbol}${number}`;
  });
}

export function termInput(src: Json, parent: number | undefined): Json {
  return { name: str(src.name), slug: nonEmpty(src.slug), description: nonEmpty(src.description), parent };
}

export function venueInput(src: Json, authorId: number | undefined): Json {
  const fields = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'];
  return {
    venue: str(src.venue),
    description: str(src.description),
    ...Object.fromEntries(fields.map((f) => [f, str(src[f])])),
    show_map: bool(src.show_map),
    show_map_link: bool(src.show_map_link),
    image: nonEmpty(imageUrl(src.image)),
    ...itemFields(src, authorId),
  };
}

export function organizerInput(src: Json, authorId: number | undefined): Json {
  return {
    organizer: str(src.organizer),
    description: str(src.description),
    phone: str(src.phone),
    website: str(src.website),
    email: str(src.email),
    image: nonEmpty(imageUrl(src.image)),
    ...itemFields(src, authorId),
  };
}

/** Source ids of an event's terms of one taxonomy. */
export function termIds(list: unknown): number[] {
  return Array.isArray(list) ? list.map((t) => (t as Json).id).filter((id): id is number => typeof id === 'number') : [];
}

/** The global ids of an event's venue (none: null) and organizers. */
export function linkedGlobalIds(src: Json): { venue: string | null; organizers: string[] } {
  const venue = src.venue && typeof src.venue === 'object' && !Array.isArray(src.venue) ? str((src.venue as Json).global_id) : '';
  const organizers = Array.isArray(src.organizer) ? src.organizer.map((o) => str((o as Json).global_id)).filter((g) => g !== '') : [];
  return { venue: venue || null, organizers };
}

/**
 * An event's write body. Links are local ids (`links`); a link whose target was not imported
 * is left out and named in `missing`. `website` equal to the event's own URL is the API's
 * stand-in for "no website" (resources.md §1) and is written empty.
 */
export function eventInput(src: Json, links: LocalLinks, authorId: number | undefined): { input: Json; missing: string[] } {
  const missing: string[] = [];
  const { venue, organizers } = linkedGlobalIds(src);
  let venueId: number | undefined;
  if (venue) {
    venueId = links.venue(venue);
    if (venueId === undefined) missing.push(`venue ${venue}`);
  }
  const organizerIds: number[] = [];
  for (const g of organizers) {
    const id = links.organizer(g);
    if (id === undefined) missing.push(`organizer ${g}`);
    else organizerIds.push(id);
  }
  const terms = (taxonomy: 'category' | 'tag', list: unknown) =>
    termIds(list).flatMap((id) => {
      const local = links.term(taxonomy, id);
      if (local === undefined) missing.push(`${taxonomy} ${id}`);
      return local === undefined ? [] : [String(local)];
    });
  const input: Json = {
    title: str(src.title),
    description: nonEmpty(src.description),
    excerpt: nonEmpty(src.excerpt),
    start_date: str(src.start_date),
    end_date: str(src.end_date),
    timezone: str(src.timezone),
    all_day: bool(src.all_day),
    cost: costStrings(src.cost_details, src.cost),
    website: str(src.website) === str(src.url) ? '' : str(src.website),
    show_map: bool(src.show_map),
    show_map_link: bool(src.show_map_link),
    hide_from_listings: bool(src.hide_from_listings),
    sticky: bool(src.sticky),
    featured: bool(src.featured),
    image: imageUrl(src.image),
    venue: venueId ?? 0,
    organizer: organizerIds,
    categories: terms('category', src.categories),
    tags: terms('tag', src.tags),
    ...itemFields(src, authorId),
  };
  return { input, missing };
}

/**
 * Categories in an order where every parent comes before its children (by source parent id).
 * A category whose parent is not in the list counts as top level; a cycle comes last.
 */
export function parentsFirst(categories: Json[]): Json[] {
  // The order of placing them pass after pass over the list (a category goes in the first pass
  // that finds its parent placed), computed without the passes: a category's pass is its
  // parent's when the parent comes earlier in the list, else the one after. O(n log n), where
  // the passes were O(n²) on a long chain of children listed before their parents.
  const index = new Map<number, number>();
  categories.forEach((c, i) => index.set(c.id as number, i));
  const pass = new Array<number>(categories.length).fill(0); // 0: not known yet; -1: in a cycle
  const parentIndex = (i: number): number | undefined => {
    const parent = typeof categories[i].parent === 'number' ? (categories[i].parent as number) : 0;
    return parent === 0 ? undefined : index.get(parent);
  };
  for (let i = 0; i < categories.length; i++) {
    if (pass[i] !== 0) continue;
    // Up the chain of parents to one whose pass is known (or a root), then back down.
    const chain: number[] = [];
    const onChain = new Set<number>();
    let at: number | undefined = i;
    while (at !== undefined && pass[at] === 0 && !onChain.has(at)) {
      chain.push(at);
      onChain.add(at);
      at = parentIndex(at);
    }
    if (at !== undefined && onChain.has(at)) {
      // A cycle: its members, and whatever hangs under them, are never placed.
      for (const j of chain) pass[j] = -1;
      continue;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      const j = chain[k];
      const p = parentIndex(j);
      if (p === undefined) pass[j] = 1;
      else if (pass[p] === -1) pass[j] = -1;
      else pass[j] = p < j ? pass[p] : pass[p] + 1;
    }
  }
  const order = categories.map((_, i) => i);
  const placed = order.filter((i) => pass[i] > 0).sort((a, b) => pass[a] - pass[b] || a - b);
  return [...placed, ...order.filter((i) => pass[i] === -1)].map((i) => categories[i]);
}
