import { Module } from '@nestjs/common';
import { ApiDocsService } from './api-docs.service';
import { IndexController } from './index.controller';
import { IndexService } from './index.service';

@Module({
  controllers: [IndexController],
  providers: [IndexService, ApiDocsService],
  exports: [ApiDocsService],
})
export class IndexModule {}
