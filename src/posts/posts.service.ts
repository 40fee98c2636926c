import { Injectable } from '@nestjs/common';
import type { Tx } from '../database/tx';
import type { PostType } from './post.entity';
import { PostsRepository } from './posts.repository';

/** Ids per INSERT of allocateIn (one bound value each). */
const IDS_PER_STATEMENT = 1_000;

/** Allocates ids from the shared post sequence and tells what kind of item an id is. */
@Injectable()
export class PostsService {
  constructor(private readonly posts: PostsRepository) {}

  /** Reserve a new id for an item of this type (inside the caller's transaction). */
  allocate(type: PostType, tx: Tx): Promise<number> {
    return this.posts.insertOne(tx, type);
  }

  /**
   * Reserves `count` ids inside a write's transaction, in one INSERT where the engine gives its
   * rows ids no concurrent writer can interleave with (Dialect.insertReturningIds), else one
   * INSERT per id; in ascending order either way, as `count` allocate() calls would give them.
   */
  async allocateIn(type: PostType, count: number, tx: Tx): Promise<number[]> {
    const ids: number[] = [];
    while (ids.length < count) {
      const n = Math.min(IDS_PER_STATEMENT, count - ids.length);
      const batch = await this.posts.insertMany(tx, type, n);
      if (batch) ids.push(...batch);
      else for (let i = 0; i < n; i++) ids.push(await this.allocate(type, tx));
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
  async allocateMany(type: PostType, count: number, tx: Tx): Promise<number[]> {
    if (count === 0) return [];
    const after = await this.posts.highestId(tx);
    await this.posts.insertBulk(tx, type, count);
    const ids = await this.posts.idsAfter(tx, after);
    if (ids.length !== count) throw new Error(`allocated ${count} ${type} ids but found ${ids.length}: another writer interleaved`);
    return ids;
  }

  /**
   * Gives up the row of an item deleted for good (inside the delete's transaction): its id then
   * names nothing. The sequence never hands it out again (SQLite AUTOINCREMENT, InnoDB's
   * persistent counter).
   */
  async release(id: number, tx: Tx): Promise<void> {
    await this.posts.remove(tx, id);
  }

  async typeOf(id: number): Promise<PostType | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    return this.posts.typeOf(id);
  }

  async isOfType(id: number, type: PostType): Promise<boolean> {
    return (await this.typeOf(id)) === type;
  }
}
