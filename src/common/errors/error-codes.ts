/**
 * The error codes of spec errors.md that any route may answer (the HTTP layer, authentication,
 * validation, permissions, rate limits, write conflicts), written once; the route documentation
 * (common/http/route-docs.ts) names them. A code of one feature's routes is declared in that
 * feature's folder (`events.errors.ts`, `taxonomies.errors.ts`, …; src/layers.spec.ts).
 */
export const INVALID_USERNAME = 'invalid_username';
export const INCORRECT_PASSWORD = 'incorrect_password';
export const REST_NO_ROUTE = 'rest_no_route';
export const REST_INVALID_JSON = 'rest_invalid_json';
export const REST_MISSING_CALLBACK_PARAM = 'rest_missing_callback_param';
export const REST_INVALID_PARAM = 'rest_invalid_param';
export const REST_FORBIDDEN = 'rest_forbidden';
export const REST_CANNOT_EDIT_OTHERS = 'rest_cannot_edit_others';
export const REST_INTERNAL_ERROR = 'rest_internal_error';
export const REST_PAYLOAD_TOO_LARGE = 'rest_payload_too_large';
export const REST_INVALID_REQUEST = 'rest_invalid_request';
export const REST_TOO_MANY_REQUESTS = 'rest_too_many_requests';
export const REST_PRECONDITION_FAILED = 'rest_precondition_failed';
/** Not in errors.md: a write still colliding with concurrent writers after every retry (docs/security.md). */
export const REST_WRITE_CONFLICT = 'rest_write_conflict';

/** Per-parameter messages inside data.params (errors.md, suggested wording); a feature's own sit with its errors. */
export const PARAM_MESSAGES = {
  positiveInt: 'Must be a whole number greater than 0.',
  integer: 'Must be a whole number.',
  date: 'Must be a date and time in a supported format.',
  text: 'Must be a non-empty text value.',
  string: 'Must be a text value.',
  status: 'Contains a status you may not use or that does not exist.',
  boolean: 'Must be true or false.',
  url: 'Must be an absolute URL.',
  timezone: 'Must be a valid time zone name or UTC offset.',
  idList: 'Must be a list of whole numbers greater than 0.',
  unknownId: (kind: string) => `Does not identify an existing ${kind}.`,
  unknownIds: (kind: string) => `Contains an id that does not identify an existing ${kind}.`,
} as const;
