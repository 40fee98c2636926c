import { Global, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheModule } from '../common/cache/cache.module';
import { Dialect } from './dialect';
import { SqliteCheckpointer } from './sqlite-checkpointer';
import { UnitOfWork } from './unit-of-work';
import { WebhookOutbox } from './webhook-outbox';

/** Exposes the Dialect of the configured connection to repositories, and the unit of work every write runs in. */
@Global()
@Module({
  // UnitOfWork moves the data version when a write commits.
  imports: [CacheModule],
  providers: [
    { provide: Dialect, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => Dialect.of(ds) },
    UnitOfWork,
    WebhookOutbox,
    SqliteCheckpointer,
  ],
  exports: [Dialect, UnitOfWork, WebhookOutbox],
})
export class DatabaseModule {}
