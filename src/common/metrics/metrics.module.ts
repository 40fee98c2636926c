import { Module } from '@nestjs/common';
import { CacheModule } from '../cache/cache.module';
import { Metrics } from './metrics';

/**
 * The one Metrics registry of the app. Not global: the modules that inject Metrics import this
 * module (OpsModule for GET /metrics, DatabaseModule for the pool, SyncModule for the webhook deliveries); Nest makes one
 * instance of a module imported in several places, so they share the registry. configureApp
 * finds it with app.get(Metrics) for the request-counting hook.
 */
@Module({ imports: [CacheModule], providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
