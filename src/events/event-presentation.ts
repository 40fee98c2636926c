import { Inject, Injectable } from '@nestjs/common';
import { Tagged, tagOfJson } from '../common/http/preconditions';
import { currentLinks } from '../common/http/api-links';
import { Actor, canRead, OwnedItem } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import { forbidden } from '../common/errors';
import { effectiveStatus } from '../items';
import { AppConfig } from '../config/app-config';
import { MediaService } from '../media';
import type { LinkedItemReads } from '../linked-items';
import { ORGANIZER_TOKENS, OrganizerEntity } from '../organizers';
import { PostsService } from '../posts';
import { TermsService } from '../taxonomies';
import { VENUE_TOKENS, VenueEntity } from '../venues';
import { EventEntity } from './entities/event.entity';
import { presentEvent } from './event.presenter';
import { EventHooks } from './event-hooks';
import { eventNotFound, invalidEventId, unknownEventSlug } from './events.errors';
import { EventsRepository } from './events.repository';

type Json = Record<string, unknown>;

/**
 * One event as a route reaches it: found by id or slug with the spec's errors, the caller's
 * rights on it, and its presentation with everything it embeds. Shared by the reader, the
 * writer and the deleter, which each add their own rules on top.
 */
@Injectable()
export class EventPresentation {
  constructor(
    private readonly events: EventsRepository,
    private readonly posts: PostsService,
    private readonly terms: TermsService,
    @Inject(VENUE_TOKENS.reads) private readonly venues: LinkedItemReads<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.reads) private readonly organizers: LinkedItemReads<OrganizerEntity>,
    private readonly media: MediaService,
    private readonly config: AppConfig,
    private readonly hooks: EventHooks,
  ) {}

  /** The event with this id, or the spec's 404 / 400 (spec §4.2 steps 2–3). */
  async requireEvent(id: number): Promise<EventEntity> {
    const kind = await this.posts.typeOf(id);
    if (kind === null) throw eventNotFound(id);
    if (kind !== 'event') throw invalidEventId();
    const event = await this.events.findById(id);
    if (!event) throw eventNotFound(id);
    return event;
  }

  /** by-slug routes: an unknown slug is a parameter error (spec §4.2 step 1). */
  async requireSlug(slug: string): Promise<EventEntity> {
    const event = await this.events.findBySlug(slug);
    if (!event) throw unknownEventSlug();
    return event;
  }

  /** 401/403 rest_forbidden unless the caller may do this to that event. */
  assertMay(right: (actor: Actor | null, item: OwnedItem) => boolean, actor: Actor | null, event: EventEntity): void {
    if (!right(actor, this.asOwned(event))) throw forbidden(actor !== null);
  }

  /** The event as the rights see it: a scheduled event whose date has passed counts as published (§3 rule 5). */
  asOwned(e: EventEntity): OwnedItem {
    return { authorId: e.authorId, status: effectiveStatus(e.status, e.dateUtc, nowUtcSql()), statusBeforeTrash: e.statusBeforeTrash };
  }

  /**
   * The body the caller's single GET of this event shows now (JSON-LD included), or null when
   * that GET answers an error (trashed, not readable): what `If-Match` tags are compared with.
   */
  async singleBody(actor: Actor | null, event: EventEntity): Promise<Json | null> {
    if (event.status === 'trash' || !canRead(actor, this.asOwned(event))) return null;
    return (await this.present([event], { jsonLd: true, actor }))[0];
  }

  /** A write's answer with the tag of the event's single GET as it now is for the caller (none when that GET fails). */
  async tagged(actor: Actor | null, event: EventEntity, answer: Json): Promise<Tagged | Json> {
    const body = await this.singleBody(actor, event);
    return body === null ? answer : new Tagged(answer, tagOfJson(body));
  }

  /**
   * Presents events with everything they embed and what the hooks add, in a constant
   * number of queries (one call of each hook's `present` for the whole page).
   */
  async present(rows: EventEntity[], opts: { jsonLd: boolean; actor?: Actor | null }): Promise<Json[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((e) => e.id);
    const [terms, organizerIds, images, extras] = await Promise.all([
      this.terms.termsOfEvents(ids),
      this.events.organizerIds(ids),
      this.media.present(rows.map((e) => e.imageId)),
      this.hooks.present(rows),
    ]);
    const venueIds = [...new Set(rows.map((e) => e.venueId).filter((v): v is number => v !== null))];
    const [venues, organizers] = await Promise.all([
      this.venues.embed(venueIds, { jsonLd: opts.jsonLd, actor: opts.actor ?? null }),
      this.organizers.embed([...new Set([...organizerIds.values()].flat())], { jsonLd: opts.jsonLd, actor: opts.actor ?? null }),
    ]);
    const nowUtc = nowUtcSql();
    const links = currentLinks(this.config.baseUrl);
    return rows.map((e) => presentEvent(e, { terms, organizerIds, images, venues, organizers, extras }, this.config, { jsonLd: opts.jsonLd, nowUtc, links }));
  }
}
