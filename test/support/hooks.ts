import type { DiscoveryService } from '@nestjs/core';
import type { HookKind } from '../../src/common/feature/hooks';

/**
 * What a registry of hooks (Hooks) finds when the app provides these hooks of `kind`, in this
 * order: for a unit spec that builds a registry without a Nest container,
 * `new EventHooks(listedHooks(EVENT_HOOKS, seats, notes))`.
 */
export function listedHooks<T>(kind: HookKind<T>, ...hooks: T[]): DiscoveryService {
  const wrappers = hooks.map((instance, i) => ({ instance, name: `hook ${i}`, isDependencyTreeStatic: () => true }));
  const fake: Pick<DiscoveryService, 'getProviders' | 'getMetadataByDecorator'> = {
    getProviders: () => wrappers as never,
    getMetadataByDecorator: (() => [kind]) as never,
  };
  return fake as DiscoveryService;
}
