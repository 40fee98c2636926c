import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { Tx } from '../database/tx';
import { EventEntity } from '../events';
import { UserEntity } from '../users';
import { SourceEntity, SourceItemEntity, SourceRunEntity } from './source.entity';

/**
 * The `sources` table, and what sources read of other features' rows (their authors' logins,
 * an event's status) through those features' public entities. `tx` null: outside a transaction.
 */
@Injectable()
export class SourcesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private table(tx: Tx | null = null) {
    return (tx ?? this.db).getRepository(SourceEntity);
  }

  all(): Promise<SourceEntity[]> {
    return this.table().find({ order: { id: 'ASC' } });
  }

  find(id: number, tx: Tx | null = null): Promise<SourceEntity | null> {
    return this.table(tx).findOne({ where: { id } });
  }

  /** Every source's id, kind and last success (the metrics' gauge). */
  lastSuccesses(): Promise<Pick<SourceEntity, 'id' | 'kind' | 'lastSuccessUtc'>[]> {
    return this.table().find({ select: { id: true, kind: true, lastSuccessUtc: true } });
  }

  /** The ids of the enabled sources due at `now` with no run queued or going. */
  async dueIds(now: string): Promise<number[]> {
    const rows = await this.table()
      .createQueryBuilder('s')
      .select('s.id', 'id')
      .where('s.enabled = :on AND s.next_run_utc IS NOT NULL AND s.next_run_utc <= :now AND s.current_run_id IS NULL', { on: true, now })
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  passwords(): Promise<Pick<SourceEntity, 'id' | 'password'>[]> {
    return this.table().find({ select: { id: true, password: true } });
  }

  /** Replaces the stored password while it is still `was`; true when it did. */
  async replacePassword(id: number, was: string, password: string): Promise<boolean> {
    const done = await this.table().createQueryBuilder().update().set({ password }).where('id = :id AND password = :was', { id, was }).execute();
    return (done.affected ?? 0) === 1;
  }

  insert(tx: Tx, row: Partial<SourceEntity>): Promise<SourceEntity> {
    return this.table(tx).save(row);
  }

  async update(tx: Tx, id: number, changes: Partial<SourceEntity>): Promise<void> {
    await this.table(tx).update({ id }, changes);
  }

  /** Makes `runId` the source's current run unless it has one; true when it did. */
  async claim(tx: Tx, sourceId: number, runId: number): Promise<boolean> {
    const taken = await this.table(tx)
      .createQueryBuilder()
      .update()
      .set({ currentRunId: runId })
      .where('id = :sourceId AND current_run_id IS NULL', { sourceId })
      .execute();
    return (taken.affected ?? 0) === 1;
  }

  /** Ends the source's current run `runId` with `changes` (nothing when another run is current). */
  async release(tx: Tx, sourceId: number, runId: number, changes: Partial<SourceEntity>): Promise<void> {
    await this.table(tx).update({ id: sourceId, currentRunId: runId }, { ...changes, currentRunId: null });
  }

  /** The source, its runs and its record of what it wrote. */
  async remove(tx: Tx, id: number): Promise<void> {
    await tx.getRepository(SourceItemEntity).delete({ sourceId: id });
    await tx.getRepository(SourceRunEntity).delete({ sourceId: id });
    await this.table(tx).delete({ id });
  }

  /** The logins of the users `ids` (those that exist). */
  async logins(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const users = await this.db.getRepository(UserEntity).find({ where: { id: In(ids) }, select: { id: true, login: true } });
    return new Map(users.map((u) => [u.id, u.login]));
  }

  /** The status of event `id`; null when it is gone. */
  async eventStatus(id: number): Promise<string | null> {
    const event = await this.db.getRepository(EventEntity).findOne({ where: { id }, select: { id: true, status: true } });
    return event?.status ?? null;
  }
}
