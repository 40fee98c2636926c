import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A series (recurrence.md §3): its rule and the timing every occurrence is made from. The id is
 * the series' id, the id of its first occurrence, and stays the key when that event is gone.
 * Wall times in `timezone`, `YYYY-MM-DD HH:MM:SS`, as events store theirs.
 */
@Entity({ name: 'recurrence_series' })
// The horizon extender's walk: open series made up to a date before the new horizon.
@Index('ix_recurrence_series_open', ['open', 'madeUntilUtc'])
export class SeriesEntity {
  @PrimaryColumn({ name: 'id', type: 'int' })
  id: number;

  /** The canonical lines (formatRecurrence), one per line. */
  @Column({ name: 'rule', type: 'text' })
  rule: string;

  /** DTSTART: the first occurrence's wall-clock start. */
  @Column({ name: 'start_date', type: 'varchar', length: 19 })
  startDate: string;

  /** The first occurrence's wall-clock end: end − start is every occurrence's length. */
  @Column({ name: 'end_date', type: 'varchar', length: 19 })
  endDate: string;

  @Column({ name: 'timezone', type: 'varchar', length: 64 })
  timezone: string;

  @Column({ name: 'all_day', type: 'boolean', default: false })
  allDay: boolean;

  /** UTC: every occurrence starting before this is made (the horizon of the last expansion). */
  @Column({ name: 'made_until_utc', type: 'varchar', length: 19 })
  madeUntilUtc: string;

  /** The rule may give occurrences after `madeUntilUtc` (no COUNT/UNTIL reached yet): the extender visits it. */
  @Column({ name: 'open', type: 'boolean', default: false })
  open: boolean;
}
