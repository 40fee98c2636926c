import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';

/** OpenAPI description of an `{id}` item route. */
export const IdParamDoc = () => ApiParam({ name: 'id', type: 'integer', description: 'Item id' });

/** OpenAPI description of a `by-slug/{slug}` route. */
export const SlugParamDoc = () => ApiParam({ name: 'slug', type: 'string', description: 'Item slug (exact)' });

/** Documentation of a create route: its body and the 201 answer. */
export function CreateDocs(summary: string, body: Type, response: Type) {
  return applyDecorators(ApiOperation({ summary }), ApiBody({ type: body }), ApiCreatedResponse({ type: response }));
}

/** POST, PUT and PATCH on an item are the same partial update (spec endpoints.md §0), answering 200. */
export function UpdateDocs(summary: string, body: Type, response: Type) {
  return applyDecorators(HttpCode(200), ApiOperation({ summary }), ApiBody({ type: body }), ApiOkResponse({ type: response }));
}

export function ReadDocs(summary: string, response: Type) {
  return applyDecorators(ApiOperation({ summary }), ApiOkResponse({ type: response }));
}
