import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import {
  answersFor,
  BAD_LOGIN,
  code,
  ETAG,
  ErrorStatus,
  ifNoneMatch,
  INTERNAL,
  ItemPath,
  loginRequired,
  notModified,
  pathParam,
  publicRead,
  RouteText,
  TOO_MANY,
} from '../common/http/route-docs';

/**
 * What an extension's route is, for its OpenAPI operation: who may call it, how its path names
 * an item, what it answers and which errors of its own it gives.
 */
export interface ExtensionRoute {
  /** The operation's `summary` and `description`. */
  text: RouteText;
  /** `read`: public and conditional (anonymous callers served, `ETag`, 304); `write`: credentials required. */
  role: 'read' | 'write';
  /** The path parameter of an item route: `:id` (digits) or `:slug`. */
  path?: ItemPath;
  /** The success answer: its status (default 200), text and body (a schema or a DTO class). */
  answer: { status?: 200 | 201 | 202; description: string; schema?: SchemaObject; type?: Type };
  /** The request body of a write (an ApiBody option). */
  body?: Parameters<typeof ApiBody>[0];
  /** The route's own error lines (`code(…)`), after the common ones of their status. */
  errors?: Partial<Record<ErrorStatus, string[]>>;
}

/**
 * Documents an extension's route whole: operation, security, path parameter, success answer and
 * the service's common error answers (bad login, a refused write, a request limit, an internal
 * failure) beside the route's own, so that its operation holds to the same OpenAPI rules as the
 * core's (`npm run lint:openapi`).
 */
export function ExtensionRouteDocs(route: ExtensionRoute): MethodDecorator {
  const status = route.answer.status ?? 200;
  const reads = route.role === 'read';
  const lines: Partial<Record<ErrorStatus, string[]>> = {
    ...(route.body ? { 400: [code('rest_invalid_param', 'a parameter is not valid; `data.params` names each one with the reason')] } : {}),
    401: reads ? [BAD_LOGIN] : [BAD_LOGIN, code('rest_forbidden', 'no credentials were sent, and this action needs them')],
    ...(reads ? {} : { 403: [code('rest_forbidden', 'you may not do this')] }),
    ...(route.path === 'id' ? { 404: [code('rest_no_route', 'the id is not a whole number')] } : {}),
    429: [TOO_MANY],
    500: [INTERNAL],
  };
  for (const [key, more] of Object.entries(route.errors ?? {})) {
    const errorStatus = Number(key) as ErrorStatus;
    lines[errorStatus] = [...(lines[errorStatus] ?? []), ...(more ?? [])];
  }
  const content = route.answer.schema ? { content: { 'application/json': { schema: route.answer.schema } } } : { type: route.answer.type };
  return applyDecorators(
    HttpCode(status),
    ApiOperation(route.text),
    reads ? publicRead() : loginRequired(),
    ...pathParam(route.path),
    ...(route.body ? [ApiBody(route.body)] : []),
    ...(reads ? [ifNoneMatch()] : []),
    ApiResponse({ status, description: route.answer.description, ...content, ...(reads ? { headers: ETAG } : {}) }),
    ...(reads ? [notModified()] : []),
    ...answersFor(lines),
  );
}
