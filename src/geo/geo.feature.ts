import type { Feature } from '../common/feature/feature';
import { onOffSetting } from '../config/settings';
import { GeoModule } from './geo.module';
import { VenueGeoEntity } from './venue-geo.entity';

/** CALENDAR_GEO: the geo extension's switch. */
export const GEO_SWITCH = onOffSetting('CALENDAR_GEO', 'off', 'venue coordinates, distance filters and geocoding (geo.md)');

/** The geo extension (geo.md): on with CALENDAR_GEO=on; its table exists either way (one schema for all). */
export const GEO_FEATURE: Feature = {
  name: 'geo',
  modules: [GeoModule],
  switch: GEO_SWITCH,
  entities: [VenueGeoEntity],
};
