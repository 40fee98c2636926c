import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An event that is an occurrence of a series (recurrence.md §3). `(series, day, nth)` names the
 * occurrence by date (the day of its original start in the series' zone, and its order within
 * that day): ids are kept by it when the series is edited, and its uniqueness makes several
 * instances extending one series at once create each occurrence once.
 */
@Entity({ name: 'recurrence_occurrences' })
@Index('uq_recurrence_occurrences_key', ['seriesId', 'day', 'nth'], { unique: true })
export class OccurrenceEntity {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ name: 'series_id', type: 'int' })
  seriesId: number;

  /** The start the rule gave (RECURRENCE-ID), wall time in the series' zone, and in UTC. */
  @Column({ name: 'original_start', type: 'varchar', length: 19 })
  originalStart: string;

  @Column({ name: 'utc_original_start', type: 'varchar', length: 19 })
  utcOriginalStart: string;

  /** `YYYY-MM-DD`: the original start's day in the series' zone. */
  @Column({ name: 'day', type: 'varchar', length: 10 })
  day: string;

  /** 1 for the day's first occurrence, 2 for its second, … */
  @Column({ name: 'nth', type: 'int', default: 1 })
  nth: number;

  /** Edited on its own (scope=this): series edits leave its fields alone. */
  @Column({ name: 'detached', type: 'boolean', default: false })
  detached: boolean;
}
