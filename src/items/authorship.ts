import { Actor, can } from '../common/auth';
import { invalidParam, PARAM_MESSAGES, REST_CANNOT_EDIT_OTHERS, WpError } from '../common/errors';
import { INVALID, toInt } from '../common/params';

/**
 * The `author` write field (spec endpoints.md §4.3): an existing user id; callers without the
 * right to edit others' items may only name themselves (Deviation → 403 rest_cannot_edit_others).
 * Returns undefined when the field was not given.
 */
export async function resolveAuthor(actor: Actor | null, value: unknown, userExists: (id: number) => Promise<boolean>): Promise<number | undefined> {
  if (value === undefined || value === null) return undefined;
  const id = toInt(value);
  if (id === INVALID || id < 1 || !Number.isSafeInteger(id) || !(await userExists(id))) {
    throw invalidParam('author', PARAM_MESSAGES.unknownId('user'));
  }
  if (actor && id !== actor.id && !can(actor, 'assign_author')) {
    throw new WpError(REST_CANNOT_EDIT_OTHERS, 'You may not assign this item to another user.', 403);
  }
  return id;
}
