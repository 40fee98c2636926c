export { VenuesModule } from './venues.module';
export { VENUE_ROOMS, VenuesService } from './venues.service';
export { VenueEntity } from './venue.entity';
export { VenuesRepository } from './venues.repository';
export { VenueDto, VenueListDto } from './dto/venue-response.dto';
export { CreateVenueDto } from './dto/write-venue.dto';
export { VENUE_HOOKS, VENUE_LIST_HOOKS, VenueHooks } from './venue-hooks';
export type { VenueHook } from './venue-hooks';
export { UpdateVenueDto } from './dto/write-venue.dto';
