import { Column, Entity, Index } from 'typeorm';
import { NamedItemColumns } from '../items';

/** A venue; id from the shared post sequence. Publication dates in UTC, shown in the site zone. */
@Entity({ name: 'venues' })
@Index('ix_venues_status_date', ['status', 'dateUtc', 'id'])
@Index('ix_venues_slug', ['slug'])
@Index('uq_venues_live_slug', ['liveSlug'], { unique: true })
@Index('ix_venues_author', ['authorId'])
@Index('ix_venues_name_key', ['nameKey'])
export class VenueEntity extends NamedItemColumns {
  @Column({ name: 'address', type: 'varchar', length: 255, default: '' })
  address: string;

  @Column({ name: 'city', type: 'varchar', length: 255, default: '' })
  city: string;

  @Column({ name: 'country', type: 'varchar', length: 255, default: '' })
  country: string;

  @Column({ name: 'province', type: 'varchar', length: 255, default: '' })
  province: string;

  @Column({ name: 'state', type: 'varchar', length: 255, default: '' })
  state: string;

  @Column({ name: 'zip', type: 'varchar', length: 64, default: '' })
  zip: string;

  @Column({ name: 'phone', type: 'varchar', length: 255, default: '' })
  phone: string;

  @Column({ name: 'stateprovince', type: 'varchar', length: 255, default: '' })
  stateprovince: string;

  @Column({ name: 'website', type: 'text' })
  website: string;

  @Column({ name: 'show_map', type: 'boolean', default: true })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: true })
  showMapLink: boolean;
}
