import { WpError } from '../common/errors';

/** A problem of a form: the id of the input it is about (the summary links there) and what is wrong. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The problems of a refused write as a form shows them (editing.md §2): each parameter the
 * write path named (`data.params` of errors.md's `rest_invalid_param`, or the names of
 * `rest_missing_callback_param`) becomes a message beside its field, in the write path's own
 * words. `fieldOf` maps a parameter of the API to the form's input id; a parameter with no
 * field, and any other refusal, is a message of the form as a whole (`fallback`).
 */
export function formErrors(err: WpError, fieldOf: (param: string) => string | undefined, fallback: string): FieldError[] {
  const params = err.data.params;
  if (Array.isArray(params)) {
    return params.map((name: unknown) => ({ field: fieldOf(String(name)) ?? fallback, message: `${label(String(name))} is required.` }));
  }
  if (params !== null && typeof params === 'object') {
    return Object.entries(params as Record<string, unknown>).map(([name, message]) => ({
      field: fieldOf(name) ?? fallback,
      message: String(message),
    }));
  }
  return [{ field: fallback, message: err.message }];
}

/** The message of a field among a form's problems, for `aria-describedby` and the text beside it. */
export function messageOf(errors: readonly FieldError[], field: string): string | undefined {
  return errors.find((e) => e.field === field)?.message;
}

function label(param: string): string {
  const words = param.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
