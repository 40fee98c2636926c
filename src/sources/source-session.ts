import type { Tx } from '../database/tx';
import type { ImportKind, ImportSession } from '../imports';
import type { SourceItemsRepository } from './source-items.repository';

/**
 * One source's part in its run's writes (sources.md §2–4): it remembers in `source_items` what
 * the source holds and the local `modified_utc` right after the source wrote it, so that a later
 * local change is told apart (`keep_local_edits`), and it collects the keys the run saw.
 */
export class SourceSession implements ImportSession {
  /** The origin keys of the events this run found at the source. */
  readonly seen = new Set<string>();

  constructor(
    private readonly items: SourceItemsRepository,
    private readonly sourceId: number,
    private readonly keepLocalEdits: boolean,
  ) {}

  async keepsLocal(kind: ImportKind, localId: number): Promise<boolean> {
    if (!this.keepLocalEdits || !this.items.tracksEdits(kind)) return false;
    const item = await this.items.find(null, this.sourceId, kind, localId);
    if (item === null || item.localModified === null) return false;
    return (await this.items.modifiedOf(null, kind, localId)) !== item.localModified;
  }

  async holds(tx: Tx | null, kind: ImportKind, key: string, localId: number): Promise<void> {
    if (kind === 'event') this.seen.add(key);
    const row = await this.items.find(tx, this.sourceId, kind, localId);
    if (tx === null && row !== null && row.sourceKey === key) return; // found as it was: nothing to note
    // Written now (in its transaction), or first found here: the local state is the source's.
    const localModified = await this.items.modifiedOf(tx, kind, localId);
    if (row === null) await this.items.insert(tx, { sourceId: this.sourceId, kind, localId, sourceKey: key, localModified });
    else await this.items.update(tx, this.sourceId, kind, localId, { sourceKey: key, localModified: tx === null ? row.localModified : localModified });
  }
}
