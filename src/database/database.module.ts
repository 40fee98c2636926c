import { Global, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Dialect } from './dialect';

/** Exposes the Dialect of the configured connection to repositories. */
@Global()
@Module({
  providers: [{ provide: Dialect, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => Dialect.of(ds) }],
  exports: [Dialect],
})
export class DatabaseModule {}
