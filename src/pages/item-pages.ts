import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { EventReader } from '../events';
import type { LinkedItemReads } from '../linked-items';
import { OrganizerEntity, ORGANIZER_TOKENS } from '../organizers';
import { VenueEntity, VENUE_TOKENS } from '../venues';
import { addressParts, AddressPart, EventJson, eventWhen, googleCalendarLink, mapLink, plain, scriptJson, venueAddress } from './event-view';
import { cleanHtml, isItem, Json, LIST_PER_PAGE, pageNumber, PageView, parseJson, Query, safeLink, summary } from './page-parts';
import { PageHooks } from './page-hooks';
import { PageReads } from './page-reads';

/**
 * The public pages of one record (pages.md): an event, a venue or
 * an organizer with its upcoming events; each with the fragments its page hooks add.
 */
@Injectable()
export class ItemPages {
  constructor(
    private readonly reads: PageReads,
    private readonly events: EventReader,
    @Inject(VENUE_TOKENS.reads) private readonly venues: LinkedItemReads<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.reads) private readonly organizers: LinkedItemReads<OrganizerEntity>,
    private readonly config: AppConfig,
    private readonly hooks: PageHooks,
  ) {}

  /** `/event/{slug}/`: one event, as an anonymous API reader sees it. */
  async event(slug: string): Promise<PageView> {
    const e = parseJson(await this.reads.orNotFound(this.events.getBySlug(null, slug))) as unknown as EventJson;
    const venue = isItem(e.venue) ? this.venueView(e.venue) : undefined;
    const when = eventWhen(e, this.config.timezone);
    return {
      view: 'event',
      data: {
        title: plain(e.title),
        description: summary(e),
        canonical: e.url,
        image: e.image || undefined,
        current: 'event',
        event: {
          title: plain(e.title),
          url: e.url,
          summary: plain(e.excerpt ?? ''),
          when,
          siteZone: this.config.timezone,
          cost: plain(e.cost ?? ''),
          body: cleanHtml(e.description),
          website: e.website && e.website !== e.url ? e.website : undefined,
          featured: e.featured === true,
          categories: (e.categories ?? []).map((t) => ({ name: plain(t.name), url: t.url })),
          tags: (e.tags ?? []).map((t) => ({ name: plain(t.name), url: t.url })),
          organizers: (e.organizer ?? []).filter(isItem).map((o) => this.organizerView(o)),
          venue,
          ics: `${this.config.apiRoot}/events/${e.id}.ics`,
          google: googleCalendarLink(e, venue ? [venue.name, venue.address].filter(Boolean).join(', ') : ''),
          month: this.reads.url(`/events/month/${e.start_date.slice(0, 7)}/`),
          // The hooks' own HTML (pages.md), escaped by them, from the event as the API shows it.
          fragments: await this.hooks.fragments('event', e as unknown as Json),
        },
        jsonLd: e.json_ld ? scriptJson(e.json_ld) : undefined,
      },
    };
  }

  /** `/venue/{slug}/`: the venue and its upcoming events. */
  async venue(slug: string, query: Query): Promise<PageView> {
    const { item, params } = await this.linkedItemOf('venue', slug);
    return this.linkedItemPage('venue', item, this.venueView(item), params, query);
  }

  /** `/organizer/{slug}/`: the organizer and their upcoming events. */
  async organizer(slug: string, query: Query): Promise<PageView> {
    const { item, params } = await this.linkedItemOf('organizer', slug);
    return this.linkedItemPage('organizer', item, this.organizerView(item), params, query);
  }

  /** A venue or organizer as anonymous readers see it (404 otherwise), and the list parameters of its events. */
  async linkedItemOf(kind: 'venue' | 'organizer', slug: string): Promise<{ item: Json; params: Query }> {
    const item = await this.reads.orNotFound((kind === 'venue' ? this.venues : this.organizers).get(null, { slug }));
    return { item, params: { [kind]: String(item.id as number) } };
  }

  private async linkedItemPage(kind: 'venue' | 'organizer', item: Json, view: Json, params: Query, query: Query): Promise<PageView> {
    const page = pageNumber(query);
    const found = await this.reads.eventList({ ...params, page, per_page: LIST_PER_PAGE });
    const path = new URL(item.url as string).pathname.slice(new URL(this.config.publicUrl).pathname.replace(/\/$/, '').length);
    return {
      view: kind,
      data: {
        title: plain(item[kind]),
        description: plain(item.excerpt) || plain(item.description).slice(0, 200),
        canonical: this.reads.url(path, page > 1 ? { page } : {}),
        image: item.image || undefined,
        current: kind,
        item: {
          ...view,
          body: cleanHtml(item.description),
          fragments: await this.hooks.fragments(kind, item),
        },
        events: found.events.map((e) => this.reads.listItem(e, undefined)),
        total: found.total,
        pager: {
          previous: page > 1 ? this.reads.url(path, { page: page > 2 ? page - 1 : undefined }) : undefined,
          next: page < found.totalPages ? this.reads.url(path, { page: page + 1 }) : undefined,
          page,
          pages: found.totalPages,
        },
        jsonLd: item.json_ld ? scriptJson(item.json_ld) : undefined,
      },
    };
  }

  private venueView(v: Json): { name: string; url: string; address: string; adr: AddressPart[]; phone: string; website?: string; map?: string } {
    return {
      name: plain(v.venue),
      url: v.url as string,
      address: venueAddress(v),
      adr: addressParts(v),
      phone: plain(v.phone),
      website: safeLink(v.website),
      map: mapLink(v),
    };
  }

  private organizerView(o: Json): { name: string; url: string; phone: string; email?: string; website?: string } {
    const email = plain(o.email);
    return {
      name: plain(o.organizer),
      url: o.url as string,
      phone: plain(o.phone),
      email: /^[^\s@<>"]+@[^\s@<>"]+$/.test(email) ? email : undefined,
      website: safeLink(o.website),
    };
  }
}
