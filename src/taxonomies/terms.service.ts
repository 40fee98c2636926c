import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { Actor, assertCan, Capability } from '../common/auth';
import { assertIfMatch, assertUnchanged, Tagged, tagOfJson } from '../common/http/preconditions';
import { currentLinks } from '../common/http/api-links';
import { invalidParams, PARAM_MESSAGES } from '../common/errors';
import type { NameList } from '../common/params';
import { JsonText, ListPage, ListPipeline, modifiedAfterUtc, presentCached, rawParam } from '../common/pagination';
import { NamedCache, ReadModel } from '../common/cache/read-model';
import { AppConfig } from '../config/app-config';
import { OUTER, type Tx } from '../database/tx';
import { UnitOfWork } from '../database/unit-of-work';
import type { WriteParticipant } from '../database/write-participants';
import { PostsService } from '../posts';
import type { ListCategoriesQueryDto } from './dto/list-terms.query.dto';
import { TermListHooks } from './term-list-hooks';
import type { TermWrite } from './dto/write-term.dto';
import { TermEntity, Taxonomy } from './entities/term.entity';
import { EventTerms } from './event-terms';
import { TermsRepository } from './terms.repository';
import { parseTermOrder, TermListFilters } from './terms.filters';
import { presentTerm, TERM_COLLECTION, TermJson } from './term.presenter';
import { TermWrites } from './term-writes';

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
export class TermsService {
  private readonly caches: Record<Taxonomy, TermListCaches>;

  constructor(
    private readonly terms: TermsRepository,
    private readonly posts: PostsService,
    private readonly config: AppConfig,
    private readonly readModel: ReadModel,
    private readonly unitOfWork: UnitOfWork,
    private readonly listHooks: TermListHooks,
    private readonly writes: TermWrites,
    private readonly eventTerms: EventTerms,
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
    const extended = await this.listHooks.of(taxonomy).prepare(raw, actor);

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

    const name = this.writes.cleanName(actor, input.name ?? '');
    const description = input.description === undefined ? '' : this.writes.cleanDescription(actor, input.description);
    // A writer that loses a race for the name is run again by the unit of work and then finds the winner.
    const term = await this.unitOfWork.run(async (tx, changes) => {
      await this.writes.assertNameFree(tx, taxonomy, parentId, name);
      const written = await this.writes.writeTerm(tx, { taxonomy, name, description, parentId, count: 0 }, input.slug);
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
    const name = input.name === undefined ? term.name : this.writes.cleanName(actor, input.name);
    const description = input.description === undefined ? term.description : this.writes.cleanDescription(actor, input.description);
    const updated = await this.unitOfWork.run(async (tx, changes) => {
      changes.record(taxonomy, id);
      if (input.name !== undefined || parentId !== term.parentId) await this.writes.assertNameFree(tx, taxonomy, parentId, name, term.id);
      // The row as committed now: its count moves with every event write.
      const current = await this.terms.findForUpdate(taxonomy, id, tx);
      assertUnchanged(ifMatch, term, current);
      const next = { ...(current ?? term), name, description, parentId };
      return input.slug === undefined ? this.terms.save(next, tx) : this.writes.writeTerm(tx, next, input.slug);
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
    await this.unitOfWork.run(async (tx, changes) => {
      changes.record(taxonomy, term.id);
      assertUnchanged(ifMatch, term, await this.terms.findForUpdate(taxonomy, term.id, tx));
      await this.terms.remove(term, tx);
    });
    return before;
  }

  // ---- what event writes and event lists ask of terms, answered by EventTerms ----

  assignToEvent(tx: Tx, eventId: number, taxonomy: Taxonomy, termIds: number[], published: boolean, isNew = false): Promise<void> {
    return this.eventTerms.assignToEvent(tx, eventId, taxonomy, termIds, published, isNew);
  }

  assignToNewEvents(tx: Tx, events: { id: number; published: boolean }[], termIds: number[]): Promise<void> {
    return this.eventTerms.assignToNewEvents(tx, events, termIds);
  }

  eventPublicationChanged(tx: Tx, eventId: number, published: boolean): Promise<void> {
    return this.eventTerms.eventPublicationChanged(tx, eventId, published);
  }

  eventRemoved(tx: Tx, eventId: number): Promise<void> {
    return this.eventTerms.eventRemoved(tx, eventId);
  }

  resolveFilter(taxonomy: Taxonomy, list: NameList): Promise<number[] | null> {
    return this.eventTerms.resolveFilter(taxonomy, list);
  }

  resolveForEventWrite(tx: Tx, taxonomy: Taxonomy, list: NameList, actor: Actor | null): Promise<number[]> {
    return this.eventTerms.resolveForEventWrite(tx, taxonomy, list, actor);
  }

  termsOfEvents(eventIds: number[]): Promise<Map<number, TermJson[]>> {
    return this.eventTerms.termsOfEvents(eventIds);
  }

  // ---- helpers ----

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
}
