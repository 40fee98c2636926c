import { finishLinkedItem, Json, jsonLdHead, LinkedPresentContext, linkedItemHead, permalink } from '../linked-items';
import type { VenueEntity } from './venue.entity';
import { plainJsonLd } from '../common/text/autop';

/** Keys a venue always has, empty or not (resources.md §2); the global ids are added last. */
const ALWAYS = ['id', 'show_map', 'show_map_link'];

/** A venue as spec resources.md §2 gives it: keys in order, empty keys omitted. */
export function presentVenue(venue: VenueEntity, ctx: LinkedPresentContext): Json {
  const body: Json = {
    address: venue.address,
    city: venue.city,
    country: venue.country,
    province: venue.province,
    state: venue.state,
    zip: venue.zip,
    phone: venue.phone,
    website: venue.website,
    stateprovince: stateProvince(venue),
    ...ctx.extra?.fields,
  };
  if (ctx.jsonLd) body.json_ld = plainJsonLd(venueJsonLd(venue, ctx));
  body.show_map = venue.showMap;
  body.show_map_link = venue.showMapLink;
  return finishLinkedItem(linkedItemHead(venue, 'venue', ctx), body, ALWAYS, venue, ctx.baseUrl);
}

/**
 * schema.org Place (resources.md §7): address members only when non-empty; the region is the
 * venue's state/province as `stateprovince` gives it, else its state, else its province.
 */
export function venueJsonLd(venue: VenueEntity, ctx: LinkedPresentContext): Json {
  const ld = jsonLdHead('Place', venue, permalink(ctx.publicUrl ?? ctx.baseUrl, 'venue', venue.slug), ctx);
  const members: Record<string, string> = {
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: stateProvince(venue) || venue.state || venue.province,
    postalCode: venue.zip,
    addressCountry: venue.country,
  };
  ld.address = { '@type': 'PostalAddress', ...Object.fromEntries(Object.entries(members).filter(([, value]) => value !== '')) };
  Object.assign(ld, ctx.extra?.jsonLd);
  ld.telephone = venue.phone;
  ld.sameAs = venue.website;
  return ld;
}

/** Countries whose venues give their region as `state` (TEC's rule; compared trimmed, any case). */
const STATE_COUNTRIES = new Set(['', 'us', 'usa', 'united states']);

/**
 * `stateprovince` (resources.md §2): the stored value when one was written; otherwise derived as
 * TEC does, `state` for venues in the United States (or with no country), else `province`.
 */
export function stateProvince(venue: Pick<VenueEntity, 'stateprovince' | 'state' | 'province' | 'country'>): string {
  if (venue.stateprovince.trim() !== '') return venue.stateprovince;
  return STATE_COUNTRIES.has(venue.country.trim().toLowerCase()) ? venue.state : venue.province;
}
