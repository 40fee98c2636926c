import { Injectable } from '@nestjs/common';
import { LinkedItems, LinkedKind } from '../items';
import { ReadModel } from '../common/cache/read-model';
import { UnitOfWork } from '../database/unit-of-work';
import { AppConfig } from '../config/app-config';
import { MediaService } from '../media';
import { PostsService } from '../posts';
import { UsersService } from '../users';
import { CreateVenueDto } from './dto/write-venue.dto';
import { presentVenue } from './venue.presenter';
import { VenueEntity } from './venue.entity';
import { VENUE_ERRORS } from './venues.errors';
import { VenuesRepository } from './venues.repository';
import { VenueExtensions } from './venue-extensions';

/** What makes a venue a venue; the rules shared with organizers are in LinkedItems. */
export const VENUE_KIND: LinkedKind<VenueEntity> = {
  type: 'venue',
  collection: 'venues',
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
 * Venues (spec endpoints.md §5). The events module calls `prepareCreate` and `createPrepared` (venues nested in event
 * writes), `existingIds` (the `venue` list filter and links by id) and `embed` (event responses).
 */
@Injectable()
export class VenuesService {
  /** The rules venues share with organizers, applied to venues. */
  readonly items: LinkedItems<VenueEntity>;

  constructor(
    repo: VenuesRepository,
    posts: PostsService,
    media: MediaService,
    users: UsersService,
    config: AppConfig,
    extensions: VenueExtensions,
    readModel: ReadModel,
    uow: UnitOfWork,
  ) {
    this.items = new LinkedItems(VENUE_KIND, { repo, posts, media, users, config, extensions, readModel, uow });
  }
}
