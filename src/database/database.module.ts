import { Global, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Dialect } from './dialect';
import { UnitOfWork } from './unit-of-work';

/** Exposes the Dialect of the configured connection to repositories, and the unit of work every write runs in. */
@Global()
@Module({
  providers: [{ provide: Dialect, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => Dialect.of(ds) }, UnitOfWork],
  exports: [Dialect, UnitOfWork],
})
export class DatabaseModule {}
