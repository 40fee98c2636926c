// What a venue-like kind is made of (LinkedKind), and what its reads, writes and deletes
// (LinkedItemReads, LinkedItemWrites, LinkedItemDeletes) are built from and share. Venues and
// organizers (spec endpoints.md §5) follow the same rules, given the kind: what differs is data,
// here, not overridden methods. Checks run in the spec's order: parameters (400), permission
// (401/403), the operation's own checks.
import { TypeORMError } from 'typeorm';
import type { WpError } from '../common/errors';
import type { TextFields } from '../common/text/text-fields';
import type { ReadModel } from '../common/cache/read-model';
import type { AppConfig } from '../config/app-config';
import type { MediaService } from '../media';
import type { PostsService } from '../posts';
import type { UsersService } from '../users';
import type { UnitOfWork } from '../database/unit-of-work';
import type { ItemHooks } from '../items';
import type { Json, LinkedItemEntity, LinkedItemErrors, LinkedItemType, LinkedPresentContext } from './linked-items';
import type { LinkedItemFieldsDto } from './linked-items.dto';
import type { LinkedItemsRepository } from './linked-items.repository';

/** What distinguishes venues from organizers; each module writes one of these. */
export interface LinkedKind<E extends LinkedItemEntity> {
  /** Post type; also the API name field (`venue`) and the event-write parameter (`venue`). */
  type: LinkedItemType;
  /** List envelope key and URL segment. */
  collection: 'venues' | 'organizers';
  /** Its text fields: how each is cleaned and what its column holds (the shared ones: LINKED_ITEM_TEXT). */
  text: TextFields;
  /** The POST body DTO, used again to validate items nested in event writes. */
  createDto: new () => LinkedItemFieldsDto;
  /** API write field → column, for the kind's own fields: written as given. */
  fields: Readonly<Record<string, keyof E & string>>;
  /** The kind's own columns of a new item, before the given fields apply. */
  defaults: Omit<E, keyof LinkedItemEntity>;
  errors: LinkedItemErrors;
  present(item: E, ctx: LinkedPresentContext): Json;
}

/** A checked create of a venue/organizer, waiting for a transaction (opaque to callers). */
export class PreparedCreate {
  constructor(readonly write: unknown) {}
}

/** An item route names its item by id or by slug. */
export type LinkedItemRef = { id: number } | { slug: string };

/** What the reads, writes and deletes of a kind are built from; linkedItemProviders gives each the parts it uses. */
export interface LinkedItemsParts<E extends LinkedItemEntity> {
  repo: LinkedItemsRepository<E>;
  posts: PostsService;
  media: MediaService;
  users: UsersService;
  config: AppConfig;
  hooks: ItemHooks<E>;
  readModel: ReadModel;
  unitOfWork: UnitOfWork;
}

/**
 * Storage failures answer the codes the spec names (could-not-create/update/delete-*); anything
 * else (our own errors, bugs) passes through, bugs becoming a logged rest_internal_error.
 */
export async function storing<T>(failure: () => WpError, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof TypeORMError) throw Object.assign(failure(), { cause: err });
    throw err;
  }
}
