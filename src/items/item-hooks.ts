import type { DiscoveryService } from '@nestjs/core';
import type { Actor } from '../common/auth';
import type { HookKind } from '../common/feature/hooks';
import { type ListCondition, type ListHook, ListHooks } from '../common/pagination';
import type { ChangeSet } from '../database/change-log';
import { type RecordHook, RecordHooks } from './record-hooks';

type Json = Record<string, unknown>;

/** What a venue's or organizer's hook is told of a parameter check. */
export interface ItemCheckContext<E> {
  actor: Actor | null;
  /** The item updated (null on create, and for an item nested in an event write). */
  current: E | null;
}

/** What a venue's or organizer's hook is told of a write (POST/PUT/PATCH, or nested in an event write). */
export interface ItemWriteContext<E> {
  actor: Actor | null;
  /** The write's parameters as received (raw). */
  input: Json;
  /** The row as it was before this write (null on create); the record given is the row as written. */
  before: E | null;
  /** The write's change set: record further items changed here. */
  changes: ChangeSet;
}

/** What a venue's or organizer's hook is told of a delete. */
export interface ItemDeleteContext {
  actor: Actor | null;
  /** `true`: deleted for good; `false`: moved to the trash. */
  force: boolean;
  changes: ChangeSet;
}

export interface ItemHookContexts<E> {
  check: ItemCheckContext<E>;
  write: ItemWriteContext<E>;
  delete: ItemDeleteContext;
}

/**
 * The hook of venues or of organizers (VenueHook, OrganizerHook): the verbs of every record's
 * hook (RecordHook), for the item's own writes and for items nested in event writes.
 */
export type ItemHook<E extends { id: number }> = RecordHook<E, ItemHookContexts<E>>;

/** The hooks of one item kind, and of its list (`lists`): its module provides one (VenueHooks, OrganizerHooks). */
export class ItemHooks<E extends { id: number }> extends RecordHooks<E, ItemHookContexts<E>> {
  /** The hooks of the kind's list (GET /venues, GET /organizers). */
  readonly lists: ListHooks<ListCondition>;

  constructor(discovery: DiscoveryService, kind: HookKind<ItemHook<E>>, listKind: HookKind<ListHook<ListCondition>>) {
    super(discovery, kind);
    this.lists = new ListHooks(discovery, listKind);
  }
}
