import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheModule } from '../common/cache/cache.module';
import { MetricsModule } from '../common/metrics/metrics.module';
import { Dialect } from './dialect';
import { PoolMetrics } from './pool-metrics';
import { SqliteCheckpointer } from './sqlite-checkpointer';
import { UnitOfWork } from './unit-of-work';
import { WriteParticipants } from './write-participants';

/**
 * Exposes the Dialect of the configured connection to repositories, the unit of work every
 * write runs in, and the participants of every write (WriteParticipants, found by `@Hook`);
 * adds the pool's gauges to the metrics.
 */
@Global()
@Module({
  // UnitOfWork moves the data version when a write commits; the pool's gauges join the metrics.
  imports: [DiscoveryModule, CacheModule, MetricsModule],
  providers: [
    { provide: Dialect, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => Dialect.of(ds) },
    UnitOfWork,
    WriteParticipants,
    SqliteCheckpointer,
    PoolMetrics,
  ],
  exports: [Dialect, UnitOfWork, WriteParticipants],
})
export class DatabaseModule {}
