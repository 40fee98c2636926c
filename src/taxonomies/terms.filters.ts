import type { SelectQueryBuilder } from 'typeorm';
import { ChangeEntity } from '../database/change-log';
import type { Dialect } from '../database/dialect';
import { EventTermEntity } from './entities/event-term.entity';
import type { TermEntity, Taxonomy } from './entities/term.entity';

/** A validated term list query, ready for SQL (spec endpoints.md §6.1). */
export interface TermListFilters {
  taxonomy: Taxonomy;
  search?: string;
  include?: number[];
  exclude?: number[];
  hideEmpty: boolean;
  parent?: number;
  eventId?: number;
  slug?: string;
  /** Changed after this UTC time by the change log (terms keep no modified time; sync.md `modified_after`). */
  changedAfter?: string;
}

export type TermOrderBy = 'id' | 'name' | 'slug' | 'count' | 'description' | 'parent' | 'include';

export interface TermOrder {
  by: TermOrderBy;
  direction: 'ASC' | 'DESC';
  /** The include list, for `orderby=include`. */
  include?: number[];
}

/** Adds the WHERE conditions of a term list to a query over `t` (TermEntity). */
export function applyTermFilters(qb: SelectQueryBuilder<TermEntity>, f: TermListFilters, dialect: Dialect): SelectQueryBuilder<TermEntity> {
  qb.where('t.taxonomy = :taxonomy', { taxonomy: f.taxonomy });
  if (f.search !== undefined) {
    const [byName, p1] = dialect.containsInsensitive('t.name', 'searchName', f.search);
    const [bySlug, p2] = dialect.containsInsensitive('t.slug', 'searchSlug', f.search);
    qb.andWhere(`(${byName} OR ${bySlug})`, { ...p1, ...p2 });
  }
  if (f.include !== undefined) qb.andWhere('t.id IN (:...include)', { include: f.include });
  if (f.exclude !== undefined) qb.andWhere('t.id NOT IN (:...exclude)', { exclude: f.exclude });
  if (f.parent !== undefined) qb.andWhere('t.parentId = :parent', { parent: f.parent });
  if (f.slug !== undefined) qb.andWhere('t.slug = :slug', { slug: f.slug });
  if (f.changedAfter !== undefined) {
    const changed = qb.subQuery().select('c.item_id').from(ChangeEntity, 'c').where('c.type = :changeType AND c.changed_utc > :changedAfter').getQuery();
    qb.andWhere(`t.id IN ${changed}`, { changeType: f.taxonomy, changedAfter: f.changedAfter });
  }
  if (f.eventId !== undefined) {
    qb.innerJoin(EventTermEntity, 'et', 'et.term_id = t.id AND et.event_id = :eventId', { eventId: f.eventId });
  } else if (f.hideEmpty) {
    qb.andWhere('t.count > 0');
  }
  return qb;
}

/** Plain columns sort directly; expressions go through a selected alias (selecting a plain
 * column under an alias would take it away from the entity). */
const SORT: Record<Exclude<TermOrderBy, 'include'>, { column: string } | { expression: string }> = {
  id: { column: 't.id' },
  name: { expression: 'LOWER(t.name)' },
  slug: { column: 't.slug' },
  count: { column: 't.count' },
  description: { expression: 'LOWER(t.description)' },
  parent: { column: 't.parentId' },
};

/** ORDER BY of a term list, always ending with the id as tiebreak. */
export function applyTermOrder(qb: SelectQueryBuilder<TermEntity>, order: TermOrder): SelectQueryBuilder<TermEntity> {
  let sort = SORT[order.by === 'include' ? 'name' : order.by];
  if (order.by === 'include' && order.include && order.include.length > 0) {
    const cases = order.include.map((id, i) => `WHEN ${Number(id)} THEN ${i}`).join(' ');
    sort = { expression: `CASE t.id ${cases} ELSE ${order.include.length} END` };
  }
  // Added after a list hook's leading order, if one set it (ListHook).
  if ('column' in sort) qb.addOrderBy(sort.column, order.direction);
  else qb.addSelect(sort.expression, 'sort_key').addOrderBy('sort_key', order.direction);
  return order.by === 'id' ? qb : qb.addOrderBy('t.id', order.direction);
}

/** orderby values of spec endpoints.md §6.1; unknown ones (and term_group) sort by name. */
export function parseTermOrder(orderby: string | undefined, order: string | undefined, taxonomy: Taxonomy, include?: number[]): TermOrder {
  const direction = order === undefined || order.toLowerCase() === 'asc' ? 'ASC' : 'DESC';
  const known: TermOrderBy[] = ['id', 'name', 'slug', 'count', 'description', 'include'];
  if (taxonomy === 'category') known.push('parent');
  const by = known.find((k) => k === orderby) ?? 'name';
  return { by, direction, include };
}
