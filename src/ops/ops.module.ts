import { DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CacheModule } from '../common/cache/cache.module';
import { MetricsModule } from '../common/metrics';
import type { AppConfig } from '../config/app-config';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { ReadinessService } from './readiness.service';

/**
 * Operations (sync.md "Operations"): health and readiness always, metrics with
 * CALENDAR_METRICS=on. The request-counting hook is registered by configureApp
 * (common/metrics/request-metrics.ts), under the same setting.
 */
@Module({})
export class OpsModule {
  static forRoot(config: Pick<AppConfig, 'metrics'>): DynamicModule {
    return {
      module: OpsModule,
      // A failing readiness check is the answer's business, not a log line per probe.
      imports: [TerminusModule.forRoot({ logger: false }), CacheModule, MetricsModule],
      controllers: [HealthController, ...(config.metrics ? [MetricsController] : [])],
      providers: [ReadinessService],
    };
  }
}
