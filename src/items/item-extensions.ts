import { ListExtensions } from '../common/pagination';
import type { Tx } from '../database/tx';

type Json = Record<string, unknown>;

/**
 * Extension point for optional modules (the geo extension, or a team's own module) that add
 * write fields and output to venues or organizers. An extension owns some parameters of the
 * item's writes (POST/PUT/PATCH and items nested in event writes), stores its own data in the
 * write's transaction, and adds keys to the item's representation.
 */
export interface ItemExtension<E extends { id: number }> {
  /** Write parameters it owns (kept out of the core's validation). */
  readonly params: readonly string[];
  /** Checks its parameters of a write; returns `{ param: message }` for every bad one. */
  check(input: Record<string, unknown>, isCreate: boolean): Record<string, string>;
  /** Stores its data for `item`, inside the write's transaction. */
  save(manager: Tx, item: E, input: Record<string, unknown>, isCreate: boolean): Promise<void>;
  /** Extra output for a batch of items (one query): keys for the item, and members for its JSON-LD. */
  present(items: E[]): Promise<Map<number, ItemExtras>>;
  /** Deletes its data of an item deleted for good, inside that delete's transaction. */
  remove(manager: Tx, id: number): Promise<void>;
  /**
   * A fragment of HTML for the item's public page (pages.md), from its representation (with
   * this extension's fields): escaped by the extension; null for none.
   */
  pageFragment?(item: Json): string | null;
}

export interface ItemExtras {
  /** Added after the kind's own fields (venues: after `stateprovince`). */
  fields?: Json;
  /** Added to the item's JSON-LD (venues: after `address`). */
  jsonLd?: Json;
}

/** The registry of one item kind; modules register in onModuleInit. */
export class ItemExtensions<E extends { id: number }> {
  private readonly list: ItemExtension<E>[] = [];
  /** Parameters of the kind's list (GET /venues, GET /organizers): register a ListExtension here. */
  readonly lists = new ListExtensions();

  register(extension: ItemExtension<E>): void {
    this.list.push(extension);
  }

  all(): readonly ItemExtension<E>[] {
    return this.list;
  }

  /** Every extension's checks, merged (README "Hooks": for a parameter, the first message given wins). */
  check(input: Record<string, unknown>, isCreate: boolean): Record<string, string> {
    return this.list.reduce<Record<string, string>>((bad, e) => firstGiven(bad, e.check(input, isCreate)), {});
  }

  async save(manager: Tx, item: E, input: Record<string, unknown>, isCreate: boolean): Promise<void> {
    for (const extension of this.list) await extension.save(manager, item, input, isCreate);
  }

  async remove(manager: Tx, id: number): Promise<void> {
    for (const extension of this.list) await extension.remove(manager, id);
  }

  /** The fragments of HTML the extensions add to the item's public page, in registration order. */
  pageFragments(item: Json): string[] {
    return this.list.map((e) => e.pageFragment?.(item) ?? null).filter((f): f is string => f !== null && f !== '');
  }

  /** Every extension's output for these items, merged per item (README "Hooks": for a key, the first given wins). */
  async present(items: E[]): Promise<Map<number, ItemExtras>> {
    const merged = new Map<number, ItemExtras>();
    if (this.list.length === 0 || items.length === 0) return merged;
    for (const extension of this.list) {
      for (const [id, extras] of await extension.present(items)) {
        const current = merged.get(id) ?? {};
        merged.set(id, { fields: firstGiven(current.fields, extras.fields), jsonLd: firstGiven(current.jsonLd, extras.jsonLd) });
      }
    }
    return merged;
  }
}

/**
 * The merge rule of every hook's values (README "Hooks"): `kept` and then the members of `added`
 * it lacks, in their order, so that for a key given twice the first given (the earlier
 * registration, the core before any extension) wins.
 */
export function firstGiven<V>(kept: Readonly<Record<string, V>> | undefined, added: Readonly<Record<string, V>> | undefined): Record<string, V> {
  const out: Record<string, V> = { ...kept };
  for (const [key, value] of Object.entries(added ?? {})) if (!(key in out)) out[key] = value;
  return out;
}
