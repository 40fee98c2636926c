import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../../src/extend';
import { EventCapacityEntity } from './capacity.entity';

/** Every query of the capacity module, on its own table: writes inside the event write's transaction, reads outside. */
@Injectable()
export class CapacityRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The capacities of some events, by id (one query); an event without a row is absent. */
  async capacities(ids: readonly number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    // Ids as parameters, not in the SQL text (TypeORM's `In()` writes numbers into it on SQLite):
    // the text then depends only on how many ids there are, so the connection prepares it once.
    const rows = await this.db
      .getRepository(EventCapacityEntity)
      .createQueryBuilder('c')
      .where('c.event_id IN (:...ids)', { ids: [...ids] })
      .getMany();
    return new Map(rows.map((r) => [r.eventId, r.capacity]));
  }

  /** The event's capacity, or null. */
  async capacityOf(id: number): Promise<number | null> {
    return (await this.capacities([id])).get(id) ?? null;
  }

  /** Sets (a number) or clears (null) an event's capacity, inside its write. */
  async set(tx: Tx, eventId: number, capacity: number | null): Promise<void> {
    if (capacity === null) await this.remove(tx, eventId);
    else await tx.getRepository(EventCapacityEntity).upsert({ eventId, capacity }, ['eventId']);
  }

  async remove(tx: Tx, eventId: number): Promise<void> {
    await tx.getRepository(EventCapacityEntity).delete({ eventId });
  }

  /** Every event with a capacity, largest first, with its title: what `capacity:report` prints. */
  async report(): Promise<{ id: number; title: string; capacity: number }[]> {
    const rows = await this.db
      .getRepository(EventCapacityEntity)
      .createQueryBuilder('c')
      .innerJoin('events', 'e', 'e.id = c.event_id')
      .select(['c.event_id AS id', 'e.title AS title', 'c.capacity AS capacity'])
      .orderBy('c.capacity', 'DESC')
      .addOrderBy('c.event_id', 'ASC')
      .getRawMany<{ id: number | string; title: string; capacity: number | string }>();
    // MariaDB may answer numbers as strings.
    return rows.map((r) => ({ id: Number(r.id), title: r.title, capacity: Number(r.capacity) }));
  }
}
