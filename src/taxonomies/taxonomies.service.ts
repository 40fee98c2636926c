import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { Actor, assertCan, can, Capability } from '../common/auth';
import { assertIfMatch, assertUnchanged, Tagged, tagOfJson } from '../common/http/preconditions';
import { currentLinks } from '../common/http/api-links';
import { DUPLICATE_TERM_SLUG, invalidParams, PARAM_MESSAGES, TERM_EXISTS, WpError } from '../common/errors';
import type { NameList } from '../common/params';
import { JsonText, ListPage, ListPipeline, modifiedAfterUtc, presentCached, rawParam } from '../common/pagination';
import { cleanTextField, columnOverflow } from '../common/text/text-fields';
import { slugify, SLUG_MAX_LENGTH, writeUnderFreeSlug } from '../common/text/slugify';
import { NamedCache, ReadModel } from '../common/cache/read-model';
import { AppConfig } from '../config/app-config';
import { OUTER, type Reader, type Tx } from '../database/tx';
import { UnitOfWork } from '../database/unit-of-work';
import type { WriteParticipant } from '../database/write-participants';
import { PostsService } from '../posts';
import type { ListCategoriesQueryDto } from './dto/list-terms.query.dto';
import { TermListExtensions } from './term-list-extensions';
import type { TermWrite } from './dto/write-term.dto';
import { EventTermEntity } from './entities/event-term.entity';
import { TermEntity, Taxonomy } from './entities/term.entity';
import { TermsRepository } from './taxonomies.repository';
import { parseTermOrder, TermListFilters } from './taxonomies.filters';
import { presentTerm, TERM_COLLECTION, TermJson } from './term.presenter';

const KIND = { category: 'category', tag: 'tag' } as const;
const MANAGE: Record<Taxonomy, Capability> = { category: 'manage_categories', tag: 'manage_tags' };
/** List parameters echoed into rest_url when the client gave them (spec resources.md §8.2). */
const LIST_PARAMS = ['page', 'per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug', 'modified_after'];

/** A database-backed parameter check: the parameter, the test, the message when it fails (default: unknown ids). */
type ParamCheck = [string, () => boolean | Promise<boolean>, string?];

/** The read model's caches of one taxonomy's lists. */
interface TermListCaches {
  pipeline: ListPipeline;
  listed: NamedCache<Buffer>;
  lookups: NamedCache<Record<string, string>>;
}

/**
 * Categories and tags (spec endpoints.md §6): the same rules for both, categories adding a
 * hierarchy. Checks run in the spec's order: parameters (400), permission (401/403), operation.
 */
@Injectable()
export class TaxonomiesService {
  private readonly caches: Record<Taxonomy, TermListCaches>;

  constructor(
    private readonly terms: TermsRepository,
    private readonly posts: PostsService,
    private readonly config: AppConfig,
    private readonly readModel: ReadModel,
    private readonly uow: UnitOfWork,
    private readonly listExtensions: TermListExtensions,
  ) {
    const caches = (collection: 'categories' | 'tags'): TermListCaches => ({
      pipeline: new ListPipeline(readModel, collection, config.baseUrl),
      listed: readModel.cache(`${collection}.listed`),
      lookups: readModel.cache(`${collection}.lookups`),
    });
    this.caches = { category: caches(TERM_COLLECTION.category), tag: caches(TERM_COLLECTION.tag) };
  }

  /**
   * Categories or tags (spec endpoints.md §6.1). Term counts and assignments are written, never
   * computed at read time, so totals, page ids, parameter checks and presented terms are all
   * cached in the read model until the next write.
   */
  async list(taxonomy: Taxonomy, q: ListCategoriesQueryDto, raw: Record<string, unknown>, actor: Actor | null = null): Promise<ListPage<JsonText>> {
    await this.readModel.snapshot();
    const eventId = q.event ?? q.post;
    const checked = { include: q.include, exclude: q.exclude, parent: q.parent, post: q.post, event: q.event };
    const bad = await this.caches[taxonomy].lookups.through(JSON.stringify(checked), () =>
      this.badParams(
        [
          ['include', () => this.allExist(taxonomy, q.include)],
          ['exclude', () => this.allExist(taxonomy, q.exclude)],
          ['parent', () => this.isParentOk(taxonomy, q.parent)],
          ['post', () => (q.post === undefined ? true : this.posts.isOfType(q.post, 'event')), PARAM_MESSAGES.unknownId('event')],
          ['event', () => (q.event === undefined ? true : this.posts.isOfType(q.event, 'event')), PARAM_MESSAGES.unknownId('event')],
        ],
        taxonomy,
      ),
    );
    const changedAfter = modifiedAfterUtc(q.modified_after, this.config.timezone, DateTime.utc());
    const allBad = changedAfter === null ? { ...bad, modified_after: PARAM_MESSAGES.date } : bad; // the cached lookup is never mutated
    if (Object.keys(allBad).length > 0) throw invalidParams(allBad);
    const extended = await this.listExtensions.of(taxonomy).prepare(raw, actor);

    const order = parseTermOrder(q.orderby, q.order, taxonomy, q.include);
    const filters: TermListFilters = {
      taxonomy,
      search: q.search,
      include: q.include,
      exclude: q.exclude,
      hideEmpty: q.hide_empty ?? true,
      parent: taxonomy === 'category' ? q.parent : undefined,
      eventId,
      slug: q.slug,
      changedAfter: changedAfter ?? undefined,
    };
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(raw)) {
      if (!LIST_PARAMS.includes(key) || (key === 'parent' && taxonomy !== 'category')) continue;
      const text = rawParam(value);
      if (text !== undefined) params[key] = text;
    }
    Object.assign(params, extended.params);
    return this.caches[taxonomy].pipeline.answer({
      page: q.page ?? 1,
      perPage: q.per_page ?? 10,
      filterKey: JSON.stringify([filters, order, extended.params]),
      count: () => this.terms.count(filters, extended.conditions),
      pageIds: (offset, limit) => this.terms.pageIds(filters, order, offset, limit, extended.conditions),
      present: (ids) => this.presentListed(taxonomy, ids),
      params,
      previousPastEnd: true,
      layout: 'totals-first',
    });
  }

  private presentListed(taxonomy: Taxonomy, ids: number[]): Promise<Buffer[]> {
    return presentCached(
      this.caches[taxonomy].listed,
      ids,
      async (missing) => {
        const rows = await this.terms.findByIds(missing);
        const presented = await this.present(rows);
        return new Map(rows.map((row, i) => [row.id, { bytes: Buffer.from(JSON.stringify(presented[i])), keep: true }]));
      },
      currentLinks(this.config.baseUrl).key,
    );
  }

  async get(taxonomy: Taxonomy, id: number): Promise<TermJson> {
    const term = await this.require(taxonomy, id);
    return (await this.present([term]))[0];
  }

  /** Several single GETs at once (the change feed, webhook bodies): the terms of `taxonomy` among `ids`, by id. */
  async getMany(taxonomy: Taxonomy, ids: number[]): Promise<Map<number, TermJson>> {
    const terms = (await this.terms.findByIds(ids)).filter((t) => t.taxonomy === taxonomy);
    const presented = await this.present(terms);
    return new Map(terms.map((t, i) => [t.id, presented[i]]));
  }

  /** `participants`: declared for the write's unit of work (an import's bookkeeping). */
  async create(actor: Actor | null, taxonomy: Taxonomy, input: TermWrite, participants: readonly WriteParticipant[] = []): Promise<TermJson> {
    const parentId = taxonomy === 'category' ? (input.parent ?? 0) : 0;
    await this.checkParams([['parent', () => this.isParentOk(taxonomy, input.parent)]], taxonomy);
    assertCan(actor, 'create_items', MANAGE[taxonomy]);

    const name = this.cleanName(actor, input.name ?? '');
    const description = input.description === undefined ? '' : this.cleanDescription(actor, input.description);
    // A writer that loses a race for the name is run again by the unit of work and then finds the winner.
    const term = await this.uow.run(async (tx, changes) => {
      await this.assertNameFree(tx, taxonomy, parentId, name);
      const written = await this.writeTerm(tx, { taxonomy, name, description, parentId, count: 0 }, input.slug);
      changes.record(taxonomy, written.id);
      return written;
    }, participants);
    return (await this.present([term]))[0];
  }

  async update(
    actor: Actor | null,
    taxonomy: Taxonomy,
    id: number,
    input: TermWrite,
    ifMatch?: string,
    participants: readonly WriteParticipant[] = [],
  ): Promise<Tagged> {
    const term = await this.require(taxonomy, id);
    await this.checkParams([['parent', async () => (await this.isParentOk(taxonomy, input.parent)) && !(await this.wouldCycle(term, input.parent))]], taxonomy);
    assertCan(actor, 'create_items', MANAGE[taxonomy]);
    await assertIfMatch(ifMatch, async () => (await this.present([term]))[0]);

    const parentId = taxonomy === 'category' && input.parent !== undefined ? input.parent : term.parentId;
    const name = input.name === undefined ? term.name : this.cleanName(actor, input.name);
    const description = input.description === undefined ? term.description : this.cleanDescription(actor, input.description);
    const updated = await this.uow.run(async (tx, changes) => {
      changes.record(taxonomy, id);
      if (input.name !== undefined || parentId !== term.parentId) await this.assertNameFree(tx, taxonomy, parentId, name, term.id);
      // The row as committed now: its count moves with every event write.
      const current = await this.terms.findForUpdate(taxonomy, id, tx);
      assertUnchanged(ifMatch, term, current);
      const next = { ...(current ?? term), name, description, parentId };
      return input.slug === undefined ? this.terms.save(next, tx) : this.writeTerm(tx, next, input.slug);
    }, participants);
    // A term reads the same for every caller, and its update answers what its GET shows.
    const answer = (await this.present([updated]))[0];
    return new Tagged(answer, tagOfJson(answer));
  }

  async remove(actor: Actor | null, taxonomy: Taxonomy, id: number, ifMatch?: string): Promise<TermJson> {
    const term = await this.require(taxonomy, id);
    assertCan(actor, 'create_items', MANAGE[taxonomy]);
    const before = (await this.present([term]))[0];
    await assertIfMatch(ifMatch, async () => before);
    await this.uow.run(async (tx, changes) => {
      changes.record(taxonomy, term.id);
      assertUnchanged(ifMatch, term, await this.terms.findForUpdate(taxonomy, term.id, tx));
      await this.terms.remove(term, tx);
    });
    return before;
  }

  // ---- the seams used by event writes (counts are maintained here, spec resources.md §4) ----

  /** Replaces the event's categories or tags; recounts what changed. Runs in the caller's transaction. */
  /** `isNew`: the event was created in this transaction (it has no terms to replace). */
  async assignToEvent(manager: Tx, eventId: number, taxonomy: Taxonomy, termIds: number[], published: boolean, isNew = false): Promise<void> {
    const { added, removed } = await this.terms.replaceEventTerms(manager, eventId, taxonomy, [...new Set(termIds)], published, isNew);
    if (!published) return;
    await this.terms.adjustCounts(manager, added, 1);
    await this.terms.adjustCounts(manager, removed, -1);
  }

  /**
   * New events (no terms yet) all get these terms, as assignToEvent for each would give them:
   * the links in multi-row INSERTs, the counts raised once by the number of published events.
   */
  async assignToNewEvents(manager: Tx, events: { id: number; published: boolean }[], termIds: number[]): Promise<void> {
    const ids = [...new Set(termIds)];
    const links = events.flatMap((e) => ids.map((termId) => Object.assign(new EventTermEntity(), { eventId: e.id, termId, published: e.published })));
    await this.terms.insertEventTerms(links, manager);
    await this.terms.adjustCounts(manager, ids, events.filter((e) => e.published).length);
  }

  /** The event became (un)published (or was trashed): its terms' counts follow. */
  async eventPublicationChanged(manager: Tx, eventId: number, published: boolean): Promise<void> {
    await this.terms.adjustCounts(manager, await this.terms.setEventPublished(manager, eventId, published), published ? 1 : -1);
  }

  /** The event is being deleted for good: its published assignments leave the counts, then every assignment goes. */
  async eventRemoved(manager: Tx, eventId: number): Promise<void> {
    await this.eventPublicationChanged(manager, eventId, false);
    await this.terms.removeEventTerms(manager, eventId);
  }

  /**
   * Event-list filter values (spec endpoints.md §4.1.3): each item a slug, else an id, of an
   * existing term; categories include their descendants. null when any item is unknown. A comma
   * list that is as a whole the name of a term names that term, as in event writes (§4.5).
   */
  async resolveFilter(taxonomy: Taxonomy, list: NameList): Promise<number[] | null> {
    const named = await this.namedWhole(taxonomy, list, OUTER);
    const ids = named !== undefined ? [named] : await this.filterIds(taxonomy, list.items);
    if (ids === null) return null;
    return taxonomy === 'category' ? this.terms.withDescendants(taxonomy, ids) : [...new Set(ids)];
  }

  /**
   * Categories/tags named in an event write (spec endpoints.md §4.5): numeric items are ids
   * (unknown ones skipped); other items match a slug or a name, or create a new term; a comma
   * string that is as a whole the name of a term names only that term.
   * Runs in the event's transaction; no permission beyond writing the event is needed.
   */
  async resolveForEventWrite(manager: Tx, taxonomy: Taxonomy, list: NameList, actor: Actor | null): Promise<number[]> {
    // Inside the event's transaction: a pooled query here could wait forever for a connection.
    const named = await this.namedWhole(taxonomy, list, manager);
    if (named !== undefined) return [named];
    const { items } = list;
    const numeric = items
      .filter((i) => /^\d+$/.test(i))
      .map(Number)
      .filter(Number.isSafeInteger);
    const existing = await this.terms.existingIds(taxonomy, numeric, manager);
    const names = items
      .filter((i) => !/^\d+$/.test(i))
      .map((n) => this.cleanName(actor, n, false, TERM_PARAM[taxonomy]))
      .filter((n) => n !== '');
    const found = await this.terms.findBySlugsOrNames(taxonomy, names.map((n) => slugify(n)).filter(Boolean), names, manager);
    const ids: number[] = [];
    for (const item of items) {
      if (/^\d+$/.test(item)) {
        if (existing.has(Number(item))) ids.push(Number(item));
        continue;
      }
      const name = this.cleanName(actor, item, false, TERM_PARAM[taxonomy]);
      if (name === '') continue;
      const match = found.find((t) => t.slug === slugify(name) && slugify(name) !== '') ?? found.find((t) => t.name.toLowerCase() === name.toLowerCase());
      if (match) {
        ids.push(match.id);
        continue;
      }
      const term = await this.createOrReuse(manager, { taxonomy, name, description: '', parentId: 0, count: 0 });
      found.push(term);
      ids.push(term.id);
    }
    return [...new Set(ids)];
  }

  async termsOfEvents(eventIds: number[]): Promise<Map<number, TermJson[]>> {
    const byEvent = await this.terms.termsOfEvents(eventIds);
    const all = [...byEvent.values()].flat();
    const known = await this.terms.ancestors(all);
    const out = new Map<number, TermJson[]>();
    const links = currentLinks(this.config.baseUrl);
    for (const [eventId, terms] of byEvent)
      out.set(
        eventId,
        terms.map((t) => presentTerm(t, known, this.config, links)),
      );
    return out;
  }

  // ---- helpers ----

  /** Filter items by slug first, then by id, then by name (spec endpoints.md §4.1 and §4.1.3); null when one is unknown. */
  private async filterIds(taxonomy: Taxonomy, items: string[]): Promise<number[] | null> {
    const byText = await this.terms.findBySlugsOrNames(taxonomy, items, items, OUTER);
    const numeric = items
      .filter((i) => /^\d+$/.test(i))
      .map(Number)
      .filter(Number.isSafeInteger);
    const byId = await this.terms.existingIds(taxonomy, numeric, OUTER);
    const ids: number[] = [];
    for (const item of items) {
      const id =
        byText.find((t) => t.slug === item)?.id ??
        (/^\d+$/.test(item) && byId.has(Number(item)) ? Number(item) : undefined) ??
        byText.find((t) => t.name.toLowerCase() === item.toLowerCase())?.id;
      if (id === undefined) return null;
      ids.push(id);
    }
    return ids;
  }

  /**
   * The term a comma-separated string names as a whole (spec endpoints.md §4.5): the one whose
   * name is the trimmed string (case-insensitively, as names are compared at one level; the
   * oldest when categories at different levels share it). Undefined for arrays and for strings
   * that name no term, whose items are then resolved one by one.
   */
  private async namedWhole(taxonomy: Taxonomy, list: NameList, reader: Reader): Promise<number | undefined> {
    if (list.whole === undefined || list.whole === '') return undefined;
    const [term] = await this.terms.findBySlugsOrNames(taxonomy, [], [list.whole], reader);
    return term?.id;
  }

  private async present(terms: TermEntity[]): Promise<TermJson[]> {
    const known = await this.terms.ancestors(terms);
    const links = currentLinks(this.config.baseUrl);
    return terms.map((t) => presentTerm(t, known, this.config, links));
  }

  /** Unknown ids on item routes are a parameter error (spec endpoints.md §6.2). */
  private async require(taxonomy: Taxonomy, id: number): Promise<TermEntity> {
    const term = id > 0 ? await this.terms.findById(taxonomy, id, OUTER) : null;
    if (!term) throw invalidParams({ id: PARAM_MESSAGES.unknownId(KIND[taxonomy]) });
    return term;
  }

  /** Runs the database-backed parameter checks and reports every failure together. */
  private async checkParams(checks: ParamCheck[], taxonomy: Taxonomy): Promise<void> {
    const bad = await this.badParams(checks, taxonomy);
    if (Object.keys(bad).length > 0) throw invalidParams(bad);
  }

  /** The failed checks' messages by parameter (none: `{}`). */
  private async badParams(checks: ParamCheck[], taxonomy: Taxonomy): Promise<Record<string, string>> {
    const bad: Record<string, string> = {};
    for (const [name, ok, message] of checks) {
      if (!(await ok())) bad[name] = message ?? PARAM_MESSAGES.unknownIds(KIND[name === 'parent' ? 'category' : taxonomy]);
    }
    return bad;
  }

  private async allExist(taxonomy: Taxonomy, ids: number[] | undefined): Promise<boolean> {
    if (ids === undefined) return true;
    const found = await this.terms.existingIds(taxonomy, ids, OUTER);
    return ids.every((id) => found.has(id));
  }

  /** `parent`: 0 (top level) or an existing category. */
  private async isParentOk(taxonomy: Taxonomy, parent: number | undefined): Promise<boolean> {
    if (taxonomy !== 'category' || parent === undefined || parent === 0) return true;
    return (await this.terms.findById('category', parent, OUTER)) !== null;
  }

  /** Would making `parent` the parent of `term` put the term below itself? */
  private async wouldCycle(term: TermEntity, parent: number | undefined): Promise<boolean> {
    if (term.taxonomy !== 'category' || parent === undefined || parent === 0) return false;
    if (parent === term.id) return true;
    const chain = await this.terms.ancestors([(await this.terms.findById('category', parent, OUTER)) as TermEntity]);
    let cursor = chain.get(parent);
    const seen = new Set<number>();
    while (cursor && !seen.has(cursor.id)) {
      if (cursor.id === term.id) return true;
      seen.add(cursor.id);
      cursor = chain.get(cursor.parentId);
    }
    return false;
  }

  /** term_exists (with the existing term's id) when the name is used at that level. */
  private async assertNameFree(tx: Tx, taxonomy: Taxonomy, parentId: number, name: string, exceptId?: number): Promise<void> {
    const existing = await this.terms.findSiblingByName(taxonomy, parentId, name, exceptId, tx);
    if (existing) throw termExists(existing.id);
  }

  /**
   * Writes the term under an explicit slug, which must be free (spec endpoints.md §6.3), or
   * under the first free slug generated from its name; the unique index on (kind, slug) settles
   * races. A name taken at the level surfaces as the database's unique-key error.
   */
  private async writeTerm(tx: Tx, term: Partial<TermEntity> & Pick<TermEntity, 'taxonomy' | 'name'>, given: string | undefined): Promise<TermEntity> {
    const explicit = given === undefined ? '' : slugify(given).slice(0, SLUG_MAX_LENGTH);
    let saved: TermEntity | undefined;
    const write = async (slug: string) => {
      saved = await this.terms.save({ ...term, slug }, tx);
    };
    if (explicit !== '') {
      const taken = () => new WpError(DUPLICATE_TERM_SLUG, 'This slug is already used by another term.', 400);
      if (await this.terms.slugTaken(term.taxonomy, explicit, term.id, tx)) throw taken();
      await write(explicit).catch((err: unknown) => {
        throw this.terms.isSlugConflict(err) ? taken() : err;
      });
    } else {
      const base = (slugify(term.name) || term.taxonomy).slice(0, SLUG_MAX_LENGTH);
      const slugs = await this.terms.slugsLike(term.taxonomy, base, term.id, tx);
      await writeUnderFreeSlug(base, slugs, write, (err) => this.terms.isSlugConflict(err));
    }
    return saved as TermEntity;
  }

  /** A term named in an event write: created, or, when a concurrent write created it first, that one. */
  private async createOrReuse(tx: Tx, term: Omit<TermEntity, 'id' | 'slug' | 'nameKey'>): Promise<TermEntity> {
    try {
      return await this.writeTerm(tx, term, undefined);
    } catch (err) {
      if (!this.terms.isNameConflict(err)) throw err;
      const winner = await this.terms.findSiblingByName(term.taxonomy, term.parentId, term.name, undefined, tx);
      if (!winner) throw err;
      return winner;
    }
  }

  /** Names are plain text for callers without unfiltered HTML (spec README §8). */
  /** `param`: the parameter that gave the name (`name`, or `categories`/`tags` of an event write). */
  private cleanName(actor: Actor | null, name: string, required = true, param = 'name'): string {
    const text = cleanTextField('term', 'name', name, can(actor, 'unfiltered_html')).trim();
    if (text === '' && required) throw invalidParams({ name: PARAM_MESSAGES.text });
    return fitting('name', text, param);
  }

  private cleanDescription(actor: Actor | null, description: string): string {
    return fitting('description', cleanTextField('term', 'description', description, can(actor, 'unfiltered_html')));
  }
}

/** `text` when it fits the column of the term field, else 400 naming the field. */
function fitting(field: 'name' | 'description', text: string, param: string = field): string {
  const overflow = columnOverflow('term', field, text);
  if (overflow) throw invalidParams({ [param]: overflow });
  return text;
}

/** The event-write parameter that names terms of each kind. */
const TERM_PARAM: Record<Taxonomy, string> = { category: 'categories', tag: 'tags' };

const termExists = (termId: number) => new WpError(TERM_EXISTS, 'A term with this name already exists.', 400, { term_id: termId });
