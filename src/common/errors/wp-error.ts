import {
  REST_FORBIDDEN,
  REST_INVALID_JSON,
  REST_INVALID_PARAM,
  REST_INVALID_REQUEST,
  REST_MISSING_CALLBACK_PARAM,
  REST_NO_ROUTE,
  REST_PAYLOAD_TOO_LARGE,
  REST_PRECONDITION_FAILED,
} from './error-codes';

/**
 * The one error type of the service: rendered as
 * `{ code, message, data: { status, ...data } }` (spec errors.md) by WpExceptionFilter.
 */
export class WpError extends Error {
  /** Response headers that go with the error (`Retry-After` of a 429 or 503). */
  headers: Record<string, string> = {};

  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'WpError';
  }

  toBody(): { code: string; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }
}

export const noRoute = () => new WpError(REST_NO_ROUTE, 'No route matches this address and method.', 404);

/** A request the HTTP layer cannot read (errors.md `rest_invalid_request`); 414/431 keep their status. */
export const invalidRequest = (status = 400, message = 'The request could not be read.') => new WpError(REST_INVALID_REQUEST, message, status);

export const payloadTooLarge = () => new WpError(REST_PAYLOAD_TOO_LARGE, 'The request body is too large.', 413);

export const invalidJson = () => new WpError(REST_INVALID_JSON, 'The request body is not valid JSON.', 400);

/** `params` maps every invalid parameter to its message, in declaration order. */
export const invalidParams = (params: Record<string, string>, details: Record<string, unknown> = {}) =>
  new WpError(REST_INVALID_PARAM, `Some parameters are not valid: ${Object.keys(params).join(', ')}.`, 400, {
    params,
    details,
  });

export const invalidParam = (name: string, message: string) => invalidParams({ [name]: message });

export const missingParams = (names: string[]) =>
  new WpError(REST_MISSING_CALLBACK_PARAM, `Required parameters are missing: ${names.join(', ')}.`, 400, {
    params: names,
  });

/** 401 for anonymous callers, 403 for authenticated ones (auth.md §3). */
export const forbidden = (authenticated: boolean) => new WpError(REST_FORBIDDEN, 'You are not allowed to perform this action.', authenticated ? 403 : 401);

/** 412: `If-Match` names no tag of the item's current state (beyond.md #4). */
export const preconditionFailed = () => new WpError(REST_PRECONDITION_FAILED, 'The item has changed since you read it.', 412);
