export { VenuesModule } from './venues.module';
export { VenuesService } from './venues.service';
export { VenueEntity } from './venue.entity';
export { VenueExtensions } from './venue-extensions';
