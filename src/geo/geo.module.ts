import { Module } from '@nestjs/common';
import { GeoEventListHook } from './geo-event-list.hook';
import { GeoVenueHook } from './geo-venue.hook';
import { VenueGeoRepository } from './venue-geo.repository';

/**
 * The geo extension (geo.md), loaded by AppModule only when CALENDAR_GEO=on. Its two hooks:
 * a venue hook (coordinates on venue writes and output) and a list hook of GET /events
 * (distance filters).
 */
@Module({
  providers: [GeoVenueHook, GeoEventListHook, VenueGeoRepository],
})
export class GeoModule {}
