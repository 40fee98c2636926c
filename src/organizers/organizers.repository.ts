import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Dialect } from '../database/dialect';
import { LinkedItemsRepository } from '../items';
import { EventOrganizerEntity } from './event-organizer.entity';
import { OrganizerEntity } from './organizer.entity';
import { ORGANIZER_QUERY } from './organizers.filters';

/** Every query on organizers (the shared ones live in LinkedItemsRepository). */
@Injectable()
export class OrganizersRepository extends LinkedItemsRepository<OrganizerEntity> {
  constructor(@InjectDataSource() db: DataSource, dialect: Dialect) {
    super(db, dialect, OrganizerEntity, ORGANIZER_QUERY);
  }

  protected override async unlinkFromEvents(manager: EntityManager, id: number): Promise<void> {
    await manager.getRepository(EventOrganizerEntity).createQueryBuilder().delete().where('organizer_id = :id', { id }).execute();
  }
}
