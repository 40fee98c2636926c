import { Global, Module } from '@nestjs/common';
import { CacheModule } from '../cache/cache.module';
import { Metrics } from './metrics';

/** The one Metrics registry of the app, injectable everywhere (the webhook module counts its deliveries there). */
@Global()
@Module({ imports: [CacheModule], providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
