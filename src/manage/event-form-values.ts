import { DateTime } from 'luxon';
import type { EventEntity } from '../events';
import { storedCost } from '../events';
import { type EventFormField, type EventFormHook, formFields } from './event-form-hooks';

type Json = Record<string, unknown>;

/** The fields of a new venue made in place, in the order the form shows them: write parameter → label. */
export const NEW_VENUE_FIELDS = [
  ['venue', 'Venue name'],
  ['address', 'Address'],
  ['city', 'City'],
  ['country', 'Country'],
  ['province', 'State or province'],
  ['zip', 'Postal code'],
  ['phone', 'Venue phone'],
] as const;

/** The fields of a new organizer made in place: write parameter → label. */
export const NEW_ORGANIZER_FIELDS = [
  ['organizer', 'Organizer name'],
  ['email', 'Organizer e-mail'],
  ['phone', 'Organizer phone'],
  ['website', 'Organizer website'],
] as const;

/** The on/off fields of an event, write parameter → label. */
export const EVENT_FLAGS = [
  ['featured', 'Featured'],
  ['sticky', 'Sticky in month view'],
  ['hide_from_listings', 'Hide from listings'],
  ['show_map', 'Show map'],
  ['show_map_link', 'Show map link'],
] as const;

export type EventFlag = (typeof EVENT_FLAGS)[number][0];

/**
 * What the event form holds, as text the way its inputs hold it: filled from the stored event
 * when it opens, from the post when it comes back (nothing the user typed is lost).
 */
export interface EventFormValues {
  title: string;
  description: string;
  excerpt: string;
  start_date: string;
  start_time: string;
  end_date: string;
  end_time: string;
  all_day: boolean;
  timezone: string;
  /** `''` no venue, `new` the venue made in place, else an id. */
  venue: string;
  new_venue: Record<string, string>;
  venue_search: string;
  venue_page: number;
  /** Ids of the chosen organizers, in order; `new` for the one made in place. */
  organizers: string[];
  new_organizer: Record<string, string>;
  organizer_search: string;
  organizer_page: number;
  categories: string[];
  /** One tag name per line. */
  tags: string;
  cost: string;
  website: string;
  image: string;
  status: string;
  /** `YYYY-MM-DDTHH:MM` in the event's zone (datetime-local); empty on a new event: now. */
  publish_date: string;
  flags: Record<EventFlag, boolean>;
  /** The form hooks' fields by write parameter (a checkbox: `1` or empty). */
  ext: Record<string, string>;
  /** The form hooks' sections' own posted parts, by hook name. */
  sections: Record<string, Json>;
  /** Answers to the sections' questions, by parameter. */
  answers: Record<string, string>;
}

/** The values of a new event's form: an hour from the next whole hour, in the site zone. */
export function newEventValues(zone: string, hooks: readonly EventFormHook[]): EventFormValues {
  const start = DateTime.now().setZone(zone).startOf('hour').plus({ hours: 1 });
  const end = start.plus({ hours: 1 });
  return {
    title: '',
    description: '',
    excerpt: '',
    start_date: start.toISODate() ?? '',
    start_time: start.toFormat('HH:mm'),
    end_date: end.toISODate() ?? '',
    end_time: end.toFormat('HH:mm'),
    all_day: false,
    timezone: zone,
    venue: '',
    new_venue: {},
    venue_search: '',
    venue_page: 1,
    organizers: [],
    new_organizer: {},
    organizer_search: '',
    organizer_page: 1,
    categories: [],
    tags: '',
    cost: '',
    website: '',
    image: '',
    status: '',
    publish_date: '',
    flags: { featured: false, sticky: false, hide_from_listings: false, show_map: true, show_map_link: true },
    ext: Object.fromEntries(formFields(hooks).map((f) => [f.param, ''])),
    sections: {},
    answers: {},
  };
}

/** The form's values of a stored event: its row for what it holds as typed, its representation for links and the form hooks' fields. */
export function storedEventValues(e: EventEntity, body: Json, hooks: readonly EventFormHook[]): EventFormValues {
  const ids = (list: unknown) => (Array.isArray(list) ? list.map((x) => String((x as Json).id)) : []);
  const image = body.image as Json | false;
  return {
    title: e.title,
    description: e.description,
    excerpt: e.excerpt,
    start_date: e.startDate.slice(0, 10),
    start_time: e.startDate.slice(11, 16),
    end_date: e.endDate.slice(0, 10),
    end_time: e.endDate.slice(11, 16),
    all_day: e.allDay,
    timezone: e.timezone,
    venue: e.venueId === null ? '' : String(e.venueId),
    new_venue: {},
    venue_search: '',
    venue_page: 1,
    organizers: ids(body.organizer),
    new_organizer: {},
    organizer_search: '',
    organizer_page: 1,
    categories: ids(body.categories),
    tags: Array.isArray(body.tags) ? body.tags.map((t) => String((t as Json).name)).join('\n') : '',
    cost: storedCost(e.cost).join(', '),
    website: e.website,
    image: image && typeof image.url === 'string' ? image.url : '',
    status: e.status,
    publish_date: publishDate(e),
    flags: { featured: e.featured, sticky: e.sticky, hide_from_listings: e.hideFromListings, show_map: e.showMap, show_map_link: e.showMapLink },
    ext: Object.fromEntries(formFields(hooks).map((f) => [f.param, storedExtValue(f, body)])),
    sections: {},
    answers: {},
  };
}

/** The values as posted (application/x-www-form-urlencoded through qs): anything missing or odd is empty. */
export function postedValues(body: Json, hooks: readonly EventFormHook[]): EventFormValues {
  const flags = Object.fromEntries(EVENT_FLAGS.map(([name]) => [name, body[name] !== undefined])) as Record<EventFlag, boolean>;
  const ext = asObject(body.ext);
  const sections: Record<string, Json> = {};
  for (const hook of hooks) if (hook.formSection) sections[hook.name] = asObject(body[`ext_${hook.name}`]);
  const answers: Record<string, string> = {};
  for (const [key, value] of Object.entries(asObject(body.answers))) answers[key] = text(value);
  return {
    title: text(body.title),
    description: text(body.description),
    excerpt: text(body.excerpt),
    start_date: text(body.start_date),
    start_time: text(body.start_time),
    end_date: text(body.end_date),
    end_time: text(body.end_time),
    all_day: body.all_day !== undefined,
    timezone: text(body.timezone),
    venue: text(body.venue),
    new_venue: texts(body.new_venue, NEW_VENUE_FIELDS),
    venue_search: text(body.venue_search),
    venue_page: page(body.venue_page),
    organizers: list(body.organizers),
    new_organizer: texts(body.new_organizer, NEW_ORGANIZER_FIELDS),
    organizer_search: text(body.organizer_search),
    organizer_page: page(body.organizer_page),
    categories: list(body.categories),
    tags: text(body.tags),
    cost: text(body.cost),
    website: text(body.website),
    image: text(body.image),
    status: text(body.status),
    publish_date: text(body.publish_date),
    flags,
    ext: Object.fromEntries(formFields(hooks).map((f) => [f.param, f.kind === 'checkbox' ? (ext[f.param] !== undefined ? '1' : '') : text(ext[f.param])])),
    sections,
    answers,
  };
}

/**
 * The write's input, exactly as a client of POST /events (create) or POST /events/{id} would
 * send it: dates as `YYYY-MM-DD HH:MM:SS` in the chosen zone, the venue by id or as the fields of
 * a new one (the API's nested input), organizers as ids and one new organizer's fields, terms
 * by id (categories) and by name (tags, one a line: a comma belongs to the name), flags as
 * booleans, the form hooks' fields under their parameters.
 */
export function writeInput(v: EventFormValues, stored: EventEntity | null, hooks: readonly EventFormHook[]): Json {
  const create = stored === null;
  const input: Json = { title: v.title };
  // The API takes no empty description or excerpt; a new event simply has none.
  if (v.description.trim() !== '' || (!create && stored.description !== '')) input.description = v.description;
  if (v.excerpt.trim() !== '' || (!create && stored.excerpt !== '')) input.excerpt = v.excerpt;
  input.all_day = v.all_day;
  // A time left as it was is sent as stored: the form's minutes must not drop a stored time's seconds.
  input.start_date = unchanged(wallTime(v.start_date, v.start_time, v.all_day, '00:00'), stored?.startDate);
  input.end_date = unchanged(wallTime(v.end_date, v.end_time, v.all_day, '23:59'), stored?.endDate);
  input.timezone = v.timezone;
  if (v.venue === 'new') input.venue = Object.fromEntries(Object.entries(v.new_venue).filter(([, value]) => value.trim() !== ''));
  else if (v.venue !== '') input.venue = v.venue;
  else if (!create) input.venue = 0;
  const organizers: unknown[] = v.organizers.filter((id) => /^\d+$/.test(id));
  if (v.organizers.includes('new')) organizers.push(Object.fromEntries(Object.entries(v.new_organizer).filter(([, value]) => value.trim() !== '')));
  if (organizers.length > 0 || !create) input.organizer = organizers;
  input.categories = v.categories.filter((id) => /^\d+$/.test(id)).map(Number);
  input.tags = tagNames(v.tags);
  input.cost = v.cost;
  input.website = v.website.trim();
  if (v.image.trim() !== '' || !create) input.image = v.image.trim();
  if (v.status !== '') input.status = v.status;
  // The publish date is sent only when it was changed (or given for a new event), so a save never moves it by its seconds.
  if (v.publish_date !== '' && (create || v.publish_date !== publishDate(stored))) input.date = v.publish_date.replace('T', ' ');
  for (const [name] of EVENT_FLAGS) input[name] = v.flags[name];
  for (const field of formFields(hooks)) {
    const value = v.ext[field.param] ?? '';
    input[field.param] = field.kind === 'checkbox' ? value !== '' : value;
  }
  return input;
}

/** Tags as typed: one name a line, blank lines and repeats dropped. */
export function tagNames(typed: string): string[] {
  const names: string[] = [];
  for (const line of typed.split(/\r?\n/)) {
    const name = line.trim();
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The end is before the start (the form refuses it; the API would move it). Dates and times compare as text. */
export function endBeforeStart(v: EventFormValues): boolean {
  const start = wallTime(v.start_date, v.start_time, v.all_day, '00:00');
  const end = wallTime(v.end_date, v.end_time, v.all_day, '23:59');
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(start) && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(end) && end < start;
}

/** The stored publish date as the form shows it: `YYYY-MM-DDTHH:MM` in the event's zone. */
function publishDate(e: EventEntity): string {
  return DateTime.fromSQL(e.dateUtc, { zone: 'utc' }).setZone(e.timezone).toFormat("yyyy-MM-dd'T'HH:mm");
}

/** `typed` (minutes), or the stored wall time when it is the same minute. */
function unchanged(typed: string, stored: string | undefined): string {
  return stored !== undefined && stored.slice(0, 16) === typed.slice(0, 16) ? stored : typed;
}

function storedExtValue(field: EventFormField, body: Json): string {
  if (field.value) return field.value(body);
  const value = body[field.param];
  if (field.kind === 'checkbox') return value === true ? '1' : '';
  return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean);
}

/** `date` + `time` as the API's wall time; an all-day event's times are the day's bounds (the API sets them so too). */
function wallTime(date: string, time: string, allDay: boolean, allDayTime: string): string {
  const hhmm = allDay || time.trim() === '' ? allDayTime : time.trim().slice(0, 5);
  return `${date.trim()} ${hhmm}:${allDayTime === '23:59' && (allDay || time.trim() === '') ? '59' : '00'}`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function page(value: unknown): number {
  const n = Number(text(value));
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

function list(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
}

function asObject(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function texts(value: unknown, fields: readonly (readonly [string, string])[]): Record<string, string> {
  const given = asObject(value);
  return Object.fromEntries(fields.map(([name]) => [name, text(given[name])]));
}
