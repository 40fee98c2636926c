import { DynamicModule, Global, Module } from '@nestjs/common';
import { CacheShares } from '../common/cache/cache-shares';
import { enabledFeatures, type Feature } from '../common/feature/feature';
import type { AppConfig } from '../config/app-config';
import { ChangeKinds } from './change-kinds';

/**
 * What the installed features declare for the foundations (the composition root passes them:
 * src/features.ts): the caches' shares (of every installed feature, so that switching one on
 * never overdraws them) and the change kinds (of the features that are on). Both are checked
 * here, so a bad declaration stops the start.
 */
@Global()
@Module({})
export class FeatureDeclarationsModule {
  static forRoot(config: AppConfig, features: readonly Feature[]): DynamicModule {
    return {
      module: FeatureDeclarationsModule,
      providers: [
        { provide: CacheShares, useValue: CacheShares.of(features) },
        { provide: ChangeKinds, useValue: ChangeKinds.of(enabledFeatures(features, config)) },
      ],
      exports: [CacheShares, ChangeKinds],
    };
  }
}
