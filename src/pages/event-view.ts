import { DateTime } from 'luxon';
import { toIsoWithOffset } from '../common/datetime/format';
import { requireZone, timezoneAbbr } from '../common/datetime/zones';
import { stripTags } from '../common/text/autop';

type Json = Record<string, unknown>;

/** The members of an event (resources.md §1) the pages read. */
export interface EventJson {
  id: number;
  title: string;
  url: string;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  timezone_abbr: string;
  all_day: boolean;
  cost?: string;
  description?: string;
  excerpt?: string;
  website?: string;
  image?: false | { url: string; width?: number; height?: number; alt?: string };
  venue?: [] | Json;
  organizer?: Json[];
  categories?: { name: string; slug: string; url: string }[];
  tags?: { name: string; slug: string; url: string }[];
  featured?: boolean;
  modified_utc?: string;
  json_ld?: Json;
}

/** When an event happens, worded for a reader, with machine-readable instants for `<time>`. */
export interface EventWhen {
  /** The dates and times in the event's zone, with its abbreviation (`Sat 14 March 2026, 19:00 – 21:30 CET`). */
  text: string;
  /** The same span in the site zone, when that zone shows other wall times; else undefined. */
  siteText?: string;
  /**
   * Start and end for `<time datetime>` and the h-event's `dt-start`/`dt-end`: a timed event's
   * instants at the event zone's offset (`2026-12-24T19:00:00+01:00`, never `Z`, as its JSON-LD);
   * an all-day event's first and last dates (`2026-12-24`), the last one included.
   */
  startIso: string;
  endIso: string;
  allDay: boolean;
  multiDay: boolean;
}

const DAY = 'cccc d LLLL yyyy';
const DAY_NO_YEAR = 'cccc d LLLL';
const TIME = 'HH:mm';

/** The instants of an event, in the zone it is written in. */
function instants(e: EventJson, zone: string): { start: DateTime; end: DateTime } {
  const z = requireZone(zone);
  return {
    start: DateTime.fromSQL(e.utc_start_date, { zone: 'utc' }).setZone(z),
    end: DateTime.fromSQL(e.utc_end_date, { zone: 'utc' }).setZone(z),
  };
}

/**
 * Wording of an event's dates (pages.md, single event): all-day events name their day or days
 * ("All day"); timed ones give times in the event's zone with its abbreviation (both when the
 * span crosses a change of offset); the site zone is added when its wall times differ.
 */
export function eventWhen(e: EventJson, siteZone: string): EventWhen {
  if (e.all_day) {
    // All-day events are dates, not instants: their wall dates are what they say, in any zone.
    // The end is the last day, as the reader sees it and as the API's end_date (23:59:59) says; an
    // h-event's dt-end of a date is read that way (microformats' "dtend issue": inclusive end dates),
    // unlike iCalendar's DTEND, which the .ics export gives as the day after.
    const start = DateTime.fromSQL(e.start_date);
    const end = DateTime.fromSQL(e.end_date);
    const multiDay = start.toISODate() !== end.toISODate();
    const text = multiDay ? `${dayRange(start, end)} · All day` : `${start.toFormat(DAY)} · All day`;
    return { text, startIso: start.toISODate()!, endIso: end.toISODate()!, allDay: true, multiDay };
  }
  const { start, end } = instants(e, e.timezone);
  const multiDay = start.toISODate() !== end.toISODate();
  const text = timedSpan(start, end, e.timezone, e.timezone_abbr);
  const site = instants(e, siteZone);
  const differs = site.start.toFormat('yyyy-MM-dd HH:mm') !== start.toFormat('yyyy-MM-dd HH:mm') || site.end.offset !== end.offset;
  return {
    text,
    siteText: differs ? timedSpan(site.start, site.end, siteZone, timezoneAbbr(siteZone, site.start.toUTC())) : undefined,
    startIso: toIsoWithOffset(start),
    endIso: toIsoWithOffset(end),
    allDay: false,
    multiDay,
  };
}

function timedSpan(start: DateTime, end: DateTime, zone: string, startAbbr: string): string {
  const abbr = startAbbr || timezoneAbbr(zone, start.toUTC());
  const endAbbr = timezoneAbbr(zone, end.toUTC()) || abbr;
  if (start.toISODate() === end.toISODate()) {
    const sameAbbr = endAbbr === abbr;
    return `${start.toFormat(DAY)}, ${start.toFormat(TIME)}${sameAbbr ? '' : ` ${abbr}`} – ${end.toFormat(TIME)} ${endAbbr}`;
  }
  const startPart = `${start.toFormat(DAY)}, ${start.toFormat(TIME)}${endAbbr === abbr ? '' : ` ${abbr}`}`;
  return `${startPart} – ${end.toFormat(DAY)}, ${end.toFormat(TIME)} ${endAbbr}`;
}

function dayRange(start: DateTime, end: DateTime): string {
  return start.year === end.year ? `${start.toFormat(DAY_NO_YEAR)} – ${end.toFormat(DAY)}` : `${start.toFormat(DAY)} – ${end.toFormat(DAY)}`;
}

/** The short time of an event in a list or a grid cell: "All day", "19:00", or "from Fri 13" for a multi-day event seen on a later day. */
export function shortTime(e: EventJson, day: string | undefined): string {
  if (e.all_day) return 'All day';
  const { start } = instants(e, e.timezone);
  if (day !== undefined && e.start_date.slice(0, 10) < day) return `continues, from ${start.toFormat('ccc d LLL')}`;
  return `${start.toFormat(TIME)} ${e.timezone_abbr}`.trim();
}

/** Text of a stored title or name: tags removed, entities decoded (the template escapes it again). */
export const plain = (text: unknown): string => (typeof text === 'string' ? stripTags(text) : '');

/** A Google Calendar "add" link (TEMPLATE action) for the event. */
export function googleCalendarLink(e: EventJson, location: string): string {
  const dates = e.all_day
    ? `${compactDate(e.start_date)}/${compactDate(DateTime.fromSQL(e.end_date).plus({ days: 1 }).toFormat('yyyy-MM-dd'))}`
    : `${compactUtc(e.utc_start_date)}/${compactUtc(e.utc_end_date)}`;
  const params = new URLSearchParams({ action: 'TEMPLATE', text: plain(e.title), dates, details: `${excerptText(e)}\n\n${e.url}`.trim() });
  if (location !== '') params.set('location', location);
  if (!e.all_day) params.set('ctz', e.timezone);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

const compactDate = (sqlDate: string) => sqlDate.slice(0, 10).replace(/-/g, '');
const compactUtc = (sql: string) => `${sql.slice(0, 10).replace(/-/g, '')}T${sql.slice(11, 19).replace(/:/g, '')}Z`;

function excerptText(e: EventJson): string {
  const text = plain(e.excerpt ?? '') || plain(e.description ?? '');
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

/** A part of a venue's address, named as h-adr names it (microformats2), with the text written before it on the line. */
export interface AddressPart {
  name: 'street-address' | 'locality' | 'region' | 'postal-code' | 'country-name';
  text: string;
  before: string;
}

/** A venue's address as the parts of venueAddress's line, empty parts left out. */
export function addressParts(venue: Json): AddressPart[] {
  const parts: AddressPart[] = [];
  const fields = [
    ['street-address', venue.address],
    ['locality', venue.city],
    ['region', venue.stateprovince],
    ['postal-code', venue.zip],
    ['country-name', venue.country],
  ] as const;
  for (const [name, value] of fields) {
    const text = plain(value);
    if (text === '') continue;
    // The region and the postal code share one comma-separated part ("NRW 53111").
    const before = parts.length === 0 ? '' : name === 'postal-code' && parts[parts.length - 1].name === 'region' ? ' ' : ', ';
    parts.push({ name, text, before });
  }
  return parts;
}

/** A venue's address in one line ("Street, City, Region Zip, Country"), empty parts left out. */
export function venueAddress(venue: Json): string {
  return addressParts(venue)
    .map((p) => p.before + p.text)
    .join('');
}

/**
 * A map link that needs no script on our page (pages.md): OpenStreetMap centred on the
 * coordinates when the venue has them (geo extension), else a search for the address.
 */
export function mapLink(venue: Json): string | undefined {
  if (venue.show_map_link === false) return undefined;
  const lat = Number(venue.geo_lat);
  const lng = Number(venue.geo_lng);
  if (venue.geo_lat !== undefined && Number.isFinite(lat) && Number.isFinite(lng)) {
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;
  }
  const query = [plain(venue.venue), venueAddress(venue)].filter(Boolean).join(', ');
  return query === '' ? undefined : `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`;
}

/**
 * JSON for a `<script type="application/ld+json">` element: no stored text can end the element
 * or open a comment there (`<`, `>` and `&` as JSON escapes), and U+2028/U+2029 are escaped for
 * older parsers that take them as line ends.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
