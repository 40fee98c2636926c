import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_NAMESPACE, AppConfig } from '../config/app-config';
import { ErrorResponseDto } from '../common/dto/error-response.dto';
import { CostDetailsDto, DateDetailsDto, ImageDto, ImageSizeDto } from '../common/dto/shared-response.dto';
import { EventDto, EventListDto } from '../events';
import { OrganizerDto, OrganizerListDto } from '../organizers';
import { TermDto } from '../taxonomies';
import { VenueDto, VenueListDto } from '../venues';
import { ApiDocHooks } from './api-doc-hooks';
import { ApiDocsService } from './api-docs.service';

/** Every resource representation of spec resources.md, and the error body, listed in components.schemas (endpoints.md §2). */
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
  ErrorResponseDto,
];

/** The tags of the operations, in the order a reader meets them. */
const TAGS: Record<string, string> = {
  events: 'Events: what happens, when and where. Each event may have one venue, several organizers, categories and tags.',
  venues: 'Venues: the places where events happen.',
  organizers: 'Organizers: the people or groups who run events.',
  categories: 'Event categories, which may be nested (a category can have a parent).',
  tags: 'Event tags: flat labels.',
  sync: 'The change feed: what changed since a token, for clients that keep a copy.',
  webhooks: 'Webhooks (administrators only): changes POSTed to your URL, signed, retried until delivered.',
  index: 'About the API itself.',
};

const API_DESCRIPTION = [
  'Events, venues, organizers, categories and tags, compatible with The Events Calendar REST API (tribe/events/v1).',
  '',
  '**Authentication.** Reading published items is open to everyone. Writing needs HTTP Basic authentication with your login ' +
    'and an application password; what you may do depends on your role. Credentials that are sent are always checked, ' +
    'on public routes too: a wrong password answers 401.',
  '',
  '**Ids** are whole numbers; wherever an id is accepted, its digits as a string (`"12"`) are accepted too.',
  '',
  '**Errors** all have the same body (schema `Error`): a stable `code` to test, a `message` for people, and `data` with the ' +
    'HTTP `status` repeated and, depending on the code, more details (`params` of `rest_invalid_param` names every invalid ' +
    'parameter). Any route may also answer `404 rest_no_route` (no such path or method) and `400 rest_invalid_request` ' +
    '(a request that cannot be read, such as broken percent-encoding).',
  '',
  '**Caching.** Reads send an `ETag`; send it back in `If-None-Match` to get `304 Not Modified` when nothing changed, ' +
    'and in `If-Match` on an update or delete to make the change only if nobody changed the item since you read it.',
].join('\n');

/** Where the browsable documentation page is served (outside {api_root}, spec beyond.md #6). */
export const DOCS_PAGE_PATH = 'docs';

/**
 * Sets up the OpenAPI document, built from the controllers and DTOs (nothing hand-written) when
 * first asked for, its paths relative to {api_root} as spec endpoints.md §2 asks, and serves the
 * browsable page.
 */
export function setupApiDocs(app: INestApplication): void {
  const config = app.get(AppConfig);
  const docs = app.get(ApiDocsService);
  docs.setBuilder(() => {
    const builder = new DocumentBuilder()
      .setTitle('Calendar Events REST API')
      .setDescription(API_DESCRIPTION)
      .setVersion('1.0.0')
      .setLicense('MIT', 'https://opensource.org/license/mit')
      // With the trailing slash that spec endpoints.md §2 asks for (redocly.yaml says why its rule is off).
      .addServer(`${config.apiRoot}/`)
      .addBasicAuth({ type: 'http', scheme: 'basic', description: 'Your login and an application password' }, 'basicAuth');
    for (const [name, description] of Object.entries(TAGS)) builder.addTag(name, description);
    const raw = SwaggerModule.createDocument(app, builder.build(), { deepScanRoutes: true, extraModels: RESOURCE_SCHEMAS });
    return app.get(ApiDocHooks).apply(relativeToApiRoot(raw));
  });
  SwaggerModule.setup(DOCS_PAGE_PATH, app, () => docs.getDocument(), { useGlobalPrefix: false, ui: true, raw: false });
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
