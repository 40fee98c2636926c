import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { hookKind } from '../common/feature/hooks';
import { type ListHook, ListHooks } from '../common/pagination';
import type { EventQueryExtension } from './events.filters';

/**
 * A hook of GET /events (the geo extension's distance, a team's own parameter): the list hook
 * of every list (ListHook), whose condition has the events' query shape. It may claim TEC's
 * `ticketed`, which the core otherwise refuses.
 */
export type EventListHook = ListHook<EventQueryExtension>;
export const EVENT_LIST_HOOKS = hookKind<EventListHook>('event list');

/** The hooks of GET /events, as the app provides them (Hooks); EventsModule exports it. */
@Injectable()
export class EventListHooks extends ListHooks<EventQueryExtension> {
  constructor(discovery: DiscoveryService) {
    super(discovery, EVENT_LIST_HOOKS);
  }
}
