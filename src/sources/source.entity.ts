import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A calendar this one is kept in step from (sources.md §2): a TEC site or an iCalendar feed,
 * with what its runs write and when the next one is due. `current_run_id` is the source's one
 * active run (queued or running): it is set by a compare-and-set UPDATE, so two instances (or a
 * manual run and the schedule) never start two runs of one source.
 */
@Entity({ name: 'sources' })
@Index('ix_sources_due', ['enabled', 'nextRunUtc'])
export class SourceEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  /** `tec` or `ics`. */
  @Column({ name: 'kind', type: 'varchar', length: 8 })
  kind: string;

  @Column({ name: 'url', type: 'varchar', length: 2000 })
  url: string;

  /** 0: only when run by hand. */
  @Column({ name: 'interval_minutes', type: 'int' })
  intervalMinutes: number;

  @Column({ name: 'enabled', type: 'boolean', default: true })
  enabled: boolean;

  /** The status of events it creates; null: `publish`, or for `tec` the source's own. */
  @Column({ name: 'status', type: 'varchar', length: 20, nullable: true, default: null })
  status: string | null;

  /** Local category ids added to every event it writes, a JSON array. */
  @Column({ name: 'categories', type: 'text' })
  categories: string;

  @Column({ name: 'author_id', type: 'int' })
  authorId: number;

  @Column({ name: 'login', type: 'varchar', length: 191, nullable: true, default: null })
  login: string | null;

  /** As stored: sealed with CALENDAR_WEBHOOK_KEY when that is set (common/crypto/secret-box.ts); never answered. */
  @Column({ name: 'password', type: 'varchar', length: 2000, nullable: true, default: null })
  password: string | null;

  @Column({ name: 'window_from', type: 'int', default: -30 })
  windowFrom: number;

  @Column({ name: 'window_to', type: 'int', default: 365 })
  windowTo: number;

  @Column({ name: 'keep_local_edits', type: 'boolean', default: true })
  keepLocalEdits: boolean;

  /** `trash` or `keep`. */
  @Column({ name: 'on_source_delete', type: 'varchar', length: 8, default: 'trash' })
  onSourceDelete: string;

  /** When the schedule runs it next (UTC); null: never by the schedule (interval 0, or disabled). */
  @Column({ name: 'next_run_utc', type: 'varchar', length: 19, nullable: true, default: null })
  nextRunUtc: string | null;

  /** Failed runs in a row (the backoff doubles the wait with each). */
  @Column({ name: 'failures', type: 'int', default: 0 })
  failures: number;

  @Column({ name: 'current_run_id', type: 'int', nullable: true, default: null })
  currentRunId: number | null;

  @Column({ name: 'last_run_id', type: 'int', nullable: true, default: null })
  lastRunId: number | null;

  /** UTC of the end of its last `succeeded` or `partial` run. */
  @Column({ name: 'last_success_utc', type: 'varchar', length: 19, nullable: true, default: null })
  lastSuccessUtc: string | null;

  /** The feed's validators from the last run that read it (`ics`: If-None-Match / If-Modified-Since). */
  @Column({ name: 'etag', type: 'varchar', length: 512, nullable: true, default: null })
  etag: string | null;

  @Column({ name: 'last_modified', type: 'varchar', length: 64, nullable: true, default: null })
  lastModified: string | null;

  @Column({ name: 'created_utc', type: 'varchar', length: 19 })
  createdUtc: string;

  @Column({ name: 'modified_utc', type: 'varchar', length: 19 })
  modifiedUtc: string;
}

/** One run of a source (sources.md §3), its record and, while it goes, its lease. */
@Entity({ name: 'source_runs' })
@Index('ix_source_runs_source', ['sourceId', 'id'])
export class SourceRunEntity {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @Column({ name: 'source_id', type: 'int' })
  sourceId: number;

  /** `schedule` or `manual`. */
  @Column({ name: 'trigger', type: 'varchar', length: 10 })
  trigger: string;

  /** `queued`, `running`, `succeeded`, `partial` or `failed`. */
  @Column({ name: 'status', type: 'varchar', length: 10 })
  status: string;

  @Column({ name: 'queued_utc', type: 'varchar', length: 19 })
  queuedUtc: string;

  @Column({ name: 'started_utc', type: 'varchar', length: 19, nullable: true, default: null })
  startedUtc: string | null;

  @Column({ name: 'finished_utc', type: 'varchar', length: 19, nullable: true, default: null })
  finishedUtc: string | null;

  @Column({ name: 'created', type: 'int', default: 0 })
  created: number;

  @Column({ name: 'updated', type: 'int', default: 0 })
  updated: number;

  @Column({ name: 'unchanged', type: 'int', default: 0 })
  unchanged: number;

  @Column({ name: 'kept_local', type: 'int', default: 0 })
  keptLocal: number;

  @Column({ name: 'trashed', type: 'int', default: 0 })
  trashed: number;

  @Column({ name: 'failed', type: 'int', default: 0 })
  failed: number;

  /** The first 50 failures, a JSON array of `{record, message}`. */
  @Column({ name: 'errors', type: 'text' })
  errors: string;

  @Column({ name: 'leased_by', type: 'varchar', length: 64, nullable: true, default: null })
  leasedBy: string | null;

  /** Until when `leased_by` holds the run (UTC, milliseconds); another instance may take it after. */
  @Column({ name: 'lease_until', type: 'varchar', length: 23, nullable: true, default: null })
  leaseUntil: string | null;
}

/**
 * What each source wrote (sources.md §3–4): its items by local id, their key at the origin, and
 * the local `modified_utc` right after the source last wrote them — a later one is a local edit
 * (`keep_local_edits`). The list filter `source=` and the trashing of what a source no longer
 * has read this table.
 */
@Entity({ name: 'source_items' })
@Index('ix_source_items_local', ['kind', 'localId'])
export class SourceItemEntity {
  @PrimaryColumn({ name: 'source_id', type: 'int' })
  sourceId: number;

  @PrimaryColumn({ name: 'kind', type: 'varchar', length: 20 })
  kind: string;

  @PrimaryColumn({ name: 'local_id', type: 'int' })
  localId: number;

  @Column({ name: 'source_key', type: 'varchar', length: 191 })
  sourceKey: string;

  @Column({ name: 'local_modified', type: 'varchar', length: 19, nullable: true, default: null })
  localModified: string | null;
}
