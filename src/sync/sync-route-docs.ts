import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { answersFor, BAD_LOGIN, code, idParam, INTERNAL, INVALID_PARAM, loginRequired, publicRead, type RouteText, TOO_MANY } from '../common/http/route-docs';

// The OpenAPI answers of the change feed and the webhooks routes, built from the shared route
// documentation helpers.

/** GET {api_root}/changes (sync.md): public (the caller's visibility), never cached. */
export function ChangesDocs(text: RouteText, response: Type) {
  return applyDecorators(
    ApiOperation(text),
    publicRead(),
    ApiResponse({ status: 200, description: 'Changes after the token, in commit order', type: response }),
    ...answersFor({
      400: [code('rest_invalid_param', '`since` is not a token of this service, or `per_page`, `types` or `embed` is not valid')],
      401: [BAD_LOGIN],
      410: [code('rest_sync_token_expired', 'the token is older than the retention of removals: start again without `since`')],
      429: [TOO_MANY],
      500: [INTERNAL],
    }),
  );
}

/**
 * A webhook route (sync.md): administrators only. `body` for the writes; `byId` for the routes
 * of one subscription (an unknown id answers 400 like the other item routes).
 */
export function WebhookDocs(text: RouteText, answer: { status: 200 | 201 | 202; type: Type; description: string }, opts: { body?: Type; byId?: boolean } = {}) {
  const bad: string[] = [];
  if (opts.body) bad.push(code('rest_invalid_json', 'the body is declared as JSON but does not parse'));
  if (opts.body) bad.push(code('rest_missing_callback_param', '`url` or `events` is missing (create)'));
  if (opts.body || opts.byId) {
    bad.push(code('rest_invalid_param', opts.body ? `${INVALID_PARAM}; \`url\` also when it names a private address` : 'no webhook has this id'));
  }
  return applyDecorators(
    ...(answer.status === 201 ? [] : [HttpCode(answer.status)]),
    ApiOperation(text),
    loginRequired(),
    ...(opts.byId ? [idParam()] : []),
    ...(opts.body ? [ApiBody({ type: opts.body })] : []),
    ApiResponse({ status: answer.status, description: answer.description, type: answer.type }),
    ...answersFor({
      ...(bad.length > 0 ? { 400: bad } : {}),
      401: [BAD_LOGIN, code('rest_forbidden', 'no credentials were sent; only administrators manage webhooks')],
      403: [code('rest_forbidden', 'only administrators manage webhooks')],
      ...(opts.byId ? { 404: [code('rest_no_route', 'the id is not a whole number')] } : {}),
      ...(opts.body ? { 413: [code('rest_payload_too_large', 'the request body is over the size limit (1 MB)')] } : {}),
      429: [TOO_MANY],
      500: [INTERNAL],
    }),
  );
}
