// A source's write body (sources.md §2), read and checked (pure). What needs the database (the
// author's login, category names, the URL's addresses) is checked by SourcesService after this.
import { invalidParams, PARAM_MESSAGES } from '../common/errors';
import { INVALID, toInt, toNameList, toStrictBool } from '../common/params';

export type SourceKind = 'tec' | 'ics';
export const SOURCE_KINDS: readonly SourceKind[] = ['tec', 'ics'];
export const SOURCE_STATUSES = ['publish', 'draft', 'pending'] as const;
export const ON_SOURCE_DELETE = ['trash', 'keep'] as const;

/** sources.md §2: `0` or at least 15 minutes; at most a year. */
export const MIN_INTERVAL_MINUTES = 15;
export const MAX_INTERVAL_MINUTES = 525_600;
/** The window an `ics` run expands recurring events over, in days from the run (default [-30, 365]). */
export const DEFAULT_WINDOW: readonly [number, number] = [-30, 365];
const MAX_WINDOW_DAYS = 3650;

/** The fields a create or update gives, checked; absent ones are undefined (`null` clears login/password). */
export interface SourceWrite {
  kind?: SourceKind;
  url?: string;
  interval_minutes?: number;
  enabled?: boolean;
  status?: (typeof SOURCE_STATUSES)[number];
  /** Ids (numbers) or names, as given. */
  categories?: (number | string)[];
  author?: string;
  login?: string | null;
  password?: string | null;
  window_days?: [number, number];
  keep_local_edits?: boolean;
  on_source_delete?: (typeof ON_SOURCE_DELETE)[number];
}

const isGiven = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * Reads a create (`current` undefined) or an update of a source of kind `current`; throws 400
 * `rest_invalid_param` naming every bad field. Unknown and read-only fields are ignored.
 */
export function readSourceWrite(body: Record<string, unknown>, current?: SourceKind): SourceWrite {
  const bad: Record<string, string> = {};
  const out: SourceWrite = {};
  const kind = readKind(body.kind, current, bad);
  if (kind) out.kind = kind;

  if (isGiven(body.url)) {
    const url = typeof body.url === 'string' ? body.url.trim() : '';
    if (!/^https?:\/\/[^/?#]+/i.test(url) || !URL.canParse(url)) bad.url = 'Must be an absolute http(s) URL.';
    else out.url = url;
  } else if (current === undefined) bad.url = 'Must be an absolute http(s) URL.';

  if (isGiven(body.interval_minutes)) {
    const n = toInt(body.interval_minutes);
    if (n === INVALID || (n !== 0 && (n < MIN_INTERVAL_MINUTES || n > MAX_INTERVAL_MINUTES)))
      bad.interval_minutes = `Must be 0 (only when run by hand) or a whole number of minutes from ${MIN_INTERVAL_MINUTES} to ${MAX_INTERVAL_MINUTES}.`;
    else out.interval_minutes = n;
  }
  for (const field of ['enabled', 'keep_local_edits'] as const) {
    if (!isGiven(body[field])) continue;
    const flag = toStrictBool(body[field]);
    if (flag === INVALID) bad[field] = PARAM_MESSAGES.boolean;
    else out[field] = flag;
  }
  if (isGiven(body.status)) {
    if (!SOURCE_STATUSES.includes(body.status as never)) bad.status = `Must be one of ${SOURCE_STATUSES.join(', ')}.`;
    else out.status = body.status as SourceWrite['status'];
  }
  if (isGiven(body.on_source_delete)) {
    if (!ON_SOURCE_DELETE.includes(body.on_source_delete as never)) bad.on_source_delete = `Must be one of ${ON_SOURCE_DELETE.join(', ')}.`;
    else out.on_source_delete = body.on_source_delete as SourceWrite['on_source_delete'];
  }
  if (isGiven(body.categories)) {
    const list = readCategories(body.categories);
    if (list === INVALID) bad.categories = 'Must be a list of category ids or names.';
    else out.categories = list;
  }
  if (isGiven(body.author)) {
    if (typeof body.author !== 'string' || body.author.trim() === '') bad.author = 'Must be the login of an existing user.';
    else out.author = body.author.trim();
  }
  for (const field of ['login', 'password'] as const) {
    if (body[field] === undefined) continue;
    if (kind === 'ics' || (kind === undefined && current === 'ics')) bad[field] = 'Only a tec source has credentials.';
    else if (body[field] !== null && typeof body[field] !== 'string') bad[field] = PARAM_MESSAGES.string;
    else out[field] = body[field] === '' ? null : (body[field] as string | null);
  }
  if (isGiven(body.window_days)) {
    const window = readWindow(body.window_days);
    if ((kind ?? current) === 'tec') bad.window_days = 'Only an ics source has a window.';
    else if (window === INVALID)
      bad.window_days = `Must be [from, to]: whole numbers of days from -${MAX_WINDOW_DAYS} to ${MAX_WINDOW_DAYS}, from not after to.`;
    else out.window_days = window;
  }
  if (Object.keys(bad).length > 0) throw invalidParams(bad);
  return out;
}

function readKind(value: unknown, current: SourceKind | undefined, bad: Record<string, string>): SourceKind | undefined {
  if (!isGiven(value)) {
    if (current === undefined) bad.kind = `Must be one of ${SOURCE_KINDS.join(', ')}.`;
    return undefined;
  }
  if (!SOURCE_KINDS.includes(value as SourceKind)) {
    bad.kind = `Must be one of ${SOURCE_KINDS.join(', ')}.`;
    return undefined;
  }
  if (current !== undefined && value !== current) {
    bad.kind = 'A source keeps its kind; create another source instead.';
    return undefined;
  }
  return value as SourceKind;
}

/** Ids and names: a JSON array of both, or a comma list (as event writes take categories). */
function readCategories(value: unknown): (number | string)[] | typeof INVALID {
  if (Array.isArray(value)) {
    const items: (number | string)[] = [];
    for (const v of value) {
      if (typeof v === 'number' && Number.isInteger(v) && v > 0) items.push(v);
      else if (typeof v === 'string' && v.trim() !== '') items.push(/^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim());
      else return INVALID;
    }
    return items;
  }
  const list = toNameList(value);
  if (list === INVALID) return INVALID;
  return list.items.map((v) => (/^\d+$/.test(v) ? Number(v) : v));
}

function readWindow(value: unknown): [number, number] | typeof INVALID {
  const pair = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(pair) || pair.length !== 2) return INVALID;
  const [from, to] = pair.map((v) => toInt(typeof v === 'string' ? v.trim() : v));
  if (from === INVALID || to === INVALID || from > to || Math.abs(from) > MAX_WINDOW_DAYS || Math.abs(to) > MAX_WINDOW_DAYS) return INVALID;
  return [from, to];
}
