import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { nowUtcSql } from '../common/datetime/clock';
import type { JsonText, ListCondition, ListPage } from '../common/pagination';
import { stripTags } from '../common/text/autop';
import { Dialect } from '../database/dialect';
import { listVisibility } from '../items';
import type { LinkedItemEntity, LinkedItemReads, LinkedItemsRepository } from '../linked-items';
import { searchCondition, searchFragments } from '../linked-items';
import { OrganizerEntity, ORGANIZER_TOKENS, OrganizersRepository } from '../organizers';
import { TermsService } from '../taxonomies';
import type { ListCategoriesQueryDto } from '../taxonomies';
import { VenueEntity, VENUE_TOKENS, VenuesRepository } from '../venues';

type Json = Record<string, unknown>;

/** How many venues or organizers a picker shows at once. */
export const PICKER_PAGE = 10;

/** One choice of a picker: an id and the words that name it. */
export interface PickerItem {
  id: string;
  label: string;
}

/** A page of a picker's search. */
export interface PickerPage {
  items: PickerItem[];
  page: number;
  pages: number;
  total: number;
}

/** A category of the tree, with its depth (the tree is listed in order, each under its parent). */
export interface CategoryNode {
  id: string;
  name: string;
  depth: number;
}

/**
 * What the event form offers to choose from, through the API's own services: venues and
 * organizers by a paged server-side search (never the whole table), the chosen ones named, and
 * the categories' tree (small, loaded whole). Each read is made as `actor` would make it through
 * the API; the public submission form reads as an anonymous caller (null): published items only.
 */
@Injectable()
export class EventFormPickers {
  constructor(
    @Inject(VENUE_TOKENS.reads) private readonly venues: LinkedItemReads<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.reads) private readonly organizers: LinkedItemReads<OrganizerEntity>,
    private readonly terms: TermsService,
    private readonly venueRows: VenuesRepository,
    private readonly organizerRows: OrganizersRepository,
    private readonly dialect: Dialect,
  ) {}

  /**
   * A page of venues whose name or city holds every word of `search`; none without a search.
   * The API's venue search looks in every text column (descriptions too), which takes seconds
   * with 100,000 venues; a picker finds a venue by its name and town, in one scan of two short
   * columns, under the API's visibility rules, and names the page's venues through the API.
   */
  searchVenues(actor: Actor | null, search: string, page: number): Promise<PickerPage> {
    return this.search(actor, this.venueRows, ['name', 'city'], search, page, async (ids) => {
      const found = await this.venues.getMany(actor, ids);
      return ids.flatMap((id) => (found.has(id) ? [{ id: String(id), label: place(found.get(id)?.venue, found.get(id)?.city, found.get(id)?.country) }] : []));
    });
  }

  /** A page of organizers whose name holds every word of `search`. */
  searchOrganizers(actor: Actor | null, search: string, page: number): Promise<PickerPage> {
    return this.search(actor, this.organizerRows, ['name'], search, page, async (ids) => {
      const found = await this.organizers.getMany(actor, ids);
      return ids.flatMap((id) => (found.has(id) ? [{ id: String(id), label: place(found.get(id)?.organizer, found.get(id)?.email) }] : []));
    });
  }

  /** The chosen venue and organizers, named: one read of those ids each. */
  async chosen(actor: Actor | null, venueId: string, organizerIds: string[]): Promise<{ venue: PickerItem | null; organizers: PickerItem[] }> {
    const ids = (list: string[]) => list.filter((id) => /^\d+$/.test(id)).map(Number);
    const venues = ids([venueId]).length > 0 ? await this.venues.getMany(actor, ids([venueId])) : new Map<number, Json>();
    const organizers = ids(organizerIds).length > 0 ? await this.organizers.getMany(actor, ids(organizerIds)) : new Map<number, Json>();
    const venue = venues.get(Number(venueId));
    return {
      venue: venue ? { id: venueId, label: place(venue.venue, venue.city, venue.country) } : null,
      organizers: ids(organizerIds)
        .map((id) => organizers.get(id))
        .filter((o): o is Json => o !== undefined)
        .map((o) => ({ id: String(o.id), label: place(o.organizer, o.email) })),
    };
  }

  /** Every category, each under its parent, in name order (categories are few; the list is the API's, cached). */
  async categoryTree(actor: Actor | null): Promise<CategoryNode[]> {
    const all: Json[] = [];
    for (let page = 1; page <= 100; page++) {
      const q = { page, per_page: 100, hide_empty: false } as ListCategoriesQueryDto;
      const answer = await this.terms.list('category', q, { page: String(page), per_page: '100', hide_empty: 'false' }, actor);
      const items = (parse(answer).categories as Json[] | undefined) ?? [];
      all.push(...items);
      if (page >= answer.totalPages) break;
    }
    const children = new Map<number, Json[]>();
    for (const term of all) {
      const parent = Number(term.parent ?? 0);
      children.set(parent, [...(children.get(parent) ?? []), term]);
    }
    const known = new Set(all.map((t) => Number(t.id)));
    const out: CategoryNode[] = [];
    const walk = (parent: number, depth: number) => {
      for (const term of children.get(parent) ?? []) {
        out.push({ id: String(term.id), name: stripTags(String(term.name)), depth });
        if (depth < 20) walk(Number(term.id), depth + 1);
      }
    };
    walk(0, 0);
    // A term whose parent is not listed still appears, at the top.
    for (const term of all) if (!known.has(Number(term.parent ?? 0)) && Number(term.parent ?? 0) !== 0) walk(Number(term.parent), 0);
    return out;
  }

  private async search(
    actor: Actor | null,
    rows: LinkedItemsRepository<LinkedItemEntity>,
    columns: string[],
    search: string,
    page: number,
    name: (ids: number[]) => Promise<PickerItem[]>,
  ): Promise<PickerPage> {
    const fragments = searchFragments(search);
    if (fragments.length === 0) return { items: [], page: 1, pages: 0, total: 0 };
    const filters = { visibility: listVisibility(actor, undefined), nowUtc: nowUtcSql() };
    const matching: ListCondition = (qb) => {
      const [sql, params] = searchCondition(qb.alias, columns, fragments, this.dialect);
      qb.andWhere(sql, params);
    };
    const total = await rows.count(filters, [matching]);
    const pages = Math.ceil(total / PICKER_PAGE);
    const shown = Math.min(page, Math.max(1, pages));
    const ids = total === 0 ? [] : await rows.pageIds(filters, (shown - 1) * PICKER_PAGE, PICKER_PAGE, [matching]);
    return { items: await name(ids), page: shown, pages, total };
  }
}

function parse(answer: ListPage<JsonText>): Json {
  return JSON.parse(answer.body.bytes.toString('utf8')) as Json;
}

/** A venue's or organizer's name and where it is, as plain text. */
function place(name: unknown, ...more: unknown[]): string {
  const words = [name, ...more].filter((x) => typeof x === 'string' && x.trim() !== '').map((x) => stripTags(String(x)));
  return words.length > 1 ? `${words[0]} (${words.slice(1).join(', ')})` : (words[0] ?? '');
}
