import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { Tx } from '../database/tx';
import { VenueGeoEntity } from './venue-geo.entity';

/** The `venue_geo` table: a venue's coordinates, written in the venue's write and read for its representation. */
@Injectable()
export class VenueGeoRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  find(tx: Tx, venueId: number): Promise<VenueGeoEntity | null> {
    return tx.getRepository(VenueGeoEntity).findOne({ where: { venueId } });
  }

  async save(tx: Tx, row: VenueGeoEntity): Promise<void> {
    await tx.getRepository(VenueGeoEntity).save(row);
  }

  async remove(tx: Tx, venueId: number): Promise<void> {
    await tx.getRepository(VenueGeoEntity).delete({ venueId });
  }

  /** The coordinates of those of the venues `ids` that have some. */
  ofVenues(ids: number[]): Promise<VenueGeoEntity[]> {
    return this.db.getRepository(VenueGeoEntity).find({ where: { venueId: In(ids) } });
  }
}
