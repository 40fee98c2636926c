import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { hookKind } from '../common/feature/hooks';
import { type ListCondition, type ListHook, ListHooks } from '../common/pagination';
import type { Taxonomy } from './entities/term.entity';

/** A hook of GET /categories: parameters of its own (ListHook). */
export const CATEGORY_LIST_HOOKS = hookKind<ListHook<ListCondition>>('category list');
/** A hook of GET /tags: parameters of its own (ListHook). */
export const TAG_LIST_HOOKS = hookKind<ListHook<ListCondition>>('tag list');

/** The hooks of the category and tag lists, as the app provides them (Hooks). */
@Injectable()
export class TermListHooks {
  readonly category: ListHooks<ListCondition>;
  readonly tag: ListHooks<ListCondition>;

  constructor(discovery: DiscoveryService) {
    this.category = new ListHooks(discovery, CATEGORY_LIST_HOOKS);
    this.tag = new ListHooks(discovery, TAG_LIST_HOOKS);
  }

  of(taxonomy: Taxonomy): ListHooks<ListCondition> {
    return taxonomy === 'category' ? this.category : this.tag;
  }
}
