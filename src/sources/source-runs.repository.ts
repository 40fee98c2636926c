import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { Tx } from '../database/tx';
import { SourceRunEntity } from './source.entity';

/** Lease times: UTC with milliseconds, comparable as text. */
export const leaseTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

/** A run that may be taken: queued, or running with its lease run out. */
const TAKEABLE = (alias: string) => `${alias}status IN ('queued', 'running') AND (${alias}lease_until IS NULL OR ${alias}lease_until < :now)`;

/** The `source_runs` table: the runs, their leases and their counts. */
@Injectable()
export class SourceRunsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private table(tx: Tx | null = null) {
    return (tx ?? this.db).getRepository(SourceRunEntity);
  }

  find(id: number): Promise<SourceRunEntity | null> {
    return this.table().findOne({ where: { id } });
  }

  findMany(ids: number[]): Promise<SourceRunEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.table().find({ where: { id: In(ids) } });
  }

  /** The source's newest `limit` runs, newest first. */
  latest(sourceId: number, limit: number): Promise<SourceRunEntity[]> {
    return this.table().find({ where: { sourceId }, order: { id: 'DESC' }, take: limit });
  }

  /** Queues a run of the source; returns its id. */
  async queue(tx: Tx, sourceId: number, trigger: 'manual' | 'schedule', queuedUtc: string): Promise<number> {
    const inserted = await this.table(tx).insert({ sourceId, trigger, status: 'queued', queuedUtc, errors: '[]' });
    return Number(inserted.identifiers[0].id);
  }

  /** Removes the source's runs but the `kept` newest. */
  async prune(tx: Tx, sourceId: number, kept: number): Promise<void> {
    const old = (await tx.query('SELECT id FROM source_runs WHERE source_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?', [sourceId, kept])) as {
      id: number | string;
    }[];
    if (old[0]) await tx.query('DELETE FROM source_runs WHERE source_id = ? AND id <= ?', [sourceId, Number(old[0].id)]);
  }

  /** Up to 5 runs (or run `only`) that may be taken at `now`, oldest first. */
  takeable(now: number, only?: number): Promise<SourceRunEntity[]> {
    const query = this.table()
      .createQueryBuilder('r')
      .where(TAKEABLE('r.'), { now: leaseTime(now) });
    if (only !== undefined) query.andWhere('r.id = :only', { only });
    return query.orderBy('r.id', 'ASC').limit(5).getMany();
  }

  /** Leases the run to `token` until `until` if it may still be taken at `now`; true when it did. */
  async lease(run: SourceRunEntity, token: string, now: number, until: number, startedUtc: string): Promise<boolean> {
    const taken = await this.table()
      .createQueryBuilder()
      .update()
      .set({ leasedBy: token, leaseUntil: leaseTime(until), status: 'running', startedUtc })
      .where(`id = :id AND ${TAKEABLE('')}`, { id: run.id, now: leaseTime(now) })
      .execute();
    return (taken.affected ?? 0) === 1;
  }

  /** Updates the run while `leasedBy` holds it; true when it did. */
  async updateLeased(id: number, leasedBy: string, changes: Partial<SourceRunEntity>, tx: Tx | null = null): Promise<boolean> {
    const done = await this.table(tx).update({ id, leasedBy }, changes);
    return (done.affected ?? 0) === 1;
  }

  async remove(id: number): Promise<void> {
    await this.table().delete({ id });
  }
}
