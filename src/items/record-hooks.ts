import { firstGiven, Hooks } from '../common/feature/hooks';
import type { Tx } from '../database/tx';

type Json = Record<string, unknown>;

/** What a hook adds to the representation of one record. */
export interface RecordExtras {
  /** Keys added after the kind's own (events: after `custom_fields`; venues: after `stateprovince`); a key of the core is never replaced. */
  fields?: Json;
  /** Members added to the record's JSON-LD. */
  jsonLd?: Json;
}

/** What a kind's hooks are told: in a parameter check (`check`), a write (`write`), a delete (`delete`). */
export interface RecordHookContexts {
  check: unknown;
  write: unknown;
  delete: unknown;
}

/**
 * The hook of one kind of record (events: EventHook; venues and organizers: ItemHook), the same
 * verbs for each kind: a field of a module's own, checked with the core's parameters, stored in
 * the module's tables inside the record's unit of work, shown in the representation for a whole
 * page at once. Every method is optional but `params`.
 */
export interface RecordHook<R, C extends RecordHookContexts> {
  /** The write parameters it owns (kept out of the core's validation; they reach it raw). */
  readonly params: readonly string[];
  /**
   * Checks its parameters before anything is written, with the core's parameter checks (so a
   * bad value answers 400 rest_invalid_param with `data.params`): `{ param: message }` for
   * every bad one.
   */
  check?(input: Json, ctx: C['check']): Record<string, string> | Promise<Record<string, string>>;
  /**
   * Inside the write's unit of work, after the record's row is written, on create and every
   * update: stores the module's data through `tx`. A throw (a WpError) refuses the write.
   */
  saved?(tx: Tx, record: R, ctx: C['write']): Promise<void>;
  /** Inside the unit of work of a delete (to the trash, or for good: `ctx.force`), before the row changes. A throw refuses it. */
  deleting?(tx: Tx, record: R, ctx: C['delete']): Promise<void>;
  /** What it adds to a page of records, by id, in one query for the page. */
  present?(records: readonly R[]): Promise<Map<number, RecordExtras>>;
}

/**
 * The hooks of one kind of record, and each verb run over all of them in their order, so that
 * the core makes one call at each step and holds no loop of its own. Values given twice are
 * merged by firstGiven.
 */
export class RecordHooks<R extends { id: number }, C extends RecordHookContexts> extends Hooks<RecordHook<R, C>> {
  /** Is some hook in charge of this write parameter? */
  owns(param: string): boolean {
    return this.all().some((h) => h.params.includes(param));
  }

  /** Every hook's write parameters, in their order. */
  params(): string[] {
    return this.all().flatMap((h) => [...h.params]);
  }

  /** Every hook's parameter checks, merged: `{ param: message }` (for a parameter, the first message given wins). */
  async check(input: Json, ctx: C['check']): Promise<Record<string, string>> {
    let bad: Record<string, string> = {};
    for (const hook of this.all()) if (hook.check) bad = firstGiven(bad, await hook.check(input, ctx));
    return bad;
  }

  /** Every hook's `saved`, in order, inside the write's unit of work. */
  async saved(tx: Tx, record: R, ctx: C['write']): Promise<void> {
    for (const hook of this.all()) await hook.saved?.(tx, record, ctx);
  }

  /** Every hook's `deleting`, in order, inside the delete's unit of work, before the row changes. */
  async deleting(tx: Tx, record: R, ctx: C['delete']): Promise<void> {
    for (const hook of this.all()) await hook.deleting?.(tx, record, ctx);
  }

  /** Every hook's output for a page of records (one call each), merged per record: for a key, the first given wins. */
  async present(records: readonly R[]): Promise<Map<number, RecordExtras>> {
    const merged = new Map<number, RecordExtras>();
    if (records.length === 0) return merged;
    for (const hook of this.all()) {
      if (!hook.present) continue;
      for (const [id, extras] of await hook.present(records)) {
        const current = merged.get(id);
        merged.set(id, { fields: firstGiven(current?.fields, extras.fields), jsonLd: firstGiven(current?.jsonLd, extras.jsonLd) });
      }
    }
    return merged;
  }
}
