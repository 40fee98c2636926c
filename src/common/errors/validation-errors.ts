import type { ValidationError } from 'class-validator';
import { PARAM_MESSAGES } from './error-codes';
import { invalidParams, missingParams, WpError } from './wp-error';

/** Context flag carried by the @Required() decorator: a failure means "absent", not "invalid". */
export const MISSING_CONTEXT = { missing: true };

/**
 * Turns class-validator output into the spec's errors: any missing required parameter wins
 * (rest_missing_callback_param, names as an array); otherwise rest_invalid_param with every
 * invalid parameter, in declaration order.
 */
export function toWpValidationError(errors: ValidationError[]): WpError {
  const missing: string[] = [];
  const params: Record<string, string> = {};
  for (const error of errors) {
    const contexts = Object.values(error.contexts ?? {});
    if (contexts.some((c) => (c as { missing?: boolean } | undefined)?.missing)) {
      missing.push(error.property);
      continue;
    }
    params[error.property] = firstMessage(error);
  }
  if (missing.length > 0) return missingParams(missing);
  return invalidParams(params);
}

function firstMessage(error: ValidationError): string {
  const messages = Object.values(error.constraints ?? {});
  if (messages.length > 0) return messages[0];
  const child = error.children?.[0];
  return child ? firstMessage(child) : PARAM_MESSAGES.string;
}
