import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChangeKind } from '../common/feature/feature';
import { placeholders } from '../database/sql';

/** A row of the change log (ChangeEntity) as the feed reads it. */
export interface ChangeLogRow {
  type: string;
  item_id: number | string;
  seq: number | string;
  first_seq: number | string;
  was_public: number | boolean | string;
  author_id: number | string | null;
  status: string | null;
  date_utc: string | null;
  modified_utc: string | null;
}

/**
 * What the change feed reads of the change log (`change_log`) and its counter (`change_counter`,
 * row `log`), and the purge of old tombstones. The rows are written by the unit of work
 * (database/change-log.ts); the feed only reads them, and purges.
 */
@Injectable()
export class ChangesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The next `limit` rows after seq `after`, in seq order, but those of the types `skipped`. */
  async after(after: number, skipped: readonly string[], limit: number): Promise<ChangeLogRow[]> {
    return (await this.db.query(
      `SELECT type, item_id, seq, first_seq, was_public, author_id, status, date_utc, modified_utc FROM change_log WHERE seq > ? AND type NOT IN (${placeholders(skipped)}) ORDER BY seq LIMIT ${limit}`,
      [after, ...skipped],
    )) as ChangeLogRow[];
  }

  /** The `limit` rows before seq `before`, newest first, but those of the types `skipped` (without first_seq and was_public). */
  async before(before: number, skipped: readonly string[], limit: number): Promise<Omit<ChangeLogRow, 'first_seq' | 'was_public'>[]> {
    return (await this.db.query(
      `SELECT type, item_id, seq, author_id, status, date_utc, modified_utc FROM change_log WHERE seq < ? AND type NOT IN (${placeholders(skipped)}) ORDER BY seq DESC LIMIT ${limit}`,
      [before, ...skipped],
    )) as Omit<ChangeLogRow, 'first_seq' | 'was_public'>[];
  }

  /** The log's counter (the last seq given) and the highest seq of a purged tombstone. */
  async counter(): Promise<{ seq: number; purged: number }> {
    const [row] = (await this.db.query("SELECT seq, purged_seq FROM change_counter WHERE name = 'log'")) as {
      seq: number | string;
      purged_seq: number | string;
    }[];
    return { seq: Number(row?.seq ?? 0), purged: Number(row?.purged_seq ?? 0) };
  }

  /** The highest seq of the tombstones of `kind` (rows whose item's row is gone) changed at or before `before`; 0 when none. */
  async topTombstone(kind: ChangeKind, before: string): Promise<number> {
    const [row] = (await this.db.query(`SELECT MAX(seq) AS top ${tombstones(kind)}`, [kind.type, before])) as { top: number | string | null }[];
    return Number(row?.top ?? 0);
  }

  /** Raises the purge mark to `top` (never lowers it). */
  async markPurged(top: number): Promise<void> {
    await this.db.query("UPDATE change_counter SET purged_seq = ? WHERE name = 'log' AND purged_seq < ?", [top, top]);
  }

  /** Deletes the tombstones of `kind` changed at or before `before`, up to seq `top`. */
  async deleteTombstones(kind: ChangeKind, before: string, top: number): Promise<void> {
    await this.db.query(`DELETE ${tombstones(kind)} AND seq <= ?`, [kind.type, before, top]);
  }
}

/** The rows of a kind's tombstones: its rows in the log whose item's row is gone (parameters: the type, the time). */
function tombstones({ state }: ChangeKind): string {
  return `FROM change_log WHERE type = ? AND changed_utc <= ? AND NOT EXISTS (SELECT 1 FROM ${state.table} t WHERE ${state.where ? `${state.where} AND ` : ''}t.id = change_log.item_id)`;
}
