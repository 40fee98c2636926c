import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import type { ChangeKind } from '../common/feature/feature';
import { changesOf } from '../database/change-log';
import { insertInChunks } from '../database/bulk-insert';
import { Dialect } from '../database/dialect';
import { findEntitiesByIds } from '../database/entity-rows';
import { managerOf, type Reader, type Tx } from '../database/tx';
import { placeholders } from '../database/sql';
import { EventTermEntity } from './entities/event-term.entity';
import { TAXONOMIES, TermEntity, Taxonomy } from './entities/term.entity';
import { shadowNameKey, termNameKey } from './term-name-key';
import { suffixRange } from '../common/text/slugify';
import { extended, type ListCondition } from '../common/pagination';
import { applyTermFilters, applyTermOrder, TermListFilters, TermOrder } from './terms.filters';

/**
 * Where the change log reads the state of a term of `taxonomy` (ChangeKind.state): its row of
 * `terms`, always published, with no author and no dates.
 */
export function termChangeState(taxonomy: Taxonomy): ChangeKind['state'] {
  return { table: 'terms', columns: ['NULL', "'publish'", 'NULL', 'NULL'], where: `t.taxonomy = '${taxonomy}'` };
}

/**
 * The change log's look-up of the events that embed some terms (ChangeKind.linkedEvents of the
 * `category` and `tag` kinds): the list of the terms' ids follows it.
 */
export const TERM_LINKED_EVENTS_SQL = 'SELECT event_id AS id FROM event_terms WHERE term_id IN';

/** Every query on terms and their assignments to events. */
@Injectable()
export class TermsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dialect: Dialect,
  ) {}

  private terms(manager: EntityManager = this.db.manager) {
    return manager.getRepository(TermEntity);
  }

  findById(taxonomy: Taxonomy, id: number, reader: Reader): Promise<TermEntity | null> {
    return this.terms(managerOf(reader, this.db)).findOne({ where: { taxonomy, id } });
  }

  /** The term as committed now, locked until the write's end (If-Match compares it with the row it checked). */
  findForUpdate(taxonomy: Taxonomy, id: number, tx: Tx): Promise<TermEntity | null> {
    return this.dialect.lockForUpdate(this.terms(tx).createQueryBuilder('t').where('t.taxonomy = :taxonomy AND t.id = :id', { taxonomy, id })).getOne();
  }

  async existingIds(taxonomy: Taxonomy, ids: number[], reader: Reader): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const manager = managerOf(reader, this.db);
    // Plain SQL (every event write with terms asks this): the ORM's find() costs more than the lookup.
    const rows: { id: number | string }[] = await manager.query(`SELECT id FROM terms WHERE taxonomy = ? AND id IN (${placeholders(ids)})`, [taxonomy, ...ids]);
    return new Set(rows.map((r) => Number(r.id)));
  }

  async slugTaken(taxonomy: Taxonomy, slug: string, exceptId: number | undefined, tx: Tx): Promise<boolean> {
    const row = await this.terms(tx).findOne({ where: { taxonomy, slug }, select: { id: true } });
    return row !== null && row.id !== exceptId;
  }

  /** Slugs of the kind among `base` and `base-…` (an index range), the term `exceptId` aside. */
  async slugsLike(taxonomy: Taxonomy, base: string, exceptId: number | undefined, tx: Tx): Promise<Set<string>> {
    const { lo, hi } = suffixRange(base);
    const rows: { slug: string }[] = await tx.query('SELECT slug FROM terms WHERE taxonomy = ? AND (slug = ? OR (slug >= ? AND slug < ?)) AND id <> ?', [
      taxonomy,
      base,
      lo,
      hi,
      exceptId ?? 0,
    ]);
    return new Set(rows.map((r) => r.slug));
  }

  /** A term of the same kind and parent with the same name (TermEntity.nameKey). */
  findSiblingByName(taxonomy: Taxonomy, parentId: number, name: string, exceptId: number | undefined, tx: Tx): Promise<TermEntity | null> {
    const qb = this.terms(tx)
      .createQueryBuilder('t')
      .where('t.taxonomy = :taxonomy AND t.parentId = :parentId AND t.nameKey = :key', { taxonomy, parentId, key: termNameKey(name) });
    if (exceptId !== undefined) qb.andWhere('t.id <> :exceptId', { exceptId });
    return qb.getOne();
  }

  /** Did the database refuse a write because the name is taken at that level? */
  isNameConflict(err: unknown): boolean {
    return this.dialect.violatesUnique(err, 'terms', 'uq_terms_taxonomy_parent_name', ['taxonomy', 'parent_id', 'name_key']);
  }

  /** Did the database refuse a write because the slug is taken by another term of the kind? */
  isSlugConflict(err: unknown): boolean {
    return this.dialect.violatesUnique(err, 'terms', 'uq_terms_taxonomy_slug', ['taxonomy', 'slug']);
  }

  /** How many terms match the list filters. */
  count(filters: TermListFilters, extensions: ListCondition[] = []): Promise<number> {
    return extended(applyTermFilters(this.terms().createQueryBuilder('t'), filters, this.dialect), extensions).getCount();
  }

  /** The ids of `limit` matching terms from `offset`, in list order (after a list extension's leading order). */
  async pageIds(filters: TermListFilters, order: TermOrder, offset: number, limit: number, extensions: ListCondition[] = []): Promise<number[]> {
    const filtered = applyTermFilters(this.terms().createQueryBuilder('t').select('t.id', 'id'), filters, this.dialect);
    const qb = applyTermOrder(extended(filtered, extensions), order);
    const rows = await qb.offset(offset).limit(limit).getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  /** Terms by id, in the order of `ids`. */
  async findByIds(ids: number[]): Promise<TermEntity[]> {
    if (ids.length === 0) return [];
    const byId = new Map((await findEntitiesByIds(this.db.manager, TermEntity, [...new Set(ids)])).map((t) => [t.id, t]));
    return ids.map((id) => byId.get(id)).filter((t): t is TermEntity => t !== undefined);
  }

  /**
   * Every ancestor of the given terms, by id, loaded one level per query (category trees are
   * shallow), for building nested permalinks.
   */
  async ancestors(terms: TermEntity[]): Promise<Map<number, TermEntity>> {
    const known = new Map<number, TermEntity>(terms.map((t) => [t.id, t]));
    let wanted = [...new Set(terms.map((t) => t.parentId).filter((id) => id > 0 && !known.has(id)))];
    while (wanted.length > 0) {
      const rows = await findEntitiesByIds(this.db.manager, TermEntity, wanted);
      for (const row of rows) known.set(row.id, row);
      wanted = [...new Set(rows.map((t) => t.parentId).filter((id) => id > 0 && !known.has(id)))];
    }
    return known;
  }

  /** Terms whose slug is one of `slugs` or whose name is one of `names` (TermEntity.nameKey). */
  async findBySlugsOrNames(taxonomy: Taxonomy, slugs: string[], names: string[], reader: Reader): Promise<TermEntity[]> {
    if (slugs.length === 0 && names.length === 0) return [];
    const qb = this.terms(managerOf(reader, this.db)).createQueryBuilder('t').where('t.taxonomy = :taxonomy', { taxonomy });
    const keys = [...new Set(names.map(termNameKey))];
    qb.andWhere('(t.slug IN (:...slugs) OR t.nameKey IN (:...keys))', {
      slugs: slugs.length > 0 ? slugs : [''],
      keys: keys.length > 0 ? keys : [''],
    });
    return qb.orderBy('t.id', 'ASC').getMany();
  }

  /** The given categories and all their descendants, one query per level of the tree. */
  async withDescendants(taxonomy: Taxonomy, ids: number[]): Promise<number[]> {
    const all = new Set(ids);
    let level = ids;
    while (level.length > 0) {
      const children = await this.terms().find({ where: { taxonomy, parentId: In(level) }, select: { id: true } });
      level = children.map((c) => c.id).filter((id) => !all.has(id));
      level.forEach((id) => all.add(id));
    }
    return [...all];
  }

  /** Writes the term; its name key follows its name (unless it already holds a shadow key for this name). */
  save(term: Partial<TermEntity>, tx: Tx): Promise<TermEntity> {
    return this.terms(tx).save(term.name === undefined ? term : { ...term, nameKey: keyFor(term) });
  }

  /** Every term of a kind, in id order (bulk loads match their names against these). */
  findAll(taxonomy: Taxonomy, tx: Tx): Promise<TermEntity[]> {
    return this.terms(tx).find({ where: { taxonomy }, order: { id: 'ASC' } });
  }

  /**
   * Bulk load (`seed`): inserts the terms (slugs already unique) and returns them with their
   * ids, read back by the unique (taxonomy, slug) pair.
   */
  async insertMany(terms: Omit<TermEntity, 'id' | 'nameKey'>[], tx: Tx): Promise<TermEntity[]> {
    await insertInChunks(
      tx,
      TermEntity,
      terms.map((t) => ({ ...t, nameKey: termNameKey(t.name) })),
    );
    const out: TermEntity[] = [];
    for (const taxonomy of new Set(terms.map((t) => t.taxonomy))) {
      const slugs = terms.filter((t) => t.taxonomy === taxonomy).map((t) => t.slug);
      for (let i = 0; i < slugs.length; i += 500) {
        out.push(...(await this.terms(tx).find({ where: { taxonomy, slug: In(slugs.slice(i, i + 500)) } })));
      }
    }
    const bySlug = new Map(out.map((t) => [`${t.taxonomy}/${t.slug}`, t]));
    return terms.map((t) => bySlug.get(`${t.taxonomy}/${t.slug}`) as TermEntity);
  }

  /** Bulk load (`seed`): assignments with `published` already set; counts are left to recount(). */
  insertEventTerms(links: EventTermEntity[], tx: Tx): Promise<void> {
    return insertInChunks(tx, EventTermEntity, links);
  }

  /**
   * Deletes a term for good, in the caller's transaction: unassigns it from events and re-attaches
   * its children to its parent. A child whose name is already used at that level keeps its name
   * under a key of its own (TermEntity.nameKey), as WordPress keeps both.
   */
  async remove(term: TermEntity, tx: Tx): Promise<void> {
    await changesOf(tx)?.recordLinkedEvents(tx, term.taxonomy, term.id);
    await tx.getRepository(EventTermEntity).delete({ termId: term.id });
    const children = await tx.getRepository(TermEntity).find({ where: { taxonomy: term.taxonomy, parentId: term.id } });
    for (const child of children) {
      const namesake = await this.findSiblingByName(term.taxonomy, term.parentId, child.name, child.id, tx);
      const nameKey = namesake ? shadowNameKey(child.name, child.id) : termNameKey(child.name);
      await tx.getRepository(TermEntity).update({ id: child.id }, { parentId: term.parentId, nameKey });
    }
    await tx.getRepository(TermEntity).delete({ id: term.id });
  }

  /** Terms assigned to the given events, for embedding; one query for a whole page of events. */
  async termsOfEvents(eventIds: number[]): Promise<Map<number, TermEntity[]>> {
    const result = new Map<number, TermEntity[]>();
    if (eventIds.length === 0) return result;
    // Plain SQL: every presented page asks this, and mapping the rows by hand is cheaper than the ORM's.
    const rows: (TermRow & { event_id: number | string })[] = await this.db.query(
      `SELECT et.event_id AS event_id, ${TERM_COLUMNS} FROM terms t INNER JOIN event_terms et ON et.term_id = t.id ` +
        `WHERE et.event_id IN (${placeholders(eventIds)}) ORDER BY LOWER(t.name) ASC, t.id ASC`,
      eventIds,
    );
    for (const row of rows) {
      const eventId = Number(row.event_id);
      const terms = result.get(eventId);
      if (terms) terms.push(termFromRow(row));
      else result.set(eventId, [termFromRow(row)]);
    }
    return result;
  }

  /** Replaces an event's terms of one kind; returns the term ids linked and unlinked. */
  async replaceEventTerms(
    tx: Tx,
    eventId: number,
    taxonomy: Taxonomy,
    termIds: number[],
    published: boolean,
    isNew = false,
  ): Promise<{ added: number[]; removed: number[] }> {
    const links = tx.getRepository(EventTermEntity);
    // A new event has no links yet: nothing to read or remove.
    const current = isNew
      ? []
      : await links
          .createQueryBuilder('et')
          .innerJoin(TermEntity, 't', 't.id = et.term_id')
          .where('et.event_id = :eventId AND t.taxonomy = :taxonomy', { eventId, taxonomy })
          .getMany();
    const stale = current.filter((l) => !termIds.includes(l.termId)).map((l) => l.termId);
    if (stale.length > 0) await links.delete({ eventId, termId: In(stale) });
    const fresh = termIds.filter((id) => !current.some((l) => l.termId === id));
    if (fresh.length > 0) {
      // No read-back of the rows just written (the repository's insert() would select them again).
      await insertInChunks(
        tx,
        EventTermEntity,
        fresh.map((termId) => ({ eventId, termId, published })),
      );
    }
    return { added: fresh, removed: stale };
  }

  /**
   * Moves the stored counts of these terms by `delta` in one statement (a batch of new events
   * moves them by its size at once). Increments stay right when concurrent writes touch the
   * same term (each waits for the row lock), where a recount from each transaction's own
   * snapshot could lose updates.
   */
  async adjustCounts(tx: Tx, termIds: number[], delta: number): Promise<void> {
    if (termIds.length === 0 || delta === 0) return;
    // The terms' counts moved (ChangeSet.recordAmong: their kind is looked up with the change rows).
    changesOf(tx)?.recordAmong(TAXONOMIES, termIds);
    const ids = [...new Set(termIds)].sort((a, b) => a - b);
    // Plain SQL: every event write runs this, and the ORM's UPDATE builder cost ~60 µs of it.
    const count = tx.connection.driver.escape('count');
    await tx.query(`UPDATE terms SET ${count} = ${count} ${delta > 0 ? '+' : '-'} ${Math.abs(delta)} WHERE id IN (${placeholders(ids)})`, ids);
  }

  /** Marks every assignment of an event as published or not; returns the affected term ids. */
  async setEventPublished(tx: Tx, eventId: number, published: boolean): Promise<number[]> {
    const links = tx.getRepository(EventTermEntity);
    const rows = await links.find({ where: { eventId }, select: { termId: true, published: true } });
    const changed = rows.filter((r) => r.published !== published).map((r) => r.termId);
    if (changed.length > 0) await links.update({ eventId }, { published });
    return changed;
  }

  /** Every assignment of one event (deleted for good). */
  async removeEventTerms(tx: Tx, eventId: number): Promise<void> {
    await tx.getRepository(EventTermEntity).delete({ eventId });
  }

  /** Recomputes the stored counts of these terms from their published assignments. */
  async recount(tx: Tx, termIds: number[]): Promise<void> {
    if (termIds.length === 0) return;
    // The covering index by term and `published`, named: with sampled statistics MariaDB took
    // the listing index (term first, no `published`) and read a row per link (minutes at a million).
    const counts: { term_id: number | string; n: number | string }[] = await tx.query(
      `SELECT term_id, COUNT(*) AS n FROM event_terms ${this.dialect.usingIndex('ix_event_terms_term')} WHERE term_id IN (${placeholders(termIds)}) AND published = ? GROUP BY term_id`,
      [...termIds, 1],
    );
    const byId = new Map(counts.map((c) => [Number(c.term_id), Number(c.n)]));
    for (const id of new Set(termIds)) {
      await tx.getRepository(TermEntity).update({ id }, { count: byId.get(id) ?? 0 });
    }
  }
}

/** The columns of a term as plain SQL selects them (alias `t`), and the row read back. */
const TERM_COLUMNS =
  't.id AS id, t.taxonomy AS taxonomy, t.name AS name, t.slug AS slug, t.description AS description, t.parent_id AS parent_id, t.count AS count';
interface TermRow {
  id: number | string;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  parent_id: number | string;
  count: number | string;
}

function termFromRow(r: TermRow): TermEntity {
  return Object.assign(new TermEntity(), {
    id: Number(r.id),
    taxonomy: r.taxonomy,
    name: r.name,
    slug: r.slug,
    description: r.description,
    parentId: Number(r.parent_id),
    count: Number(r.count),
  });
}

/** A term keeps a shadow key (see TermEntity.nameKey) while its name stays the same. */
function keyFor(term: Partial<TermEntity>): string {
  const name = term.name as string;
  const shadowed = term.id !== undefined && term.nameKey !== undefined && term.nameKey === shadowNameKey(name, term.id);
  return shadowed ? (term.nameKey as string) : termNameKey(name);
}
