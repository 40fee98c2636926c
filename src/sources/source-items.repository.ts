import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityTarget } from 'typeorm';
import type { Tx } from '../database/tx';
import { EventEntity } from '../events';
import type { ImportKind } from '../imports';
import { OrganizerEntity } from '../organizers';
import { VenueEntity } from '../venues';
import { SourceItemEntity } from './source.entity';

/** The kinds whose rows carry `modified_utc` (what tells a local edit), by their public entity. */
const MODIFIED: Partial<Record<ImportKind, EntityTarget<{ id: number; modifiedUtc: string }>>> = {
  event: EventEntity,
  venue: VenueEntity,
  organizer: OrganizerEntity,
};

/** The `source_items` table: what each source wrote, and the local `modified_utc` then. `tx` null: outside a transaction. */
@Injectable()
export class SourceItemsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private table(tx: Tx | null) {
    return (tx ?? this.db).getRepository(SourceItemEntity);
  }

  find(tx: Tx | null, sourceId: number, kind: ImportKind, localId: number): Promise<SourceItemEntity | null> {
    return this.table(tx).findOne({ where: { sourceId, kind, localId } });
  }

  async insert(tx: Tx | null, item: Pick<SourceItemEntity, 'sourceId' | 'kind' | 'localId' | 'sourceKey' | 'localModified'>): Promise<void> {
    await this.table(tx).insert(item);
  }

  async update(
    tx: Tx | null,
    sourceId: number,
    kind: ImportKind,
    localId: number,
    changes: Pick<SourceItemEntity, 'sourceKey' | 'localModified'>,
  ): Promise<void> {
    await this.table(tx).update({ sourceId, kind, localId }, changes);
  }

  /** The events the source wrote. */
  events(sourceId: number): Promise<SourceItemEntity[]> {
    return this.table(null).find({ where: { sourceId, kind: 'event' } });
  }

  async forget(sourceId: number, kind: ImportKind, localId: number): Promise<void> {
    await this.table(null).delete({ sourceId, kind, localId });
  }

  /** True when rows of `kind` carry a `modified_utc`. */
  tracksEdits(kind: ImportKind): boolean {
    return MODIFIED[kind] !== undefined;
  }

  /** The local `modified_utc` of the `kind` row `id`; null when the kind carries none or the row is gone. */
  async modifiedOf(tx: Tx | null, kind: ImportKind, id: number): Promise<string | null> {
    const entity = MODIFIED[kind];
    if (entity === undefined) return null;
    const row = await (tx ?? this.db).getRepository(entity).findOne({ where: { id }, select: { id: true, modifiedUtc: true } });
    return row?.modifiedUtc ?? null;
  }
}
