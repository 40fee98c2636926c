import { Actor, can } from '../common/auth';
import { PARAM_MESSAGES, invalidParam } from '../common/errors';
import { INVALID, toList } from '../common/params';
import { ITEM_STATUSES } from './statuses';

/**
 * Which items a list may return (spec auth.md §4): the statuses asked for, and whether items of
 * other authors are limited to published ones.
 */
export interface ListVisibility {
  statuses: string[];
  /** Set for authors and contributors: others' items only when published. */
  ownerId?: number;
}

/** Validates the `status` list parameter for this caller; throws rest_invalid_param (param `status`). */
export function listVisibility(actor: Actor | null, statusParam: unknown): ListVisibility {
  const mayEdit = can(actor, 'create_items');
  let statuses: string[];
  if (statusParam === undefined || statusParam === null) {
    statuses = mayEdit ? ITEM_STATUSES.filter((s) => s !== 'trash') : ['publish'];
  } else {
    const list = toList(statusParam);
    const allowed: readonly string[] = mayEdit ? ITEM_STATUSES : ['publish'];
    if (list === INVALID || list.length === 0 || !list.every((s) => allowed.includes(s))) {
      throw invalidParam('status', PARAM_MESSAGES.status);
    }
    statuses = [...new Set(list)];
  }
  if (!mayEdit || can(actor, 'read_others_unpublished')) return { statuses };
  return { statuses, ownerId: (actor as Actor).id };
}
