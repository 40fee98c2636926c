import type { FieldError } from '../manage';

/**
 * A submission refused with the form shown again (editing.md §4: each refusal is a page that says
 * what to do, and writes nothing): its status, the problems (each beside its field, or of the
 * form as a whole) and headers (Retry-After past a limit).
 */
export class SubmissionRefused extends Error {
  constructor(
    readonly status: number,
    readonly errors: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.message).join(' '));
  }
}

/** The id of the form itself: a problem of no one field links there. */
export const FORM_ID = 'submission-form';

/** A refusal of the whole form with one message. */
export const refused = (status: number, message: string, headers: Record<string, string> = {}) =>
  new SubmissionRefused(status, [{ field: FORM_ID, message }], headers);
