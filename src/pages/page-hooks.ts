import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { hookKind, Hooks } from '../common/feature/hooks';

type Json = Record<string, unknown>;

/**
 * A hook of the public pages (pages.md) of one kind of record: HTML added to the page of an
 * event, a venue or an organizer (one kind each: EVENT_PAGE_HOOKS, VENUE_PAGE_HOOKS,
 * ORGANIZER_PAGE_HOOKS).
 */
export interface PageHook {
  /**
   * A fragment of HTML for the record's page, from its representation as the API shows it (with
   * the keys of the record's hooks), escaped by the hook; null for none. It may read (the
   * recurrence extension links an occurrence's next ones), so the page awaits it.
   */
  pageFragment(item: Json): string | null | Promise<string | null>;
}
export const EVENT_PAGE_HOOKS = hookKind<PageHook>('event page');
export const VENUE_PAGE_HOOKS = hookKind<PageHook>('venue page');
export const ORGANIZER_PAGE_HOOKS = hookKind<PageHook>('organizer page');

export type PageKind = 'event' | 'venue' | 'organizer';

/** The hooks of the pages of each kind, as the app provides them (Hooks). */
@Injectable()
export class PageHooks {
  private readonly byKind: Readonly<Record<PageKind, Hooks<PageHook>>>;

  constructor(discovery: DiscoveryService) {
    this.byKind = {
      event: new Hooks(discovery, EVENT_PAGE_HOOKS),
      venue: new Hooks(discovery, VENUE_PAGE_HOOKS),
      organizer: new Hooks(discovery, ORGANIZER_PAGE_HOOKS),
    };
  }

  /** The fragments the hooks add to the page of this record, in the hooks' order. */
  async fragments(kind: PageKind, item: Json): Promise<string[]> {
    const fragments: string[] = [];
    for (const hook of this.byKind[kind].all()) {
      const fragment = await hook.pageFragment(item);
      if (fragment) fragments.push(fragment);
    }
    return fragments;
  }
}
