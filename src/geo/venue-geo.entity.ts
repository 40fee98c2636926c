import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Coordinates of a venue, owned by the geo extension (geo.md §2.1). A table of its own, so the
 * venue module knows nothing of geography; the (lat, lng) index serves the bounding-box
 * prefilter of distance searches.
 */
@Entity({ name: 'venue_geo' })
@Index('ix_venue_geo_lat_lng', ['lat', 'lng'])
export class VenueGeoEntity {
  @PrimaryColumn({ name: 'venue_id', type: 'int' })
  venueId: number;

  @Column({ name: 'lat', type: 'decimal', precision: 10, scale: 6 })
  lat: number;

  @Column({ name: 'lng', type: 'decimal', precision: 10, scale: 6 })
  lng: number;
}
