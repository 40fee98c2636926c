import { type LinkedKind, linkedItemTokens } from '../linked-items';
import { CreateVenueDto } from './dto/write-venue.dto';
import { presentVenue } from './venue.presenter';
import { VENUE_TEXT } from './venue-text';
import { VenueEntity } from './venue.entity';
import { VENUE_ERRORS } from './venues.errors';

/** What makes a venue a venue; the rules shared with organizers are in src/linked-items. */
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

/**
 * How the venue reads, writes and deletes are injected:
 * `@Inject(VENUE_TOKENS.reads) venues: LinkedItemReads<VenueEntity>`. The events feature reads
 * `existingIds` (the `venue` list filter), `linkableIds` and `embed` (event responses), and
 * writes through `prepareCreate` and `createPrepared` (venues nested in event writes).
 */
export const VENUE_TOKENS = linkedItemTokens('venue');
