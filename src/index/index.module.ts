import { Module } from '@nestjs/common';
import { ApiDocExtensions } from './api-doc-extensions';
import { ApiDocsService } from './api-docs.service';
import { IndexController } from './index.controller';
import { IndexService } from './index.service';

@Module({
  controllers: [IndexController],
  providers: [IndexService, ApiDocsService, ApiDocExtensions],
  // ApiDocExtensions: extensions add what they document on core schemas and operations.
  exports: [ApiDocsService, ApiDocExtensions],
})
export class IndexModule {}
