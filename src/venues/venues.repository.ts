import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changesOf } from '../database/change-log';
import { Dialect } from '../database/dialect';
import type { Tx } from '../database/tx';
import { EVENTS_TABLE, LinkedItemsRepository } from '../linked-items';
import { VenueEntity } from './venue.entity';
import { VENUE_QUERY } from './venues.filters';

/**
 * The change log's look-up of the events that embed some venues (ChangeKind.linkedEvents of the
 * `venue` kind): the list of the venues' ids follows it.
 */
export const VENUE_LINKED_EVENTS_SQL = `SELECT id FROM ${EVENTS_TABLE} WHERE venue_id IN`;

/** Every query on venues (the shared ones live in LinkedItemsRepository). */
@Injectable()
export class VenuesRepository extends LinkedItemsRepository<VenueEntity> {
  constructor(@InjectDataSource() db: DataSource, dialect: Dialect) {
    super(db, dialect, VenueEntity, VENUE_QUERY);
  }

  protected override async unlinkFromEvents(tx: Tx, id: number): Promise<void> {
    await changesOf(tx)?.recordLinkedEvents(tx, 'venue', id);
    await tx.getRepository(EVENTS_TABLE).createQueryBuilder().update().set({ venueId: null }).where('venue_id = :id', { id }).execute();
  }

  /** How many events not in the trash use each venue of `ids` (ix_events_venue: index entries only). */
  eventCounts(ids: number[]): Promise<Map<number, number>> {
    return this.liveEventCounts(EVENTS_TABLE, 'venue_id', ids);
  }
}
