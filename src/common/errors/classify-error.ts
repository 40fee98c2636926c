import { HttpException } from '@nestjs/common';
import { REST_INTERNAL_ERROR, REST_INVALID_PARAM } from './error-codes';
import { invalidJson, invalidRequest, noRoute, payloadTooLarge, WpError } from './wp-error';

/**
 * Maps anything thrown while serving a request to the WpError the client sees.
 * `unexpected` is true when the failure is a bug or a storage fault, to be logged with its stack.
 */
export function classifyError(err: unknown): { error: WpError; unexpected: boolean } {
  if (err instanceof WpError) return { error: err, unexpected: false };

  const code = (err as { code?: unknown })?.code;
  const statusCode = (err as { statusCode?: unknown })?.statusCode;

  // Fastify's own errors: body parsing (our JSON parser throws WpError already), URLs it cannot
  // read, and every other FST_ERR_* a request can cause (errors.md rest_invalid_request).
  if (typeof code === 'string' && code.startsWith('FST_ERR_')) {
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { error: payloadTooLarge(), unexpected: false };
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return { error: invalidRequest(415, 'The request body has a type this route does not read.'), unexpected: false };
    if (code.startsWith('FST_ERR_CTP_')) return { error: invalidJson(), unexpected: false };
    const status = typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : 400;
    return { error: invalidRequest(status), unexpected: false };
  }
  if (err instanceof SyntaxError && statusCode === 400) return { error: invalidJson(), unexpected: false };

  if (err instanceof HttpException) {
    const status = err.getStatus();
    // Nest's router answers unknown paths and methods with a NotFoundException.
    if (status === 404) return { error: noRoute(), unexpected: false };
    if (status === 400) {
      return { error: new WpError(REST_INVALID_PARAM, 'The request is not valid.', 400, { params: {} }), unexpected: false };
    }
    if (status === 413) return { error: payloadTooLarge(), unexpected: false };
    if (status < 500) return { error: invalidRequest(status), unexpected: false };
  }
  return { error: new WpError(REST_INTERNAL_ERROR, 'An unexpected error occurred.', 500), unexpected: true };
}
