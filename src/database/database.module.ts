import { Global, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheModule } from '../common/cache/cache.module';
import { Dialect } from './dialect';
import { SqliteCheckpointer } from './sqlite-checkpointer';
import { UnitOfWork } from './unit-of-work';
import { WriteParticipants } from './write-participants';

/**
 * Exposes the Dialect of the configured connection to repositories, the unit of work every
 * write runs in, and the registry of its participants (a feature registers in onModuleInit).
 */
@Global()
@Module({
  // UnitOfWork moves the data version when a write commits.
  imports: [CacheModule],
  providers: [
    { provide: Dialect, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => Dialect.of(ds) },
    UnitOfWork,
    WriteParticipants,
    SqliteCheckpointer,
  ],
  exports: [Dialect, UnitOfWork, WriteParticipants],
})
export class DatabaseModule {}
