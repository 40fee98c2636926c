import { Module } from '@nestjs/common';
import { DataVersion } from './data-version.service';
import { ReadModel } from './read-model';

/** The read model (every named cache) and the data version it follows. One instance per process. */
@Module({ providers: [DataVersion, ReadModel], exports: [ReadModel, DataVersion] })
export class CacheModule {}
