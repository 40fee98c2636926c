import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** What an imported record became locally. */
export type ImportKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

/**
 * Which local record an imported source record became: the importers' memory, so that a
 * re-run updates what it made before instead of making it again. One row per source record;
 * the unique key is what makes two runs (or a run after a crash) unable to map one record twice.
 */
@Entity({ name: 'imported_records' })
@Index('uq_imported_records_key', ['source', 'kind', 'sourceKey'], { unique: true })
@Index('ix_imported_records_local', ['kind', 'localId'])
export class ImportedRecordEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  /** The source: `tec <namespace URL>`, or the ics importer's name for one calendar's UID space. */
  @Column({ name: 'source', type: 'varchar', length: 191 })
  source: string;

  @Column({ name: 'kind', type: 'varchar', length: 20 })
  kind: string;

  /** The record's key in its source: a TEC `global_id` or term id, an iCalendar UID (+ occurrence). */
  @Column({ name: 'source_key', type: 'varchar', length: 191 })
  sourceKey: string;

  @Column({ name: 'local_id', type: 'int' })
  localId: number;

  /** What decides "changed since the last run": TEC `modified_utc`, iCalendar LAST-MODIFIED/SEQUENCE or a digest. */
  @Column({ name: 'source_version', type: 'varchar', length: 64, nullable: true, default: null })
  sourceVersion: string | null;

  /** UTC `YYYY-MM-DD HH:MM:SS`, like every date of the schema. */
  @Column({ name: 'imported_at', type: 'varchar', length: 19 })
  importedAt: string;
}
