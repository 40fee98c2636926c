import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { hookKind } from '../common/feature/hooks';
import type { ListCondition, ListHook } from '../common/pagination';
import { type ItemHook, ItemHooks } from '../items';
import type { VenueEntity } from './venue.entity';

/** A hook of venues: write fields, stored data, keys and JSON-LD members (the geo extension's coordinates). */
export type VenueHook = ItemHook<VenueEntity>;
export const VENUE_HOOKS = hookKind<VenueHook>('venue');
/** A hook of GET /venues: parameters of its own. */
export const VENUE_LIST_HOOKS = hookKind<ListHook<ListCondition>>('venue list');

/** The hooks of venues and of their list, as the app provides them (Hooks). */
@Injectable()
export class VenueHooks extends ItemHooks<VenueEntity> {
  constructor(discovery: DiscoveryService) {
    super(discovery, VENUE_HOOKS, VENUE_LIST_HOOKS);
  }
}
