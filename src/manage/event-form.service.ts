import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../common/auth';
import { canDelete, canEdit } from '../common/auth';
import { tagOfJson } from '../common/http/preconditions';
import { nowUtcSql } from '../common/datetime/clock';
import type { JsonText, ListPage } from '../common/pagination';
import type { ListCondition } from '../common/pagination/list-extensions';
import { Dialect } from '../database/dialect';
import { stripTags } from '../common/text/autop';
import { AppConfig } from '../config/app-config';
import {
  EventAccess,
  EventDeleter,
  type EventEntity,
  EventExtensions,
  type EventFormContext,
  type EventFormQuestion,
  EventWriter,
  FORM_ORIGIN,
  validatedEventInput,
} from '../events';
import { listVisibility } from '../items';
import type { LinkedItemEntity, LinkedItemReads, LinkedItemsRepository } from '../linked-items';
import { searchCondition, searchFragments } from '../linked-items';
import { OrganizerEntity, ORGANIZER_TOKENS, OrganizersRepository } from '../organizers';
import { TaxonomiesService } from '../taxonomies';
import type { ListCategoriesQueryDto } from '../taxonomies';
import { VenueEntity, VENUE_TOKENS, VenuesRepository } from '../venues';
import { type EventFormValues, writeInput } from './event-form-values';

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

/** An event as its form opens it: the row, its representation (the single GET's) and its version (that GET's ETag; none in the trash). */
export interface OpenedEvent {
  entity: EventEntity;
  body: Json;
  version: string;
  mayDelete: boolean;
}

/**
 * What the event form reads and writes, through the API's own services: the event as its
 * single GET shows it (and that GET's ETag as the form's version), venues and organizers by a
 * paged server-side search (never the whole table), the categories' tree (small, loaded whole),
 * and the writes — create, update with the version as If-Match, trash, restore — with the
 * signed-in actor, so that a form's save is the API's write.
 */
@Injectable()
export class EventFormService {
  private zoneList: string[] | undefined;

  constructor(
    private readonly access: EventAccess,
    private readonly writer: EventWriter,
    private readonly deleter: EventDeleter,
    private readonly extensions: EventExtensions,
    @Inject(VENUE_TOKENS.reads) private readonly venues: LinkedItemReads<VenueEntity>,
    @Inject(ORGANIZER_TOKENS.reads) private readonly organizers: LinkedItemReads<OrganizerEntity>,
    private readonly taxonomies: TaxonomiesService,
    private readonly config: AppConfig,
    private readonly venueRows: VenuesRepository,
    private readonly organizerRows: OrganizersRepository,
    private readonly dialect: Dialect,
  ) {}

  /** The site's zone, the default of a new event. */
  get siteZone(): string {
    return this.config.timezone;
  }

  /** The event if the actor may edit it (else the API's 404 / 403, shown as a page). */
  async open(actor: Actor, id: number): Promise<OpenedEvent> {
    const entity = await this.access.requireEvent(id);
    this.access.assertMay(canEdit, actor, entity);
    const body = (await this.access.present([entity], { jsonLd: true, actor }))[0];
    // The tag If-Match is compared with (EventAccess.singleBody): the single GET's body; a trashed event has none.
    const version = entity.status === 'trash' ? '' : tagOfJson(body);
    return { entity, body, version, mayDelete: canDelete(actor, this.access.asOwned(entity)) };
  }

  /** Saves the form as the API's create or update: the same input, checks and write. Answers the event's id. */
  async save(actor: Actor, stored: EventEntity | null, values: EventFormValues, version: string, ctx: EventFormContext): Promise<number> {
    const input = writeInput(values, stored, this.extensions.all());
    for (const question of this.questions('save', ctx)) input[question.name] = values.answers[question.name] ?? question.initial;
    for (const extension of this.extensions.all()) extension.formSection?.read(values.sections[extension.name] ?? {}, input, ctx);
    const { dto, raw } = validatedEventInput(stored === null, input);
    const saved = stored
      ? await this.writer.updateById(actor, stored.id, dto, version || undefined, raw, FORM_ORIGIN)
      : await this.writer.create(actor, dto, raw, FORM_ORIGIN);
    const body = (saved as { body?: unknown }).body ?? saved;
    return Number((body as Json).id);
  }

  /** To the trash, as DELETE /events/{id} with If-Match (and the answers to the extensions' questions as its parameters). */
  async trash(actor: Actor, id: number, version: string, answers: Json): Promise<void> {
    await this.deleter.removeById(actor, id, false, version || undefined, answers, FORM_ORIGIN);
  }

  /** Out of the trash, as an update that sends the status it had before (beyond.md #2), or draft. */
  async restore(actor: Actor, entity: EventEntity): Promise<void> {
    const input = { status: entity.statusBeforeTrash ?? 'draft' };
    const { dto, raw } = validatedEventInput(false, input);
    await this.writer.updateById(actor, entity.id, dto, undefined, raw, FORM_ORIGIN);
  }

  /** The extensions' questions before `action` (EventFormSection.question). */
  questions(action: 'save' | 'trash', ctx: EventFormContext) {
    return this.extensions
      .all()
      .map((e) => e.formSection?.question?.(action, ctx) ?? null)
      .filter((q) => q !== null);
  }

  /** The questions before `action` that ask first (`confirm`) and have no valid answer in `answers`. */
  unanswered(action: 'save' | 'trash', ctx: EventFormContext, answers: Record<string, string>): EventFormQuestion[] {
    return this.questions(action, ctx).filter((q) => q.confirm && !q.choices.some((c) => c.value === answers[q.name]));
  }

  /** Whether an extension's section says that this unchanged form must not be written (EventFormSection.unchangedWritesNothing). */
  unchangedWritesNothing(ctx: EventFormContext): boolean {
    return this.extensions.all().some((e) => e.formSection?.unchangedWritesNothing?.(ctx) === true);
  }

  /** Whether an extension's section asks this post to show the form again (its preview) instead of writing. */
  redisplay(posted: Json): boolean {
    return this.extensions.all().some((e) => e.formSection?.redisplay?.(posted) === true);
  }

  /** The id of an extension section's input for a refused parameter, if one claims it. */
  sectionFieldOf(param: string, message: string, ctx: EventFormContext): string | undefined {
    for (const extension of this.extensions.all()) {
      const id = extension.formSection?.fieldOf?.(param, message, ctx);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  /** The extensions' sections, rendered. */
  async sections(ctx: EventFormContext): Promise<string[]> {
    const html: string[] = [];
    for (const extension of this.extensions.all()) if (extension.formSection) html.push(await extension.formSection.render(ctx));
    return html;
  }

  /**
   * A page of venues whose name or city holds every word of `search`; none without a search.
   * The API's venue search looks in every text column (descriptions too), which takes seconds
   * with 100,000 venues; a picker finds a venue by its name and town, in one scan of two short
   * columns, under the API's visibility rules, and names the page's venues through the API.
   */
  searchVenues(actor: Actor, search: string, page: number): Promise<PickerPage> {
    return this.search(actor, this.venueRows, ['name', 'city'], search, page, async (ids) => {
      const found = await this.venues.getMany(actor, ids);
      return ids.flatMap((id) => (found.has(id) ? [{ id: String(id), label: place(found.get(id)?.venue, found.get(id)?.city, found.get(id)?.country) }] : []));
    });
  }

  /** A page of organizers whose name holds every word of `search`. */
  searchOrganizers(actor: Actor, search: string, page: number): Promise<PickerPage> {
    return this.search(actor, this.organizerRows, ['name'], search, page, async (ids) => {
      const found = await this.organizers.getMany(actor, ids);
      return ids.flatMap((id) => (found.has(id) ? [{ id: String(id), label: place(found.get(id)?.organizer, found.get(id)?.email) }] : []));
    });
  }

  /** The chosen venue and organizers, named: one read of those ids each. */
  async chosen(actor: Actor, venueId: string, organizerIds: string[]): Promise<{ venue: PickerItem | null; organizers: PickerItem[] }> {
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
  async categoryTree(actor: Actor): Promise<CategoryNode[]> {
    const all: Json[] = [];
    for (let page = 1; page <= 100; page++) {
      const q = { page, per_page: 100, hide_empty: false } as ListCategoriesQueryDto;
      const answer = await this.taxonomies.list('category', q, { page: String(page), per_page: '100', hide_empty: 'false' }, actor);
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

  /** The IANA zones the form offers (the runtime's list, UTC and the event's own when it is another). */
  zones(current: string): string[] {
    this.zoneList ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
    return current !== '' && !this.zoneList.includes(current) ? [current, ...this.zoneList] : this.zoneList;
  }

  private async search(
    actor: Actor,
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
