import type { DataSource } from 'typeorm';
import type { Tx } from '../database/tx';
import type { ImportKind, ImportSession } from '../imports';
import { SourceItemEntity } from './source.entity';

/** The tables whose rows carry `modified_utc`, by import kind: what tells a local edit. */
const MODIFIED_TABLES: Partial<Record<ImportKind, string>> = { event: 'events', venue: 'venues', organizer: 'organizers' };

/**
 * One source's part in its run's writes (sources.md §2–4): it remembers in `source_items` what
 * the source holds and the local `modified_utc` right after the source wrote it, so that a later
 * local change is told apart (`keep_local_edits`), and it collects the keys the run saw.
 */
export class SourceSession implements ImportSession {
  /** The origin keys of the events this run found at the source. */
  readonly seen = new Set<string>();

  constructor(
    private readonly db: DataSource,
    private readonly sourceId: number,
    private readonly keepLocalEdits: boolean,
  ) {}

  async keepsLocal(kind: ImportKind, localId: number): Promise<boolean> {
    const table = MODIFIED_TABLES[kind];
    if (!this.keepLocalEdits || table === undefined) return false;
    const item = await this.db.getRepository(SourceItemEntity).findOne({ where: { sourceId: this.sourceId, kind, localId } });
    if (item === null || item.localModified === null) return false;
    return (await this.modifiedOf(this.db, table, localId)) !== item.localModified;
  }

  async holds(tx: Tx | null, kind: ImportKind, key: string, localId: number): Promise<void> {
    if (kind === 'event') this.seen.add(key);
    const table = MODIFIED_TABLES[kind];
    const repo = (tx ?? this.db).getRepository(SourceItemEntity);
    const row = await repo.findOne({ where: { sourceId: this.sourceId, kind, localId } });
    if (tx === null && row !== null && row.sourceKey === key) return; // found as it was: nothing to note
    // Written now (in its transaction), or first found here: the local state is the source's.
    const localModified = table === undefined ? null : await this.modifiedOf(tx ?? this.db, table, localId);
    if (row === null) await repo.insert({ sourceId: this.sourceId, kind, localId, sourceKey: key, localModified });
    else await repo.update({ sourceId: this.sourceId, kind, localId }, { sourceKey: key, localModified: tx === null ? row.localModified : localModified });
  }

  private async modifiedOf(db: DataSource | Tx, table: string, id: number): Promise<string | null> {
    const rows = (await db.query(`SELECT modified_utc FROM ${table} WHERE id = ?`, [id])) as { modified_utc: string }[];
    return rows[0]?.modified_utc ?? null;
  }
}
