import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Actor } from '../common/auth';
import { hookKind } from '../common/feature/hooks';
import type { ChangeSet } from '../database/change-log';
import { type RecordHook, RecordHooks } from '../items';
import type { EventEntity } from './entities/event.entity';
import type { EventWriteOrigin } from './event-write-origin';

type Json = Record<string, unknown>;

/** What an event hook's parameter check is told about the write. */
export interface EventCheckContext {
  actor: Actor | null;
  /** The event updated (null on create). */
  current: EventEntity | null;
  origin: EventWriteOrigin;
}

/** What an event hook's `saved` is told about the write it runs in. */
export interface EventWriteContext {
  actor: Actor | null;
  /** The write's parameters: the body merged over the query string, as received (raw). */
  input: Json;
  /** The row as it was before this write (null on create); the event given is the row as written. */
  before: EventEntity | null;
  /** The write's change set: record further items changed here. */
  changes: ChangeSet;
  /** Who asked for the write (a route, the form, an import, a module's own write). */
  origin: EventWriteOrigin;
}

/** What an event hook's `deleting` is told about the delete it runs in. */
export interface EventDeleteContext {
  actor: Actor | null;
  /** The delete's parameters: the body merged over the query string, as received (raw). */
  input: Json;
  /** `true`: deleted for good; `false`: moved to the trash. */
  force: boolean;
  changes: ChangeSet;
  origin: EventWriteOrigin;
}

export interface EventHookContexts {
  check: EventCheckContext;
  write: EventWriteContext;
  delete: EventDeleteContext;
}

/**
 * The hook of events (extending.md §1): the verbs of every record's hook (RecordHook): its
 * write parameters and their `check`, `saved` and `deleting` in the write's unit of work (also
 * for the writes made through EventWrites, told their origin), and `present`: keys after
 * `custom_fields` and JSON-LD members, for a page of events at once. The JSON-LD is part of the
 * event's representation (its `json_ld` key), so `present` gives both.
 */
export type EventHook = RecordHook<EventEntity, EventHookContexts>;
export const EVENT_HOOKS = hookKind<EventHook>('event');

/** The hooks of events, as the app provides them (Hooks); EventsModule exports it. */
@Injectable()
export class EventHooks extends RecordHooks<EventEntity, EventHookContexts> {
  constructor(discovery: DiscoveryService) {
    super(discovery, EVENT_HOOKS);
  }
}
