export { VenuesModule } from './venues.module';
export { VENUE_TOKENS } from './venue-kind';
export { VenueEntity } from './venue.entity';
export { VenuesRepository } from './venues.repository';
export { VenueDto, VenueListDto } from './dto/venue-response.dto';
export { CreateVenueDto } from './dto/write-venue.dto';
export { VenueExtensions } from './venue-extensions';
export { UpdateVenueDto } from './dto/write-venue.dto';
export { VENUE_TEXT } from './venue-text';
