import { forbidden } from '../errors';
import type { Actor, Role } from './roles';

/**
 * The role table of spec auth.md §2, in one place. Every permission decision of the service is
 * a lookup here; controllers and services never compare roles themselves.
 */
export type Capability =
  | 'create_items'
  | 'publish_items'
  | 'read_others_unpublished'
  | 'read_private'
  | 'edit_own_published'
  | 'edit_others'
  | 'delete_own_published'
  | 'delete_others'
  | 'assign_author'
  | 'upload_files'
  | 'manage_categories'
  | 'manage_tags'
  | 'unfiltered_html'
  | 'edit_own_unpublished'
  | 'delete_own_unpublished'
  | 'manage_webhooks'
  | 'manage_sources';

const ALL: readonly Capability[] = [
  'create_items',
  'publish_items',
  'read_others_unpublished',
  'read_private',
  'edit_own_unpublished',
  'edit_own_published',
  'edit_others',
  'delete_own_unpublished',
  'delete_own_published',
  'delete_others',
  'assign_author',
  'upload_files',
  'manage_categories',
  'manage_tags',
  'unfiltered_html',
];

/** auth.md §2 "manage webhooks", "manage sources": administrators only (editors have everything else). */
const ADMIN_ONLY: readonly Capability[] = ['manage_webhooks', 'manage_sources'];

export const ROLE_CAPABILITIES: Readonly<Record<Role, ReadonlySet<Capability>>> = {
  administrator: new Set([...ALL, ...ADMIN_ONLY]),
  editor: new Set(ALL),
  author: new Set<Capability>([
    'create_items',
    'publish_items',
    'edit_own_unpublished',
    'edit_own_published',
    'delete_own_unpublished',
    'delete_own_published',
    'upload_files',
    'manage_categories',
  ]),
  contributor: new Set<Capability>(['create_items', 'edit_own_unpublished', 'delete_own_unpublished']),
  subscriber: new Set<Capability>(),
};

export function can(actor: Actor | null, capability: Capability): boolean {
  return actor !== null && ROLE_CAPABILITIES[actor.role].has(capability);
}

/** Throws 401 rest_forbidden for anonymous callers and 403 for authenticated ones. */
export function assertCan(actor: Actor | null, ...capabilities: Capability[]): void {
  if (!capabilities.every((c) => can(actor, c))) throw forbidden(actor !== null);
}

/** An event, venue or organizer as far as permissions are concerned. */
export interface OwnedItem {
  authorId: number;
  status: string;
  /** Status before trashing, for items in the trash (auth.md §2, last note). */
  statusBeforeTrash?: string | null;
}

const PUBLISHED_LIKE = new Set(['publish', 'future']);

function effectiveStatus(item: OwnedItem): string {
  return item.status === 'trash' ? (item.statusBeforeTrash ?? 'draft') : item.status;
}

/** May the caller read this item (any status but trash, which nobody reads through events)? */
export function canRead(actor: Actor | null, item: OwnedItem): boolean {
  if (item.status === 'publish') return true;
  if (actor === null) return false;
  if (item.authorId === actor.id) return can(actor, 'create_items');
  if (item.status === 'private') return can(actor, 'read_private');
  return can(actor, 'read_others_unpublished');
}

export function canEdit(actor: Actor | null, item: OwnedItem): boolean {
  return ownedItemRight(actor, item, 'edit_own_unpublished', 'edit_own_published', 'edit_others');
}

export function canDelete(actor: Actor | null, item: OwnedItem): boolean {
  return ownedItemRight(actor, item, 'delete_own_unpublished', 'delete_own_published', 'delete_others');
}

function ownedItemRight(actor: Actor | null, item: OwnedItem, ownUnpublished: Capability, ownPublished: Capability, others: Capability): boolean {
  if (actor === null) return false;
  if (item.authorId !== actor.id) return can(actor, others);
  return can(actor, PUBLISHED_LIKE.has(effectiveStatus(item)) ? ownPublished : ownUnpublished);
}
