import { DataSource, EntityManager, EntityTarget, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { insertInChunks } from '../database/bulk-insert';
import { findEntitiesByIds } from '../database/entity-rows';
import type { Dialect } from '../database/dialect';
import { managerOf, type Reader, type Tx } from '../database/tx';
import { applyLinkedItemFilters, applyVisibility, LinkedItemEntity, LinkedItemListFilters, LinkedItemQueryShape } from './linked-items';
import { extended, type ListCondition } from '../common/pagination';
import { type ListVisibility, NAME_KEY_LENGTH, storeUnderFreeSlug, trashedSlug } from '../items';
import { placeholders } from '../database/sql';

/** The statuses of an event that "uses" a linked item: every one but the trash. */
const LIVE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/**
 * Every query on venues or organizers; a kind's repository extends this with its entity, its
 * query shape (search fields, event link) and how it is unlinked from events.
 */
export abstract class LinkedItemsRepository<E extends LinkedItemEntity> {
  protected constructor(
    protected readonly db: DataSource,
    private readonly dialect: Dialect,
    private readonly entity: EntityTarget<E>,
    private readonly shape: LinkedItemQueryShape,
  ) {}

  /** Removes the item from every event that links it (spec endpoints.md §4.4, last line). */
  protected abstract unlinkFromEvents(tx: Tx, id: number): Promise<void>;

  private query(manager: EntityManager = this.db.manager): SelectQueryBuilder<E> {
    return manager.getRepository(this.entity).createQueryBuilder(this.shape.alias);
  }

  private get a(): string {
    return this.shape.alias;
  }

  findById(id: number): Promise<E | null> {
    if (!Number.isSafeInteger(id) || id < 1) return Promise.resolve(null);
    return this.query().where(`${this.a}.id = :id`, { id }).getOne();
  }

  /** The item as committed now, kept from other writers until `tx` ends (Dialect.lockForUpdate). */
  findForUpdate(id: number, tx: Tx): Promise<E | null> {
    return this.dialect.lockForUpdate(this.query(tx).where(`${this.a}.id = :id`, { id })).getOne();
  }

  /** The item with exactly this slug; a live one before trashed ones sharing a `__trashed` slug. */
  findBySlug(slug: string): Promise<E | null> {
    return this.query()
      .where(`${this.a}.slug = :slug`, { slug })
      .orderBy(`CASE WHEN ${this.a}.status = 'trash' THEN 1 ELSE 0 END`, 'ASC')
      .addOrderBy(`${this.a}.id`, 'ASC')
      .getOne();
  }

  findByIds(ids: number[]): Promise<E[]> {
    const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
    if (wanted.length === 0) return Promise.resolve([]);
    return findEntitiesByIds(this.db.manager, this.entity, wanted);
  }

  async existingIds(ids: number[]): Promise<Set<number>> {
    const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
    if (wanted.length === 0) return new Set();
    const rows = await this.query().select(`${this.a}.id`).where(`${this.a}.id IN (:...ids)`, { ids: wanted }).getMany();
    return new Set(rows.map((r) => r.id));
  }

  private get table(): string {
    return this.db.getMetadata(this.entity).tableName;
  }

  /** Runs `write` (which stores `item`) under the first free slug for `base` (storeUnderFreeSlug). */
  underFreeSlug(item: E, base: string, tx: Tx, write: () => Promise<void>): Promise<void> {
    return storeUnderFreeSlug(tx, this.dialect, this.table, item, base, write);
  }

  /** Holds the named lock until the transaction of `manager` ends (Dialect.lockName). */
  lockName(tx: Tx, name: string): Promise<void> {
    return this.dialect.lockName(tx, name);
  }

  /**
   * The items among `ids` that are not in the trash, with what permissions judge; inside a
   * transaction (`lock`) they are also kept from changing until it ends, so that an item being
   * linked cannot be trashed before the link commits.
   */
  async findLive(ids: number[], reader: Reader, lock = false): Promise<Pick<E, 'id' | 'authorId' | 'status' | 'dateUtc'>[]> {
    const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0);
    if (wanted.length === 0) return [];
    const sql = `SELECT id, author_id, status, date_utc FROM ${this.table} WHERE id IN (${placeholders(wanted)}) AND status <> 'trash'`;
    const rows: { id: number | string; author_id: number | string; status: string; date_utc: string }[] = await managerOf(reader, this.db).query(
      lock ? this.dialect.lockForShare(sql) : sql,
      wanted,
    );
    return rows.map(
      (r) => ({ id: Number(r.id), authorId: Number(r.author_id), status: r.status, dateUtc: r.date_utc }) as Pick<E, 'id' | 'authorId' | 'status' | 'dateUtc'>,
    );
  }

  /**
   * The oldest item that a create would duplicate (§5.2): same name and, when given non-empty,
   * same description (both case-insensitive), not trashed, and visible to the creator.
   */
  findDuplicate(name: string, description: string | undefined, visible: ListVisibility, nowUtc: string, tx: Tx): Promise<E | null> {
    // name_key (indexed) narrows to the names with the same start; the whole name then decides.
    const qb = this.query(tx)
      .where(`${this.a}.nameKey = LOWER(SUBSTR(:name, 1, ${NAME_KEY_LENGTH}))`)
      .andWhere(`LOWER(${this.a}.name) = :name`, { name: name.toLowerCase() });
    if (description !== undefined) qb.andWhere(`LOWER(${this.a}.description) = :description`, { description: description.toLowerCase() });
    return applyVisibility(qb, this.a, visible, nowUtc).orderBy(`${this.a}.id`, 'ASC').getOne();
  }

  /** How many items match the list filters and the list extensions' conditions. */
  count(filters: LinkedItemListFilters, extensions: ListCondition[] = []): Promise<number> {
    return extended(applyLinkedItemFilters(this.query(), this.shape, filters, this.dialect), extensions).getCount();
  }

  /**
   * The ids of one page in list order (§5.1.2: publication date descending, then id descending),
   * after the leading order a list extension may set.
   */
  async pageIds(filters: LinkedItemListFilters, offset: number, limit: number, extensions: ListCondition[] = []): Promise<number[]> {
    // Ids first: sorting index entries is cheap, sorting whole rows (long texts) is not.
    const page = await extended(applyLinkedItemFilters(this.query(), this.shape, filters, this.dialect).select(`${this.a}.id`, 'id'), extensions)
      .addOrderBy(`${this.a}.dateUtc`, 'DESC')
      .addOrderBy(`${this.a}.id`, 'DESC')
      .offset(offset)
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    return page.map((r) => Number(r.id));
  }

  /**
   * Plain SQL, as events are inserted: the repository's insert() wrote the new id and flags into
   * the statement's text (a statement prepared anew for every item) and read the row back for
   * its generated column, which nothing uses.
   */
  async insert(item: E, tx: Tx): Promise<void> {
    await insertInChunks(tx, this.entity, [item as QueryDeepPartialEntity<E>]);
  }

  /** Bulk load (`seed`): items with their ids already allocated, in the caller's transaction. */
  insertMany(items: E[], tx: Tx): Promise<void> {
    return insertInChunks(tx, this.entity, items as QueryDeepPartialEntity<E>[]);
  }

  async update(item: E, tx: Tx): Promise<void> {
    const { id, ...columns } = item;
    await tx.getRepository(this.entity).update(id, columns as unknown as QueryDeepPartialEntity<E>);
  }

  /** Sets the item's `modified_utc` (UTC `YYYY-MM-DD HH:MM:SS`) inside `tx`, nothing else. */
  async setModifiedUtc(id: number, modifiedUtc: string, tx: Tx): Promise<void> {
    await tx.getRepository(this.entity).update(id, { modifiedUtc } as unknown as QueryDeepPartialEntity<E>);
  }

  /** Deletes the item's row for good after unlinking it from every event (events stay, without it). */
  async remove(id: number, tx: Tx): Promise<void> {
    await this.unlinkFromEvents(tx, id);
    await tx.getRepository(this.entity).delete(id);
  }

  /** Moves the item to the trash (slug freed with `__trashed`) and unlinks it from every event. */
  async trash(item: E, status: string, nowUtc: string, tx: Tx): Promise<E> {
    const trashed: E = { ...item, status: 'trash', statusBeforeTrash: status, slug: trashedSlug(item.slug), modifiedUtc: nowUtc };
    await this.update(trashed, tx);
    await this.unlinkFromEvents(tx, item.id);
    return trashed;
  }

  /**
   * How many events not in the trash use each item of `ids`, read from the link column
   * `table.column`, whose rows carry the event's status: one grouped query over the link index
   * for a whole list page.
   */
  protected async liveEventCounts(table: string, column: string, ids: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>(ids.map((id) => [id, 0]));
    if (ids.length === 0) return out;
    const rows: { id: number | string; n: number | string }[] = await this.db.query(
      `SELECT ${column} AS id, COUNT(*) AS n FROM ${table} WHERE ${column} IN (${placeholders(ids)}) AND status IN (${placeholders(LIVE_STATUSES)}) GROUP BY ${column}`,
      [...ids, ...LIVE_STATUSES],
    );
    for (const row of rows) out.set(Number(row.id), Number(row.n));
    return out;
  }
}
