import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiPropertyOptions,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  getSchemaPath,
} from '@nestjs/swagger';
import type { HeadersObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorResponseDto } from '../dto/error-response.dto';
import { INCORRECT_PASSWORD, INVALID_USERNAME, REST_CANNOT_EDIT_OTHERS, REST_TOO_MANY_REQUESTS } from '../errors/error-codes';

// OpenAPI documentation of routes (spec beyond.md #6). Each helper documents one kind of route
// whole: its summary and description, parameters, security, its success answer and every error
// answer it can give (the codes of errors.md, which depend on the kind of item and route, as
// endpoints.md and auth.md describe them). The texts are for API users, who do not have the
// spec: they say what happens, not where it is written.

/**
 * What a route acts on, as its feature describes it (events/event-docs.ts, …): the words and
 * error codes of its answers depend on it. The common lines come from here; a kind's own
 * lines (`errors`) follow them.
 */
export interface DocKind {
  /** The item's noun (`event`). */
  readonly noun: string;
  readonly article: 'a' | 'an';
  /**
   * An item with a status (events, venues, organizers): lists limited by status for anonymous
   * callers, unpublished items not readable, trash and `force`, and the `{noun}-…` error codes.
   */
  readonly linked: boolean;
  /** The 400 line of a route by id whose id is not such an item; default `rest_invalid_param`, "no {noun} has this id". */
  readonly invalidId?: string;
  /** Error lines of its own for a route (its role, and how it names the item), by status. */
  errors?(role: RouteRole, by?: ItemPath): Partial<Record<ErrorStatus, readonly string[]>>;
}

/** The operation's `summary` (one line) and `description` (for users of the API). */
export interface RouteText {
  summary: string;
  description: string;
}

/** How an item route names its item: `{id}` or `by-slug/{slug}`. */
export type ItemPath = 'id' | 'slug';

/** An id as the service accepts it: an integer, or its digits as a string (forms, query strings). */
export const ID_FORMS: SchemaObject[] = [
  { type: 'integer', minimum: 0 },
  { type: 'string', pattern: '^\\d+$' },
];
export const ID_SCHEMA: SchemaObject = { oneOf: ID_FORMS };
/** An id field of a request body. */
export const idDoc = (description: string) => ({ oneOf: ID_FORMS, description });

/**
 * A list parameter of the query string (spec README §3): an array of items, one item alone, or a
 * comma-separated string; `style: form, explode: false` says how the array is written by default.
 *
 * Given as the parameter's own `schema`: @nestjs/swagger expands the fields of a `@Query()` DTO
 * from their TypeScript types, which turns a `oneOf` on an array-typed field into `string[]` and
 * on an object-typed one into a `$ref` to `Object`. A parameter that brings a `schema` is taken
 * as written; `type` only keeps the TypeScript type out of the way and is not in the document.
 */
export const queryListDoc = (item: SchemaObject, text: SchemaObject, description: string): ApiPropertyOptions =>
  ({
    type: 'string',
    schema: { oneOf: [{ type: 'array', items: item }, { type: 'integer', minimum: 0 }, text] },
    style: 'form',
    explode: false,
    description,
  }) as ApiPropertyOptions;

/** A list of ids in the query string: integers or their digits, one or many (`venue`, `include`…). */
export const idListQueryDoc = (description: string) =>
  queryListDoc({ oneOf: ID_FORMS }, { type: 'string', pattern: '^[\\d,\\s]+$', description: 'One id, or ids separated by commas (`12,15`)' }, description);

const isLinkedItem = (kind: DocKind) => kind.linked;

// ---- parameters and security -------------------------------------------------------------

export const idParam = () => ApiParam({ name: 'id', schema: ID_SCHEMA, description: 'Item id (digits only; anything else answers 404 `rest_no_route`)' });
const slugParam = () => ApiParam({ name: 'slug', schema: { type: 'string' }, description: 'Item slug, exactly as the item has it' });
export const pathParam = (by?: ItemPath) => (by === 'id' ? [idParam()] : by === 'slug' ? [slugParam()] : []);

/** Reading is public: anonymous callers are served, and credentials, when sent, are checked. */
export const publicRead = () => applyDecorators(ApiSecurity({}), ApiSecurity('basicAuth'));
export const loginRequired = () => ApiSecurity('basicAuth');

export const ifNoneMatch = () =>
  ApiHeader({
    name: 'If-None-Match',
    required: false,
    schema: { type: 'string' },
    description: 'An `ETag` from an earlier answer (or `*`): when it still matches, the answer is 304 with no body',
  });
const ifMatch = () =>
  ApiHeader({
    name: 'If-Match',
    required: false,
    schema: { type: 'string' },
    description:
      'The `ETag` of the item as you last read it (or `*`): the change is made only if the item has not changed since, ' +
      'else 412 `rest_precondition_failed`. Without the header no check is made.',
  });
const forceQuery = () =>
  ApiQuery({
    name: 'force',
    required: false,
    type: 'boolean',
    description:
      '`true`: delete the item permanently (also from the trash) instead of moving it to the trash, and unlink it ' +
      'from its events. The answer is then `{"deleted": true, "previous": <the item as it was>}`.',
  });

// ---- response headers ---------------------------------------------------------------------

export const ETAG: HeadersObject = {
  ETag: { description: 'Tag of this answer, for `If-None-Match` (reads) and `If-Match` (updates, deletes)', schema: { type: 'string' } },
};
const LIST_HEADERS: HeadersObject = {
  ...ETAG,
  'X-TEC-Total': { description: 'Number of matching items, over all pages', schema: { type: 'integer' } },
  'X-TEC-TotalPages': { description: 'Number of pages', schema: { type: 'integer' } },
  Link: { description: 'Links to the next and previous pages (`rel="next"`, `rel="prev"`), when they exist', schema: { type: 'string' } },
};
const RETRY_AFTER: HeadersObject = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };

export const notModified = () => ApiResponse({ status: 304, description: 'Not modified: `If-None-Match` matches the current `ETag`; no body', headers: ETAG });

// ---- error answers ------------------------------------------------------------------------

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 412 | 413 | 429 | 500;
export type RouteRole = 'list' | 'read' | 'create' | 'update' | 'delete';

const STATUS_TITLES: Record<ErrorStatus, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition failed',
  413: 'Payload too large',
  429: 'Too many requests',
  500: 'Internal error',
};

/** One error line of a route's documentation: the code and when it is answered. */
export const code = (c: string, text: string) => `- \`${c}\`: ${text}`;

export const BAD_LOGIN =
  `- \`${INVALID_USERNAME}\` / \`${INCORRECT_PASSWORD}\`: the \`Authorization\` header names an unknown login, cannot be decoded, ` +
  'or carries a wrong password (on public reads too)';
export const INVALID_PARAM = 'a parameter is not valid; `data.params` names each one with the reason';
export const TOO_MANY = code(
  REST_TOO_MANY_REQUESTS,
  'too many failed logins for this login or address (or a configured request limit); retry after `Retry-After` seconds',
);
export const INTERNAL = code('rest_internal_error', 'an unexpected failure on the server');
const FORBIDDEN: Record<'create' | 'update' | 'delete', (kind: DocKind) => string> = {
  create: (kind) => `your role may not create ${kind.article} ${kind.noun}`,
  update: (kind) => `you may not edit this ${kind.noun}`,
  delete: (kind) => `you may not delete this ${kind.noun}`,
};

/** The error answers of one route, as `code: explanation` lines per status. */
function errorLines(role: RouteRole, kind: DocKind, by?: ItemPath): Partial<Record<ErrorStatus, string[]>> {
  const noun = kind.noun;
  const lines: Partial<Record<ErrorStatus, string[]>> = {};
  const add = (status: ErrorStatus, ...more: string[]) => (lines[status] = [...(lines[status] ?? []), ...more]);

  // 400
  if (role === 'list') {
    const visibility = isLinkedItem(kind) ? '; anonymous callers and subscribers may only ask for `status=publish`' : '';
    add(400, code('rest_invalid_param', INVALID_PARAM + visibility));
  }
  if (role === 'create' || role === 'update') {
    add(400, code('rest_invalid_json', 'the body is declared as JSON but does not parse'));
    if (role === 'create') add(400, code('rest_missing_callback_param', 'a required field is missing; `data.params` lists the missing names'));
    add(400, code('rest_invalid_param', INVALID_PARAM));
  }
  if (role === 'read' || role === 'update' || role === 'delete') {
    if (by === 'slug') add(400, code('rest_invalid_param', `no ${noun} has this slug`));
    else if (by === 'id') add(400, kind.invalidId ?? code('rest_invalid_param', `no ${noun} has this id`));
  }

  // 401, 403
  add(401, BAD_LOGIN);
  if (role === 'create' || role === 'update' || role === 'delete') {
    add(401, code('rest_forbidden', 'no credentials were sent, and this action needs them'));
    add(403, code('rest_forbidden', FORBIDDEN[role](kind)));
    if (isLinkedItem(kind) && role !== 'delete') add(403, code(REST_CANNOT_EDIT_OTHERS, 'only editors and administrators may set `author` to another user'));
  }
  if (role === 'read' && isLinkedItem(kind)) {
    add(403, code(`${noun}-not-accessible`, `the ${noun} is not published and you may not read it (anonymous callers included)`));
  }

  // 404
  if (role === 'list' && isLinkedItem(kind)) add(404, code(`${noun}-archive-page-not-found`, '`page` is greater than 1 and past the last page'));
  if (by === 'id') add(404, code('rest_no_route', 'the id is not a whole number'));

  // 410, 412, 413
  if (role === 'delete' && isLinkedItem(kind)) add(410, code(`${noun}-is-in-trash`, `the ${noun} is already in the trash (without \`force\`)`));
  if ((role === 'update' || role === 'delete') && by) {
    add(412, code('rest_precondition_failed', '`If-Match` does not match the current `ETag` of the item; nothing was changed'));
  }
  if (role === 'create' || role === 'update') add(413, code('rest_payload_too_large', 'the request body is over the size limit (1 MB)'));

  // 429, 500
  add(429, TOO_MANY);
  add(500, INTERNAL);
  if (role === 'delete' && isLinkedItem(kind)) add(500, code(`could-not-delete-${noun}`, `the ${noun} could not be removed`));

  // The kind's own lines, after the common ones of their status.
  for (const [status, more] of Object.entries(kind.errors?.(role, by) ?? {})) add(Number(status) as ErrorStatus, ...(more ?? []));
  return lines;
}

function errorResponses(role: RouteRole, kind: DocKind, by?: ItemPath): MethodDecorator[] {
  return answersFor(errorLines(role, kind, by));
}

export function answersFor(lines: Partial<Record<ErrorStatus, string[]>>): MethodDecorator[] {
  return Object.entries(lines).map(([status, codes]) =>
    ApiResponse({
      status: Number(status),
      description: `${STATUS_TITLES[Number(status) as ErrorStatus]}:\n\n${codes.join('\n')}`,
      // Given as content, not as a type: a type would be listed under the route's own media
      // type, which for the iCalendar routes is text/calendar; their errors are JSON too.
      content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorResponseDto) } } },
      ...(status === '429' ? { headers: RETRY_AFTER } : {}),
    }),
  );
}

// ---- routes ------------------------------------------------------------------------------

/** A list: public, paged, conditional. */
export function ListDocs(kind: DocKind, text: RouteText, response: Type) {
  return applyDecorators(
    ApiOperation(text),
    publicRead(),
    ifNoneMatch(),
    ApiResponse({ status: 200, description: 'One page of the list', type: response, headers: LIST_HEADERS }),
    notModified(),
    ...errorResponses('list', kind),
  );
}

/** A single item: public (visibility rules apply), conditional. */
export function ReadDocs(kind: DocKind, text: RouteText, response: Type, by: ItemPath) {
  return applyDecorators(
    ApiOperation(text),
    publicRead(),
    ...pathParam(by),
    ifNoneMatch(),
    ApiResponse({ status: 200, description: `The ${kind.noun}`, type: response, headers: ETAG }),
    notModified(),
    ...errorResponses('read', kind, by),
  );
}

/**
 * An iCalendar answer (ical.md, Export): the feed of a list query (`by` absent) or one item of
 * `kind`. Public and conditional like the JSON reads; their errors stay JSON.
 */
export function IcalDocs(kind: DocKind, text: RouteText, by?: ItemPath) {
  return applyDecorators(
    ApiOperation(text),
    publicRead(),
    ...pathParam(by),
    ifNoneMatch(),
    ApiProduces('text/calendar'),
    ApiResponse({
      status: 200,
      description: 'An iCalendar document (RFC 5545)',
      content: { 'text/calendar': { schema: { type: 'string' } } },
      headers: ETAG,
    }),
    notModified(),
    ...errorResponses(by === undefined ? 'list' : 'read', kind, by),
  );
}

/** A create route: its body and the 201 answer. */
export function CreateDocs(kind: DocKind, text: RouteText, body: Type, response: Type) {
  return applyDecorators(
    ApiOperation(text),
    loginRequired(),
    ApiBody({ type: body }),
    ApiResponse({ status: 201, description: `The new ${kind.noun}`, type: response }),
    ...errorResponses('create', kind),
  );
}

/** POST, PUT and PATCH on an item are the same partial update, answering 200. */
export function UpdateDocs(kind: DocKind, text: RouteText, body: Type, response: Type, by: ItemPath) {
  return applyDecorators(
    HttpCode(200),
    ApiOperation(text),
    loginRequired(),
    ...pathParam(by),
    ifMatch(),
    ApiBody({ type: body }),
    ApiResponse({ status: 200, description: `The ${kind.noun} as updated`, type: response, headers: ETAG }),
    ...errorResponses('update', kind, by),
  );
}

/**
 * A delete. Events, venues and organizers go to the trash, or with `force=true` are deleted
 * for good (then answered `{deleted, previous}`); categories and tags are always deleted.
 */
export function DeleteDocs(kind: DocKind, text: RouteText, response: Type, by: ItemPath) {
  const item = { $ref: getSchemaPath(response) };
  const answer = isLinkedItem(kind)
    ? ApiResponse({
        status: 200,
        description: `Without \`force\`: the ${kind.noun} as moved to the trash. With \`force=true\`: \`deleted\` and the ${kind.noun} as it was.`,
        schema: {
          oneOf: [
            item,
            {
              type: 'object',
              required: ['deleted', 'previous'],
              properties: { deleted: { type: 'boolean', enum: [true] }, previous: item },
            },
          ],
        },
      })
    : ApiResponse({ status: 200, description: `The ${kind.noun} as it was before it was deleted`, type: response });
  return applyDecorators(
    ApiOperation(text),
    loginRequired(),
    ...pathParam(by),
    ...(isLinkedItem(kind) ? [forceQuery()] : []),
    ifMatch(),
    answer,
    ...errorResponses('delete', kind, by),
  );
}

/** GET {api_root}/doc: the OpenAPI document itself. */
export function DocumentDocs(text: RouteText) {
  return applyDecorators(
    ApiOperation(text),
    publicRead(),
    ifNoneMatch(),
    ApiResponse({ status: 200, description: 'The OpenAPI 3 document of the API', schema: { type: 'object', additionalProperties: true }, headers: ETAG }),
    notModified(),
    ...answersFor({ 401: [BAD_LOGIN], 429: [TOO_MANY], 500: [INTERNAL] }),
  );
}

/**
 * A route only administrators may use, of a feature that documents its own answers (the sources
 * of sources.md): `what` names what they manage ("sources"); `body` for the writes, as an
 * ApiBody option; `byId` for the routes of one item; `errors`: the feature's own error lines,
 * after the common ones of their status.
 */
export function AdminDocs(
  what: string,
  text: RouteText,
  answer: { status: 200 | 201 | 202; description: string },
  opts: { body?: Parameters<typeof ApiBody>[0]; byId?: boolean; errors?: Partial<Record<ErrorStatus, string[]>> } = {},
) {
  const lines: Partial<Record<ErrorStatus, string[]>> = {
    ...(opts.body ? { 400: [code('rest_invalid_json', 'the body is declared as JSON but does not parse'), code('rest_invalid_param', INVALID_PARAM)] } : {}),
    401: [BAD_LOGIN, code('rest_forbidden', `no credentials were sent; only administrators manage ${what}`)],
    403: [code('rest_forbidden', `only administrators manage ${what}`)],
    ...(opts.byId ? { 404: [code('rest_no_route', 'the id is not a whole number')] } : {}),
    ...(opts.body ? { 413: [code('rest_payload_too_large', 'the request body is over the size limit (1 MB)')] } : {}),
    429: [TOO_MANY],
    500: [INTERNAL],
  };
  for (const [status, more] of Object.entries(opts.errors ?? {})) {
    const key = Number(status) as ErrorStatus;
    lines[key] = [...(lines[key] ?? []), ...(more ?? [])];
  }
  return applyDecorators(
    ...(answer.status === 201 ? [] : [HttpCode(answer.status)]),
    ApiOperation(text),
    loginRequired(),
    ...(opts.byId ? [idParam()] : []),
    ...(opts.body ? [ApiBody(opts.body)] : []),
    ApiResponse({ status: answer.status, description: answer.description }),
    ...answersFor(lines),
  );
}

/** The text of PUT or PATCH on an item, which do exactly what its POST does. */
export function sameAsPost(text: RouteText, method: 'PUT' | 'PATCH'): RouteText {
  return { summary: `${text.summary} (${method})`, description: `${text.description}\n\n${method} does exactly what POST does on this path.` };
}

/** The text of a by-slug route, from the text of the same route by id. */
export function bySlug(text: RouteText): RouteText {
  return { summary: `${text.summary} by slug`, description: `${text.description}\n\nThe item is named by its slug instead of its id.` };
}

// ---- request fields ----------------------------------------------------------------------

const DATE_FORMATS =
  'Accepts `2025-03-14 09:30:00` (seconds, or the whole time, may be left out), ISO 8601 with or without an offset ' +
  '(`2025-03-14T09:30:00+02:00`), a Unix timestamp, and relative forms such as `now`, `tomorrow 9am`, `next friday` or `+2 weeks`';

/** A date-time input (body field or query parameter) and the forms it may be written in. */
export const dateInputDoc = (description: string) => ({ type: 'string', description: `${description}. ${DATE_FORMATS}.` }) as const;
