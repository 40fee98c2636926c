import type { ChangeKind, Feature } from '../common/feature/feature';

/** The change log's own type for a write that may touch anything (seed, recount); no feature's kind. */
export const BULK = 'bulk';

/** The change log's `type` column is varchar(16) (ChangeEntity). */
const MAX_TYPE_LENGTH = 16;

/**
 * The kinds of items the change log knows (sync.md), as the installed features declare them
 * (Feature.changeKinds), in the order of the features. The database layer reads every kind's
 * rows, states and links to events from here and names none itself; the composition root
 * builds it from the features (FeatureDeclarationsModule.forRoot) and the change set carries it.
 */
export class ChangeKinds {
  private readonly byType = new Map<string, ChangeKind>();

  constructor(kinds: readonly ChangeKind[]) {
    for (const kind of kinds) {
      if (kind.type === BULK || kind.type.length === 0 || kind.type.length > MAX_TYPE_LENGTH) {
        throw new Error(`change kinds: "${kind.type}" cannot be a change kind (1 to ${MAX_TYPE_LENGTH} characters, not "${BULK}")`);
      }
      if (this.byType.has(kind.type)) throw new Error(`change kinds: "${kind.type}" is declared twice`);
      this.byType.set(kind.type, kind);
    }
    for (const kind of kinds) {
      const linked = kind.linkedEvents?.type;
      if (linked !== undefined && !this.byType.has(linked)) throw new Error(`change kinds: "${kind.type}" links to "${linked}", which no feature declares`);
    }
  }

  /** The kinds of the features, in their order. */
  static of(features: readonly Feature[]): ChangeKinds {
    return new ChangeKinds(features.flatMap((f) => f.changeKinds ?? []));
  }

  all(): readonly ChangeKind[] {
    return [...this.byType.values()];
  }

  types(): string[] {
    return [...this.byType.keys()];
  }

  get(type: string): ChangeKind | undefined {
    return this.byType.get(type);
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  /** Whether an item of `type` is public whatever its state (a kind without status; never `bulk`). */
  alwaysPublic(type: string): boolean {
    return this.byType.get(type)?.hasStatus === false;
  }
}
