import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { insertInChunks } from '../database/bulk-insert';
import { Dialect } from '../database/dialect';
import type { Tx } from '../database/tx';
import { PostEntity, PostType } from './post.entity';

/** Ids per INSERT of allocateIn (one bound value each). */
const IDS_PER_STATEMENT = 1_000;

/** Allocates ids from the shared post sequence and tells what kind of item an id is. */
@Injectable()
export class PostsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly dialect: Dialect,
  ) {}

  /** Reserve a new id for an item of this type (inside the caller's transaction). */
  allocate(type: PostType, manager: Tx): Promise<number> {
    // Plain SQL: every write takes this path, and the ORM's save() costs more than the insert.
    return this.dialect.insertReturningId(manager, 'INSERT INTO posts (type) VALUES (?)', [type]);
  }

  /**
   * Reserves `count` ids inside a write's transaction, in one INSERT where the engine gives its
   * rows ids no concurrent writer can interleave with (Dialect.insertReturningIds), else one
   * INSERT per id; in ascending order either way, as `count` allocate() calls would give them.
   */
  async allocateIn(type: PostType, count: number, manager: Tx): Promise<number[]> {
    const ids: number[] = [];
    while (ids.length < count) {
      const n = Math.min(IDS_PER_STATEMENT, count - ids.length);
      const batch = await this.dialect.insertReturningIds(
        manager,
        `INSERT INTO posts (type) VALUES ${Array(n).fill('(?)').join(', ')}`,
        Array(n).fill(type),
        n,
      );
      if (batch) ids.push(...batch);
      else for (let i = 0; i < n; i++) ids.push(await this.allocate(type, manager));
    }
    return ids;
  }

  /**
   * Reserves `count` ids at once (bulk loads such as `seed`); must run inside the caller's
   * transaction. The rows past the highest id seen at the start are ours: SQLite has one writer
   * at a time, and MySQL's REPEATABLE READ snapshot (taken by the first read) hides rows that
   * other transactions commit meanwhile. Anything else (READ COMMITTED with a concurrent
   * writer) shows as a count mismatch and fails the transaction rather than mixing ids.
   */
  async allocateMany(type: PostType, count: number, manager: Tx): Promise<number[]> {
    if (count === 0) return [];
    const posts = manager.getRepository(PostEntity);
    const before = await posts.createQueryBuilder('p').select('MAX(p.id)', 'max').getRawOne<{ max: number | string | null }>();
    const after = Number(before?.max ?? 0);
    await insertInChunks(
      manager,
      PostEntity,
      Array.from({ length: count }, () => ({ type })),
    );
    const rows = await posts
      .createQueryBuilder('p')
      .select('p.id', 'id')
      .where('p.id > :after', { after })
      .orderBy('p.id', 'ASC')
      .getRawMany<{ id: number | string }>();
    if (rows.length !== count) throw new Error(`allocated ${count} ${type} ids but found ${rows.length}: another writer interleaved`);
    return rows.map((r) => Number(r.id));
  }

  /**
   * Gives up the row of an item deleted for good (inside the delete's transaction): its id then
   * names nothing. The sequence never hands it out again (SQLite AUTOINCREMENT, InnoDB's
   * persistent counter).
   */
  async release(id: number, manager: Tx): Promise<void> {
    await manager.getRepository(PostEntity).delete({ id });
  }

  async typeOf(id: number): Promise<PostType | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const row = await this.db.getRepository(PostEntity).findOne({ where: { id }, select: { id: true, type: true } });
    return row?.type ?? null;
  }

  async isOfType(id: number, type: PostType): Promise<boolean> {
    return (await this.typeOf(id)) === type;
  }
}
