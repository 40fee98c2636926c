import { DynamicModule, Global, Module } from '@nestjs/common';
import { CacheShares } from '../common/cache/cache-shares';
import { CommittedVersion } from '../common/cache/data-version.service';
import { enabledFeatures, type Feature, InstalledFeatures, settingsOf } from '../common/feature/feature';
import { type AppConfig, ConfigError } from '../config/app-config';
import { ChangeKinds } from './change-kinds';
import { ChangeLogVersion } from './change-log-version';

/**
 * What the installed features declare for the foundations (the composition root passes them:
 * src/features.ts): the caches' shares (of every installed feature, so that switching one on
 * never overdraws them), the change kinds (of the features that are on) and the list of features
 * installed and enabled. The features' settings, the shares and the kinds are checked here, so a
 * bad value or declaration stops the start. With them, the version the caches follow
 * (CommittedVersion: the change log's counter), global like the shares the caches are built from.
 */
@Global()
@Module({})
export class FeatureDeclarationsModule {
  static forRoot(config: AppConfig, features: readonly Feature[]): DynamicModule {
    checkFeatures(features, config);
    const enabled = enabledFeatures(features, config);
    return {
      module: FeatureDeclarationsModule,
      providers: [
        { provide: CacheShares, useValue: CacheShares.of(features) },
        { provide: ChangeKinds, useValue: ChangeKinds.of(enabled) },
        { provide: InstalledFeatures, useValue: new InstalledFeatures(features, enabled) },
        { provide: CommittedVersion, useClass: ChangeLogVersion },
      ],
      exports: [CacheShares, ChangeKinds, InstalledFeatures, CommittedVersion],
    };
  }
}

/**
 * Checks the installed features: names unique, each setting declared by one feature, every
 * setting's value valid. Throws ConfigError naming every problem, as loadConfig does for the
 * core's settings.
 */
export function checkFeatures(features: readonly Feature[], config: AppConfig): void {
  const problems: string[] = [];
  const owners = new Map<string, string>();
  for (const feature of features) {
    if (features.filter((f) => f.name === feature.name).length > 1) problems.push(`two installed features are named ${feature.name}`);
    for (const setting of settingsOf(feature)) {
      const owner = owners.get(setting.name);
      if (owner !== undefined && owner !== feature.name) problems.push(`${setting.name} is declared by both ${owner} and ${feature.name}`);
      owners.set(setting.name, feature.name);
    }
  }
  problems.push(...config.settingProblems(features.flatMap(settingsOf)));
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
}
