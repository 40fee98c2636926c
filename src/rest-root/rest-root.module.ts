import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ApiDocHooks } from './api-doc-hooks';
import { ApiDocsService } from './api-docs.service';
import { RestRootController } from './rest-root.controller';
import { RestRootService } from './rest-root.service';

@Module({
  imports: [DiscoveryModule],
  controllers: [RestRootController],
  providers: [RestRootService, ApiDocsService, ApiDocHooks],
  exports: [ApiDocsService],
})
export class RestRootModule {}
