import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';

/**
 * Makes the one validated AppConfig injectable everywhere. What the features declare for the
 * layers above config (caches' shares, change kinds) is provided by FeatureDeclarationsModule
 * (src/database), since config imports no other folder.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
