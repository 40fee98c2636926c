import { Controller, Get } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { ItemFields } from '../common/http/fields-routes';
import { DocumentDocs } from '../common/http/route-docs';
import { ApiLinks } from '../common/http/api-links';
import { noRoute } from '../common/errors';
import { API_NAMESPACE, AppConfig } from '../config/app-config';
import { RestRootService } from './rest-root.service';

@ApiTags('index')
@Controller()
export class RestRootController {
  constructor(
    private readonly service: RestRootService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiExcludeEndpoint()
  root() {
    return this.service.restRoot(ApiLinks.canonical(this.config.baseUrl));
  }

  /** WordPress's REST index (compat.md), unless CALENDAR_WP_COMPAT=off; `?rest_route=/` routes here too. */
  @Get('wp-json')
  @ApiExcludeEndpoint()
  wpRoot() {
    if (!this.config.wpCompat) throw noRoute();
    return this.service.restRoot();
  }

  @Get(API_NAMESPACE)
  @ItemFields('the index')
  @ApiExcludeEndpoint()
  namespace() {
    return this.service.namespaceIndex();
  }

  @Get(`${API_NAMESPACE}/doc`)
  @ItemFields('the document')
  @DocumentDocs({
    summary: 'This OpenAPI document',
    description: 'Describes every route of the API with its parameters, request bodies, answers and errors. Reading it is open to everyone.',
  })
  doc() {
    return this.service.document();
  }
}
