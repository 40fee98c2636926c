import { HttpException } from '@nestjs/common';
import { REST_INTERNAL_ERROR, REST_INVALID_PARAM } from './error-codes';
import { invalidJson, noRoute, WpError } from './wp-error';

/**
 * Maps anything thrown while serving a request to the WpError the client sees.
 * `unexpected` is true when the failure is a bug or a storage fault, to be logged with its stack.
 */
export function classifyError(err: unknown): { error: WpError; unexpected: boolean } {
  if (err instanceof WpError) return { error: err, unexpected: false };

  const code = (err as { code?: unknown })?.code;
  const statusCode = (err as { statusCode?: unknown })?.statusCode;

  // Fastify's own content-type parsing errors (our JSON parser throws WpError already).
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) {
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return { error: new WpError('rest_request_too_large', 'The request body is too large.', 413), unexpected: false };
    }
    return { error: invalidJson(), unexpected: false };
  }
  if (err instanceof SyntaxError && statusCode === 400) return { error: invalidJson(), unexpected: false };

  if (err instanceof HttpException) {
    const status = err.getStatus();
    // Nest's router answers unknown paths and methods with a NotFoundException.
    if (status === 404) return { error: noRoute(), unexpected: false };
    if (status === 400) {
      return { error: new WpError(REST_INVALID_PARAM, 'The request is not valid.', 400, { params: {} }), unexpected: false };
    }
    if (status < 500) return { error: new WpError(`rest_http_${status}`, err.message, status), unexpected: false };
  }
  return { error: new WpError(REST_INTERNAL_ERROR, 'An unexpected error occurred.', 500), unexpected: true };
}
