import { Inject, Injectable } from '@nestjs/common';
import { LinkedItems, LinkedKind, linkedItemTokens } from '../items';
import { CreateVenueDto } from './dto/write-venue.dto';
import { presentVenue } from './venue.presenter';
import { VENUE_TEXT } from './venue-text';
import { VenueEntity } from './venue.entity';
import { VENUE_ERRORS } from './venues.errors';

/** What makes a venue a venue; the rules shared with organizers are in LinkedItems. */
export const VENUE_KIND: LinkedKind<VenueEntity> = {
  type: 'venue',
  collection: 'venues',
  text: VENUE_TEXT,
  createDto: CreateVenueDto,
  fields: {
    address: 'address',
    city: 'city',
    country: 'country',
    province: 'province',
    state: 'state',
    zip: 'zip',
    phone: 'phone',
    stateprovince: 'stateprovince',
    website: 'website',
    show_map: 'showMap',
    show_map_link: 'showMapLink',
  },
  defaults: {
    address: '',
    city: '',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    stateprovince: '',
    website: '',
    // spec endpoints.md §5.2: both flags default to true
    showMap: true,
    showMapLink: true,
  },
  errors: VENUE_ERRORS,
  present: presentVenue,
};

/** How the venue rooms (reads, writes, deletes and their front door) are injected. */
export const VENUE_ROOMS = linkedItemTokens('venue');

/**
 * Venues (spec endpoints.md §5). The events module calls `prepareCreate` and `createPrepared` (venues nested in event
 * writes), `existingIds` (the `venue` list filter and links by id) and `embed` (event responses).
 */
@Injectable()
export class VenuesService {
  /** The rules venues share with organizers, applied to venues: the front door of the venue rooms (VENUE_ROOMS). */
  constructor(@Inject(VENUE_ROOMS.items) readonly items: LinkedItems<VenueEntity>) {}
}
