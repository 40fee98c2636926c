import { Controller, Get } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_NAMESPACE } from '../config/app-config';
import { IndexService } from './index.service';

@ApiTags('index')
@Controller()
export class IndexController {
  constructor(private readonly index: IndexService) {}

  @Get()
  @ApiExcludeEndpoint()
  root() {
    return this.index.restRoot();
  }

  @Get(API_NAMESPACE)
  @ApiExcludeEndpoint()
  namespace() {
    return this.index.namespaceIndex();
  }

  @Get(`${API_NAMESPACE}/doc`)
  @ApiOperation({ summary: 'This OpenAPI 3 document' })
  @ApiOkResponse({ description: 'The OpenAPI document of the namespace' })
  doc() {
    return this.index.document();
  }
}
