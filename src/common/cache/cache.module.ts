import { Global, Module } from '@nestjs/common';
import { DataVersion } from './data-version.service';

@Global()
@Module({ providers: [DataVersion], exports: [DataVersion] })
export class CacheModule {}
