import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { hookKind } from '../common/feature/hooks';
import type { ListCondition, ListHook } from '../common/pagination';
import { type ItemHook, ItemHooks } from '../items';
import type { OrganizerEntity } from './organizer.entity';

/** A hook of organizers: the verbs of a venue's hook (VenueHook). */
export type OrganizerHook = ItemHook<OrganizerEntity>;
export const ORGANIZER_HOOKS = hookKind<OrganizerHook>('organizer');
/** A hook of GET /organizers: parameters of its own. */
export const ORGANIZER_LIST_HOOKS = hookKind<ListHook<ListCondition>>('organizer list');

/** The hooks of organizers and of their list, as the app provides them (Hooks). */
@Injectable()
export class OrganizerHooks extends ItemHooks<OrganizerEntity> {
  constructor(discovery: DiscoveryService) {
    super(discovery, ORGANIZER_HOOKS, ORGANIZER_LIST_HOOKS);
  }
}
