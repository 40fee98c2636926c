import { Module } from '@nestjs/common';
import { DataVersion } from './data-version.service';

@Module({ providers: [DataVersion], exports: [DataVersion] })
export class CacheModule {}
