import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { nowUtcSql } from '../common/datetime/clock';
import type { Tx } from '../database/tx';
import { ImportedRecordEntity, ImportKind } from './imported-record.entity';

/** Source keys per lookup of findMany: well within both engines' bound values per statement. */
const KEYS_PER_QUERY = 500;

/** A source record's mapping, as the importers use it. */
export interface ImportedRecord {
  localId: number;
  version: string | null;
}

/** The `imported_records` table: source record → local id (and the source version last written). */
@Injectable()
export class ImportedRecordsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async find(source: string, kind: ImportKind, key: string): Promise<ImportedRecord | null> {
    const row = await this.db.getRepository(ImportedRecordEntity).findOne({ where: { source, kind, sourceKey: key } });
    return row && { localId: row.localId, version: row.sourceVersion };
  }

  /** The mappings of these source keys, by key (those that have one), in bounded IN lists. */
  async findMany(source: string, kind: ImportKind, keys: readonly string[]): Promise<Map<string, ImportedRecord>> {
    const found = new Map<string, ImportedRecord>();
    for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
      const rows = await this.db.getRepository(ImportedRecordEntity).find({ where: { source, kind, sourceKey: In(keys.slice(i, i + KEYS_PER_QUERY)) } });
      for (const r of rows) found.set(r.sourceKey, { localId: r.localId, version: r.sourceVersion });
    }
    return found;
  }

  /** Every mapping of one kind from one source, by source key (a run looks them all up at once). */
  async all(source: string, kind: ImportKind): Promise<Map<string, ImportedRecord>> {
    const rows = await this.db.getRepository(ImportedRecordEntity).find({ where: { source, kind } });
    return new Map(rows.map((r) => [r.sourceKey, { localId: r.localId, version: r.sourceVersion }]));
  }

  /**
   * Records (or moves) the mapping inside `tx`, the transaction that wrote the local record, so
   * that the record and its mapping commit together or not at all. The unique key (source,
   * kind, source_key) refuses a second row; a concurrent importer of the same record loses
   * that race and the unit of work runs its write again, which then finds this row.
   */
  async remember(tx: Tx, source: string, kind: ImportKind, key: string, localId: number, version: string | null): Promise<void> {
    const repo = tx.getRepository(ImportedRecordEntity);
    const importedAt = nowUtcSql();
    const existing = await repo.findOne({ where: { source, kind, sourceKey: key } });
    if (existing) await repo.update({ id: existing.id }, { localId, sourceVersion: version, importedAt });
    else await repo.insert({ source, kind, sourceKey: key, localId, sourceVersion: version, importedAt });
  }

  async forget(source: string, kind: ImportKind, key: string): Promise<void> {
    await this.db.getRepository(ImportedRecordEntity).delete({ source, kind, sourceKey: key });
  }
}
