import { Module } from '@nestjs/common';
import { GeoEventListExtension } from './geo-event-list.extension';
import { GeoVenueExtension } from './geo-venue.extension';
import { VenueGeoRepository } from './venue-geo.repository';

/**
 * The geo extension (geo.md), loaded by AppModule only when CALENDAR_GEO=on. Its two hooks:
 * a venue hook (coordinates on venue writes and output) and a list hook of GET /events
 * (distance filters).
 */
@Module({
  providers: [GeoVenueExtension, GeoEventListExtension, VenueGeoRepository],
})
export class GeoModule {}
