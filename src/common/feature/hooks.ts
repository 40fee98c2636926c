import { DiscoveryService } from '@nestjs/core';

/**
 * A kind of hook: the token a provider names in `@Hook(…)` and a registry collects, typed with
 * the interface its hooks implement (`EVENT_HOOKS` is a `HookKind<EventHook>`). The feature that
 * calls the hooks of a kind declares it, beside the interface (README "Hooks" lists them).
 */
export interface HookKind<T> {
  /** What the hooks are for, in messages (`event`, `venue list`, `event page`). */
  readonly name: string;
  /** Never set: it carries the hook interface for the compiler. */
  readonly hook?: T;
}

export function hookKind<T>(name: string): HookKind<T> {
  return { name };
}

/** The metadata Nest's DiscoveryService finds providers by; its value is the kinds a provider declared. */
const HOOK = DiscoveryService.createDecorator<readonly HookKind<unknown>[]>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a kind of any hook interface
type AnyKind = HookKind<any>;
type HookOf<K> = K extends HookKind<infer T> ? T : never;
/** The hook interfaces of every kind named, all at once (A & B for two kinds). */
type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (all: infer I) => void ? I : never;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor arguments: Nest injects them
type ClassOf<T> = abstract new (...args: any[]) => T;

/**
 * Declares a provider a hook of these kinds: `@Hook(EVENT_HOOKS) @Injectable() class TicketsHook
 * implements EventHook`. Listed in its module's `providers`, it is found by the registry of each
 * kind (Hooks) when that module is loaded, and only then: a feature switched off has no hook. The
 * class must implement every kind's interface (the compiler checks it). One decorator per class;
 * a class of several kinds names them all in it.
 */
export function Hook<K extends AnyKind[]>(...kinds: K): (target: ClassOf<AllOf<HookOf<K[number]>>>) => void {
  const mark = HOOK(kinds) as ClassDecorator;
  return (target) => void mark(target);
}

/**
 * The hooks of one kind in the running app: every singleton class provider declared
 * `@Hook(kind)` in a loaded module, once each, in the order Nest registers the modules: the
 * app's modules in the features' order (the core's, then the extensions' as installedFeatures
 * lists them), a module imported by an earlier one at that earlier place, and within a module
 * the order of its `providers`. Collected on first use, when the container has made every
 * provider (the OpenAPI document, built before the modules' init, finds its hooks too). A
 * feature's registry extends it with the calls it makes of them, merged by firstGiven.
 */
export class Hooks<T> {
  private found: readonly T[] | undefined;

  constructor(
    private readonly discovery: DiscoveryService,
    readonly kind: HookKind<T>,
  ) {}

  all(): readonly T[] {
    return (this.found ??= this.discover());
  }

  private discover(): T[] {
    const hooks: T[] = [];
    for (const wrapper of this.discovery.getProviders({ metadataKey: HOOK.KEY })) {
      if (!(this.discovery.getMetadataByDecorator(HOOK, wrapper) ?? []).includes(this.kind)) continue;
      const instance: unknown = wrapper.isDependencyTreeStatic() ? wrapper.instance : undefined;
      if (instance === undefined || instance === null) {
        throw new Error(`${wrapper.name}: a hook (${this.kind.name}) is a singleton class provider, asked for once the app is made`);
      }
      hooks.push(instance as T);
    }
    return hooks;
  }
}

/**
 * The merge rule of every hook's values (README "Hooks"): `kept` and then the members of `added`
 * it lacks, in their order, so that for a key given twice the first given (the earlier hook, the
 * core before any extension) wins.
 */
export function firstGiven<V>(kept: Readonly<Record<string, V>> | undefined, added: Readonly<Record<string, V>> | undefined): Record<string, V> {
  const out: Record<string, V> = { ...kept };
  for (const [key, value] of Object.entries(added ?? {})) if (!(key in out)) out[key] = value;
  return out;
}
