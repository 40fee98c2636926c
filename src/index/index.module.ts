import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ApiDocHooks } from './api-doc-hooks';
import { ApiDocsService } from './api-docs.service';
import { IndexController } from './index.controller';
import { IndexService } from './index.service';

@Module({
  imports: [DiscoveryModule],
  controllers: [IndexController],
  providers: [IndexService, ApiDocsService, ApiDocHooks],
  exports: [ApiDocsService],
})
export class IndexModule {}
