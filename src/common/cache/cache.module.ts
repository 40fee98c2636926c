import { Module } from '@nestjs/common';
import { CacheBus } from './cache-bus';
import { DataVersion } from './data-version.service';
import { ReadModel } from './read-model';

/**
 * The read model (every named cache), the data version it follows, and the bus that pushes
 * other instances' commits to it through Redis. One instance per process.
 */
@Module({ providers: [CacheBus, DataVersion, ReadModel], exports: [ReadModel, DataVersion, CacheBus] })
export class CacheModule {}
