import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_NAMESPACE, AppConfig } from '../config/app-config';
import { CostDetailsDto, DateDetailsDto, ImageDto, ImageSizeDto } from '../common/dto/shared-response.dto';
import { EventDto, EventListDto } from '../events';
import { OrganizerDto, OrganizerListDto } from '../organizers';
import { TermDto } from '../taxonomies';
import { VenueDto, VenueListDto } from '../venues';
import { ApiDocsService } from './api-docs.service';

/** Every resource representation of spec resources.md, listed in components.schemas (endpoints.md §2). */
const RESOURCE_SCHEMAS = [
  EventDto,
  EventListDto,
  VenueDto,
  VenueListDto,
  OrganizerDto,
  OrganizerListDto,
  TermDto,
  ImageDto,
  ImageSizeDto,
  DateDetailsDto,
  CostDetailsDto,
];

/** Where the browsable documentation page is served (outside {api_root}, spec beyond.md #6). */
export const DOCS_PAGE_PATH = 'docs';

/**
 * Builds the OpenAPI document from the controllers and DTOs (nothing hand-written), rewrites
 * its paths relative to {api_root} as spec endpoints.md §2 asks, and serves the browsable page.
 */
export function setupApiDocs(app: INestApplication): OpenAPIObject {
  const config = app.get(AppConfig);
  const builder = new DocumentBuilder()
    .setTitle('Calendar Events REST API')
    .setDescription(
      'Events, venues, organizers, categories and tags, compatible with The Events Calendar REST API (tribe/events/v1). ' +
        'Authenticate with HTTP Basic: login and application password.',
    )
    .setVersion('1.0.0')
    .addServer(`${config.apiRoot}/`)
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'basicAuth');
  const raw = SwaggerModule.createDocument(app, builder.build(), { deepScanRoutes: true, extraModels: RESOURCE_SCHEMAS });
  const document = relativeToApiRoot(raw);
  app.get(ApiDocsService).setDocument(document);
  SwaggerModule.setup(DOCS_PAGE_PATH, app, document, { useGlobalPrefix: false, ui: true, raw: false });
  return document;
}

function relativeToApiRoot(doc: OpenAPIObject): OpenAPIObject {
  const prefix = `/${API_NAMESPACE}`;
  const paths: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith(`${prefix}/`)) continue;
    paths[path.slice(prefix.length)] = item;
  }
  return { ...doc, openapi: '3.0.0', paths };
}
