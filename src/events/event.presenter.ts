import { DateTime } from 'luxon';
import { dateDetails, DateDetails, isoAtWallTime, isoStartOfDay, utcSqlMillis } from '../common/datetime/format';
import { timezoneAbbr } from '../common/datetime/zones';
import { effectiveStatus, globalIdFields, publicationFields, type RecordExtras } from '../items';
import { autop, firstWords, plainJsonLd, stripTags } from '../common/text/autop';
import type { ApiLinks } from '../common/http/api-links';
import type { AppConfig } from '../config/app-config';
import type { ImageJson } from '../media';
import type { TermJson } from '../taxonomies';
import { offerPrice, parseCost } from './cost';
import type { EventEntity } from './entities/event.entity';

type Json = Record<string, unknown>;

/** What a page of events needs besides the rows, each loaded in one query for the whole page. */
export interface EventRelations {
  images: Map<number, ImageJson>;
  terms: Map<number, TermJson[]>;
  venues: Map<number, Json>;
  organizers: Map<number, Json>;
  organizerIds: Map<number, number[]>;
  /** What the event hooks add, by event id (EventHooks.present). */
  extras?: Map<number, RecordExtras>;
}

export interface PresentOptions {
  /** Single reads of a readable event carry JSON-LD (spec resources.md §7). */
  jsonLd: boolean;
  nowUtc: string;
  /** How the request named the API: `rest_url` is written in that form (compat.md). */
  links: ApiLinks;
}

/** An event as spec resources.md §1 gives it, keys in order. */
export function presentEvent(e: EventEntity, rel: EventRelations, config: Pick<AppConfig, 'baseUrl' | 'publicUrl' | 'timezone'>, opts: PresentOptions): Json {
  const url = `${config.publicUrl}/event/${e.slug}/`;
  const costs = parseCost(storedCost(e.cost));
  const terms = rel.terms.get(e.id) ?? [];
  const venue = e.venueId !== null ? rel.venues.get(e.venueId) : undefined;
  const organizers = (rel.organizerIds.get(e.id) ?? []).map((id) => rel.organizers.get(id)).filter((o): o is Json => o !== undefined);
  const image = e.imageId !== null ? rel.images.get(e.imageId) : undefined;
  const startUtc = DateTime.fromMillis(utcSqlMillis(e.startDateUtc), { zone: 'utc' });

  const json: Json = {
    id: e.id,
    ...globalIdFields(config.baseUrl, e.id),
    author: String(e.authorId),
    status: effectiveStatus(e.status, e.dateUtc, opts.nowUtc),
    ...publicationFields(e, config.timezone),
    url,
    rest_url: opts.links.href(`/events/${e.id}`),
    title: e.title.trim(),
    description: autop(e.description),
    excerpt: autop(e.excerpt),
    slug: e.slug,
    image: image ?? false,
    all_day: e.allDay,
    start_date: e.startDate,
    start_date_details: dateDetails(e.startDate),
    end_date: e.endDate,
    end_date_details: dateDetails(e.endDate),
    utc_start_date: e.startDateUtc,
    utc_start_date_details: dateDetails(e.startDateUtc),
    utc_end_date: e.endDateUtc,
    utc_end_date_details: dateDetails(e.endDateUtc),
    timezone: e.timezone,
    timezone_abbr: timezoneAbbr(e.timezone, startUtc),
    cost: costs.cost,
    cost_details: costs.cost_details,
    website: e.website !== '' ? e.website : url,
    show_map: e.showMap,
    show_map_link: e.showMapLink,
    hide_from_listings: e.hideFromListings,
    sticky: e.sticky,
    featured: e.featured,
    categories: terms.filter((t) => t.taxonomy === 'category'),
    tags: terms.filter((t) => t.taxonomy === 'tag'),
    venue: venue ?? [],
    organizer: organizers,
    custom_fields: [],
  };
  const extras = rel.extras?.get(e.id);
  if (extras?.fields) appendNew(json, extras.fields);
  if (opts.jsonLd) {
    const ld = eventJsonLd(e, { url, image, venue, organizer: organizers[0], cost: storedCost(e.cost) }, config.timezone);
    if (extras?.jsonLd) appendNew(ld, extras.jsonLd, EXTENSION_JSON_LD);
    json.json_ld = plainJsonLd(ld);
  }
  return json;
}

/**
 * JSON-LD members a hook may give in place of the core's: `offers` (an extension that sells
 * tickets describes them, rather than the one offer the event's cost makes).
 */
const EXTENSION_JSON_LD: ReadonlySet<string> = new Set(['offers']);

/** A hook's keys go after the core's and replace none of them (extending.md §1: it adds keys), but those of `replaceable`. */
function appendNew(target: Json, added: Json, replaceable: ReadonlySet<string> = new Set()): void {
  for (const [key, value] of Object.entries(added)) if (!(key in target) || replaceable.has(key)) target[key] = value;
}

/** schema.org Event (spec resources.md §7). */
function eventJsonLd(e: EventEntity, linked: { url: string; image?: ImageJson; venue?: Json; organizer?: Json; cost: string[] }, siteZone: string): Json {
  const ld: Json = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: stripTags(e.title),
    description: e.excerpt.trim() !== '' ? stripTags(e.excerpt) : firstWords(stripTags(e.description), 55),
  };
  if (linked.image) ld.image = linked.image.url;
  ld.url = linked.url;
  ld.startDate = isoAtWallTime(e.startDate, e.timezone);
  ld.endDate = isoAtWallTime(e.endDate, e.timezone);
  if (linked.venue?.json_ld) ld.location = linked.venue.json_ld;
  if (linked.organizer?.json_ld) ld.organizer = linked.organizer.json_ld;
  const price = offerPrice(linked.cost);
  if (price !== '') {
    ld.offers = {
      '@type': 'Offer',
      price,
      priceCurrency: 'USD',
      url: linked.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: isoStartOfDay(e.dateUtc, siteZone),
    };
  }
  ld.performer = 'Organization';
  return ld;
}

export function storedCost(cost: string): string[] {
  if (cost === '') return [];
  try {
    const list = JSON.parse(cost) as unknown;
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [cost];
  }
}

export type { DateDetails };
