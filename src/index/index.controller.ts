import { Controller, Get } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { DocumentDocs } from '../common/http/route-docs';
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
  @DocumentDocs({
    summary: 'This OpenAPI document',
    description: 'Describes every route of the API with its parameters, request bodies, answers and errors. Reading it is open to everyone.',
  })
  doc() {
    return this.index.document();
  }
}
