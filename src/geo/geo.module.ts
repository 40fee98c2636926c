import { Module, OnModuleInit } from '@nestjs/common';
import { EventListExtensions, EventsModule } from '../events';
import { VenueExtensions, VenuesModule } from '../venues';
import { GeoEventListExtension } from './geo-event-list.extension';
import { GeoVenueExtension } from './geo-venue.extension';
import { VenueGeoRepository } from './venue-geo.repository';

/**
 * The geo extension (geo.md), registered by AppModule only when CALENDAR_GEO=on. It plugs into
 * the two public extension points: VenueExtensions (coordinates on venue writes and output)
 * and EventListExtensions (distance filters on GET /events).
 */
@Module({
  imports: [VenuesModule, EventsModule],
  providers: [GeoVenueExtension, GeoEventListExtension, VenueGeoRepository],
})
export class GeoModule implements OnModuleInit {
  constructor(
    private readonly venueExtensions: VenueExtensions,
    private readonly eventListExtensions: EventListExtensions,
    private readonly venueGeo: GeoVenueExtension,
    private readonly eventGeo: GeoEventListExtension,
  ) {}

  onModuleInit(): void {
    this.venueExtensions.register(this.venueGeo);
    this.eventListExtensions.register(this.eventGeo);
  }
}
