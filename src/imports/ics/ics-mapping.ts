import ICAL from 'ical.js';
import { autop } from '../../common/text/autop';
import { sanitizeHtml } from '../../common/text/sanitize';

// The parts of a VEVENT that are not times, as the API's event fields (endpoints.md §4.3;
// docs/compatibility.md, "Importing iCalendar files", says what maps to what and why).

/** A venue as the API's nested venue fields (endpoints.md §5.2), plus GEO as the geo extension's fields. */
export interface VenueInput {
  venue: string;
  address?: string;
  geo_lat?: number;
  geo_lng?: number;
}

/** An organizer as the API's nested organizer fields. */
export interface OrganizerInput {
  organizer: string;
  email?: string;
}

/** What a VEVENT says besides its times. */
export interface EventFields {
  title: string;
  description?: string;
  website?: string;
  categories: string[];
  venue?: VenueInput;
  organizer?: OrganizerInput;
}

/** The title of an event without SUMMARY (the API needs one). */
export const UNTITLED = '(no title)';

const text = (v: ICAL.Component, name: string): string => {
  const value = v.getFirstPropertyValue(name);
  return typeof value === 'string' ? value.trim() : '';
};

/** `<` that could open a tag, escaped: a plain-text title must not lose `<b>` to the tag filter. */
export function plainToTitle(summary: string): string {
  return summary
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

/** Plain text as HTML paragraphs, `&`, `<`, `>` escaped (blank lines separate paragraphs). */
export function plainToHtml(plain: string): string {
  return autop(plain.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/**
 * The description: X-ALT-DESC;FMTTYPE=text/html when there is one (Outlook, and this service's
 * own export), else DESCRIPTION as plain text. The HTML is always sanitised as an API write by
 * a user without unfiltered HTML is: a calendar file is outside content, even when the importing
 * user is an administrator. ical.js leaves X- property values escaped, so they are unescaped here.
 */
export function descriptionOf(v: ICAL.Component): string | undefined {
  const alt = v.getAllProperties('x-alt-desc').find((p) => String(p.getParameter('fmttype') ?? '').toLowerCase() === 'text/html');
  const html = alt ? unescapeText(String(alt.getFirstValue() ?? '')).trim() : '';
  if (html !== '' && !/^<!DOCTYPE[^>]*>\s*<html[^>]*>\s*<head[^>]*>\s*<\/head>\s*<body[^>]*>\s*<\/body>\s*<\/html>\s*$/i.test(html))
    return sanitizeHtml(bodyOf(html));
  const plain = text(v, 'description');
  return plain === '' ? undefined : plainToHtml(plain);
}

/** Outlook wraps X-ALT-DESC in a whole document: the body is what is kept. */
function bodyOf(html: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html);
  return (body ? body[1] : html).trim();
}

/** TEXT unescaping (RFC 5545 §3.3.11) for values ical.js hands over as written. */
export function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/**
 * LOCATION as a venue. Apple writes the place's name and its address on separate lines; others
 * write one line, commas between the parts (this service's export: name, address, city, state,
 * zip, country). The first line, or else the first comma part, is the venue's name; the rest,
 * joined with `, `, is its address. GEO gives coordinates.
 */
export function venueOf(location: string, geo: unknown): VenueInput | undefined {
  const lines = location
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) return undefined;
  const parts = lines.length > 1 ? lines : splitCommas(lines[0]);
  const [name, ...rest] = parts;
  const venue: VenueInput = { venue: name };
  const address = rest.join(', ');
  if (address !== '') venue.address = address;
  if (Array.isArray(geo) && geo.length === 2 && geo.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    const [lat, lng] = geo as [number, number];
    if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && (lat !== 0 || lng !== 0)) Object.assign(venue, { geo_lat: lat, geo_lng: lng });
  }
  return venue;
}

const splitCommas = (line: string) =>
  line
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');

/** ORGANIZER;CN=name:mailto:address → name and e-mail; without CN the address is the name. */
export function organizerOf(v: ICAL.Component): OrganizerInput | undefined {
  const prop = v.getFirstProperty('organizer');
  if (!prop) return undefined;
  const value = String(prop.getFirstValue() ?? '').trim();
  const email = /^mailto:/i.test(value) ? decodeURIComponent(value.slice(7)).trim() : '';
  const cn = prop.getParameter('cn');
  const name = (typeof cn === 'string' ? cn : '').trim() || email || value;
  if (name === '') return undefined;
  return email !== '' ? { organizer: name, email } : { organizer: name };
}

/** Every CATEGORIES value (the property may repeat and holds a list), trimmed, first spelling kept. */
export function categoriesOf(v: ICAL.Component): string[] {
  const names: string[] = [];
  for (const prop of v.getAllProperties('categories')) {
    for (const value of prop.getValues()) {
      const name = String(value).trim();
      if (name !== '' && !names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
    }
  }
  return names;
}

/** URL as the event's website when it is an absolute http(s) URL (the API's website field takes nothing else). */
export function websiteOf(v: ICAL.Component): string | undefined {
  const url = text(v, 'url');
  return /^https?:\/\/\S+$/i.test(url) ? url : undefined;
}

/** Everything a VEVENT says besides its times. */
export function eventFields(v: ICAL.Component): EventFields {
  const summary = plainToTitle(text(v, 'summary'));
  const fields: EventFields = { title: summary === '' ? UNTITLED : summary, categories: categoriesOf(v) };
  const description = descriptionOf(v);
  if (description !== undefined) fields.description = description;
  const website = websiteOf(v);
  if (website !== undefined) fields.website = website;
  const venue = venueOf(text(v, 'location'), v.getFirstPropertyValue('geo'));
  if (venue) fields.venue = venue;
  const organizer = organizerOf(v);
  if (organizer) fields.organizer = organizer;
  return fields;
}
