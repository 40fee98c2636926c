import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changesOf } from '../database/change-log';
import { Dialect } from '../database/dialect';
import type { Tx } from '../database/tx';
import { LinkedItemsRepository } from '../linked-items';
import { EventOrganizerEntity } from './event-organizer.entity';
import { OrganizerEntity } from './organizer.entity';
import { ORGANIZER_QUERY } from './organizers.filters';

/**
 * The change log's look-up of the events that embed some organizers (ChangeKind.linkedEvents of
 * the `organizer` kind): the list of the organizers' ids follows it.
 */
export const ORGANIZER_LINKED_EVENTS_SQL = 'SELECT event_id AS id FROM event_organizers WHERE organizer_id IN';

/** Every query on organizers (the shared ones live in LinkedItemsRepository). */
@Injectable()
export class OrganizersRepository extends LinkedItemsRepository<OrganizerEntity> {
  constructor(@InjectDataSource() db: DataSource, dialect: Dialect) {
    super(db, dialect, OrganizerEntity, ORGANIZER_QUERY);
  }

  protected override async unlinkFromEvents(tx: Tx, id: number): Promise<void> {
    await changesOf(tx)?.recordLinkedEvents(tx, 'organizer', id);
    await tx.getRepository(EventOrganizerEntity).createQueryBuilder().delete().where('organizer_id = :id', { id }).execute();
  }

  /** How many events not in the trash use each organizer of `ids` (ix_event_organizers_listing: the links carry the event's status). */
  eventCounts(ids: number[]): Promise<Map<number, number>> {
    return this.liveEventCounts('event_organizers', 'organizer_id', ids);
  }
}
