import type { Feature } from '../common/feature/feature';
import { GeoModule } from './geo.module';
import { VenueGeoEntity } from './venue-geo.entity';

/** The geo extension (geo.md): on with CALENDAR_GEO=on; its table exists either way (one schema for all). */
export const GEO_FEATURE: Feature = {
  name: 'geo',
  modules: [GeoModule],
  enabled: (config) => config.geo,
  entities: [VenueGeoEntity],
};
