import { Inject, Injectable } from '@nestjs/common';
import { NamedCache, ReadModel } from '../common/cache/read-model';
import type { NameList } from '../common/params';
import type { LinkedItemReads } from '../linked-items';
import { ORGANIZER_TOKENS, OrganizerEntity } from '../organizers';
import { PostsService } from '../posts';
import { TermsService } from '../taxonomies';
import { VENUE_TOKENS, VenueEntity } from '../venues';
import { EventListRepository } from './event-list.repository';

/**
 * The lookups of an event list's filters (spec endpoints.md §4.1), for EventReader: terms by
 * slug, id or name with their descendants, whether linked ids exist, term plans. They depend
 * only on the data, so they come from the read model's cache (moved by every write).
 */
@Injectable()
export class EventListLookups {
  /** Filter lookups by parameter value: resolved term ids, "do these ids exist", term plans. */
  private readonly lookups: NamedCache<NonNullable<unknown>>;

  constructor(
    private readonly events: EventListRepository,
    private readonly posts: PostsService,
    private readonly termsService: TermsService,
    @Inject(VENUE_TOKENS.reads) private readonly venues: LinkedItemReads<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.reads) private readonly organizers: LinkedItemReads<OrganizerEntity>,
    readModel: ReadModel,
  ) {
    this.lookups = readModel.cache('events.lookups');
  }

  /** The ids of the terms a filter names (with descendants), or null when it names an unknown one. */
  async terms(taxonomy: 'category' | 'tag', list: NameList): Promise<number[] | null> {
    // A cache keeps no null: an unknown term is `false` there.
    const ids = await this.lookup([taxonomy, list], async () => (await this.termsService.resolveFilter(taxonomy, list)) ?? false);
    return ids === false ? null : ids;
  }

  /** Do all these venue ids name venues? */
  venuesExist(ids: number[]): Promise<boolean> {
    return this.lookup(['venue', ids], () => allIn(ids, (some) => this.venues.existingIds(some)));
  }

  /** Do all these organizer ids name organizers? */
  organizersExist(ids: number[]): Promise<boolean> {
    return this.lookup(['organizer', ids], () => allIn(ids, (some) => this.organizers.existingIds(some)));
  }

  /** The query plan of a term filter (EventListRepository.termPlan). */
  termPlan(termIds: number[]): ReturnType<EventListRepository['termPlan']> {
    return this.lookup(['plan', termIds], () => this.events.termPlan(termIds));
  }

  /** Is this id an event's (a `post_parent` filter)? Not cached: one read. */
  async isEvent(id: number): Promise<boolean> {
    return (await this.posts.typeOf(id)) === 'event';
  }

  private lookup<T extends NonNullable<unknown>>(key: unknown[], compute: () => Promise<T>): Promise<T> {
    return this.lookups.through(JSON.stringify(key), compute) as Promise<T>;
  }
}

async function allIn(ids: number[], existing: (ids: number[]) => Promise<Set<number>>): Promise<boolean> {
  const found = await existing(ids);
  return ids.every((id) => found.has(id));
}
