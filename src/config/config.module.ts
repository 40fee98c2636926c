import { DynamicModule, Global, Module } from '@nestjs/common';
import { CacheShares } from '../common/cache/cache-shares';
import { enabledFeatures, type Feature } from '../common/feature/feature';
import { ChangeKinds } from '../database/change-kinds';
import { AppConfig } from './app-config';

/**
 * Makes the one validated AppConfig injectable everywhere, with what the installed features
 * declare for the lower floors (the composition root passes them: src/features.ts): the
 * caches' shares (of every installed feature, so that switching one on never overdraws them)
 * and the change kinds (of the features that are on). Both are checked here, so a bad
 * declaration stops the start.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, features: readonly Feature[]): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: CacheShares, useValue: CacheShares.of(features) },
        { provide: ChangeKinds, useValue: ChangeKinds.of(enabledFeatures(features, config)) },
      ],
      exports: [AppConfig, CacheShares, ChangeKinds],
    };
  }
}
